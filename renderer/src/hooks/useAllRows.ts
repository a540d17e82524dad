import { useCallback, useEffect, useState } from 'react';
import { invoke } from '../bridge';
import type { InputOf, ListOpId, RowOf } from '../../../engine/catalogue';

/**
 * Every row of a list operation (get_all) for a panel that shows them all, with a reload: null
 * while the first answer is on its way, so "Loading…" and "nothing yet" are told apart.
 */
export function useAllRows<L extends ListOpId>(
  op: L,
  params: Record<string, string>,
): [RowOf<L>[] | null, () => Promise<void>] {
  const [rows, setRows] = useState<RowOf<L>[] | null>(null);
  const key = JSON.stringify(params);
  const load = useCallback(async () => {
    const a = await invoke(op, { params: JSON.parse(key), query: { get_all: true } } as InputOf<L>);
    setRows(a.ok ? (a.data as RowOf<L>[]) : []);
  }, [op, key]);
  useEffect(() => void load(), [load]);
  return [rows, load];
}
