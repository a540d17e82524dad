import { invoke } from '../bridge';
import type { InputOf, ListOpId, RowOf } from '../../../engine/catalogue';
import type { Option } from './Form';

/** Choices for select fields, read through a list operation (all rows), labelled from its typed rows. */
function loader<L extends ListOpId>(op: L, label: (row: RowOf<L>) => string) {
  return async (): Promise<Option[]> => {
    const answer = await invoke(op, { query: { get_all: true } } as InputOf<L>);
    return answer.ok ? (answer.data as RowOf<L>[]).map((r) => ({ id: (r as { id: string }).id, name: label(r) })) : [];
  };
}

export const organizationOptions = loader('v1.organizations.list', (r) => r.displayName);
export const roleOptions = loader('v1.roles.listSimple', (r) => r.name);
export const groupOptions = loader('v1.groups.list', (r) => r.name);
export const projectOptions = loader('v1.projects.list', (r) => r.name);
export const userOptions = loader('v1.users.list', (r) => `${r.fullName}${r.email ? ` <${r.email}>` : ''}`);

// Form values are what the user typed or picked; these turn them into the types bodies declare.
export const text = (v: unknown): string => (v === undefined || v === null ? '' : String(v));
export const orNull = (v: unknown): string | null => (v === '' || v === undefined || v === null ? null : String(v));
export const flag = (v: unknown): boolean => !!v;
export const ids = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);
export const idList = (v: unknown) => ids(v).map((id) => ({ id }));
export type { FormValues } from './Form';
export const idsOf = (list: unknown) => ((list as { id: string }[] | undefined) ?? []).map((x) => x.id);
/** A value of an enumeration; anything else goes as typed, for the engine to refuse naming the values. */
export const choice =
  <T extends string>(values: readonly T[]) =>
  (v: unknown): T =>
    (values.find((x) => x === v) ?? text(v)) as T;
/** A datetime-local value as an ISO instant; anything unparsable goes as typed, for the engine to refuse. */
export const instant = (v: unknown): string =>
  v && !Number.isNaN(Date.parse(text(v))) ? new Date(text(v)).toISOString() : text(v);
/** A number field's value, or null when left blank. */
export const num = (v: unknown): number | null => (v === '' || v === undefined || v === null ? null : Number(v));
