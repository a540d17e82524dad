import { useCallback, useEffect, useState } from 'react';
import { invoke } from '../../../bridge';
import { onEngineEvent } from '../../../engine-events';
import type { ResultOf } from '../../../../../engine/catalogue';
import { ReloadsTable } from '../../apps/detail/ReloadsTable';
import { selectMayCall, useSession } from '../../../stores/session/session.store';

type Reload = ResultOf<'app.analytics.listReloads'>[number];

/**
 * Apps' reloads from their databases beside the runs: on their schedule or by hand, how long they
 * took, and why one failed (the data before it kept); live as they start and end.
 */
export function AppReloadsPanel() {
  const mayList = useSession(selectMayCall('app.analytics.listReloads'));
  const [failedOnly, setFailedOnly] = useState(false);
  const [reloads, setReloads] = useState<Reload[] | null>(null);
  const load = useCallback(async () => {
    const a = await invoke('app.analytics.listReloads', {
      query: { page_size: 20, ...(failedOnly ? { status: 'failed' as const } : {}) },
    });
    if (a.ok) setReloads(a.data);
  }, [failedOnly]);
  useEffect(() => {
    if (!mayList) return;
    void load();
    const again = () => void load();
    return onEngineEvent('analytics.reload.changed', again, again);
  }, [mayList, load]);
  if (!mayList || reloads === null) return null;
  return (
    <div className="panel">
      <div className="block-head">
        <h2>App reloads</h2>
        <label className="inline">
          <input type="checkbox" checked={failedOnly} onChange={(e) => setFailedOnly(e.target.checked)} /> Failed only
        </label>
      </div>
      {reloads.length === 0 ? (
        <p className="empty">{failedOnly ? 'No reload has failed.' : 'No app has reloaded from a database yet.'}</p>
      ) : (
        <ReloadsTable reloads={reloads} label="App reloads" withApp />
      )}
    </div>
  );
}
