import { useCallback, useEffect, useState } from 'react';
import { invoke } from '../../../bridge';
import { onEngineEvent } from '../../../engine-events';
import type { ResultOf } from '../../../../../engine/catalogue';

export type AppMeta = ResultOf<'app.analytics.get'>;

/** One app's metadata as the engine answers it, read again on `load`; and its import's progress as it arrives. */
export function useAnalyticsApp(id: string) {
  const [meta, setMeta] = useState<AppMeta | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const load = useCallback(async () => {
    const a = await invoke('app.analytics.get', { params: { id } });
    if (a.ok) setMeta(a.data);
    else setError(a.error);
  }, [id]);
  useEffect(() => void load(), [load]);
  useEffect(
    () =>
      onEngineEvent('analytics.import.progress', (e) => {
        if (e.appId === id) setProgress(e.percent);
      }),
    [id],
  );
  return { meta, setMeta, error, setError, progress, setProgress, load };
}
