import { useCallback, useEffect, useState } from 'react';
import { inZone } from '../../components/times';
import { invoke } from '../../bridge';
import type { ResultOf, RowOf } from '../../../../engine/catalogue';
import { selectMayCall, useSession } from '../../stores/session/session.store';
import { toastFailed, toastSucceeded } from '../../stores/feedback/toasts';

type Status = ResultOf<'app.userDirectories.syncs'>;
type Run = Status['syncs'][number];

const when = (iso: string | null) => inZone(iso) || '—';
const summary = (r: Run) =>
  r.status === 'failed'
    ? (r.message ?? 'Failed')
    : `${r.created} created, ${r.updated} updated, ${r.deactivated} deactivated, ${r.groups} groups`;
/** The directory setting a failure names, as the form labels it. */
const SETTING: Record<string, string> = {
  password: 'Password',
  userName: 'User name',
  hostName: 'Host',
  filter: 'Filter',
  userDirectoryName: 'Base DN',
  type: 'Type',
};

/**
 * A directory's synchronization: its status, when the next one is due, "Sync now", and the recent
 * runs with the log of the one chosen (the newest at first).
 */
export function DirectorySyncPanel({
  directory,
  changed,
}: {
  directory: Pick<RowOf<'v1.userDirectories.list'>, 'id' | 'name' | 'isActive'>;
  changed: () => void;
}) {
  const me = useSession((s) => s.me);
  const maySync = selectMayCall('app.userDirectories.sync')({ me });
  const [status, setStatus] = useState<Status | null>(null);
  const [shown, setShown] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const load = useCallback(async () => {
    const a = await invoke('app.userDirectories.syncs', { params: { id: directory.id } });
    if (a.ok) setStatus(a.data);
  }, [directory.id]);
  useEffect(() => {
    setShown(null);
    void load();
  }, [load]);

  const syncNow = async () => {
    setBusy(true);
    const a = await invoke('app.userDirectories.sync', { params: { id: directory.id } });
    setBusy(false);
    if (!a.ok) toastFailed(a.error ?? 'The synchronization could not start.');
    else if (a.data.status === 'failed')
      toastFailed(
        `${directory.name}: ${a.data.message ?? 'the synchronization failed'}${a.data.field ? ` (check ${SETTING[a.data.field] ?? a.data.field})` : ''}`,
      );
    else toastSucceeded(`${directory.name} synchronized: ${summary(a.data)}.`);
    if (a.ok) setShown(a.data.id);
    await load();
    changed();
  };

  // Signs in and finds someone, without synchronizing: the setting to fix, named, when it cannot.
  const testNow = async () => {
    setBusy(true);
    const a = await invoke('app.userDirectories.test', { params: { id: directory.id } });
    setBusy(false);
    if (a.ok) toastSucceeded(a.data.message);
    else
      toastFailed(
        `${a.error ?? 'The directory could not be reached.'}${a.errorDetails?.[0] ? ` (check ${SETTING[a.errorDetails[0].field] ?? a.errorDetails[0].field})` : ''}`,
      );
  };

  const runs = status?.syncs ?? [];
  const open = runs.find((r) => r.id === shown) ?? runs[0] ?? null;
  return (
    <div className="panel" aria-busy={busy}>
      <h2>Synchronization of {directory.name}</h2>
      <dl className="facts">
        <dt>Status</dt>
        <dd>{busy || status?.running ? 'Synchronizing…' : (status?.syncStatus ?? 'Never synchronized')}</dd>
        <dt>Last started</dt>
        <dd>{when(status?.lastStartedSync ?? null)}</dd>
        <dt>Next on schedule</dt>
        <dd>{status?.nextSync ? when(status.nextSync) : 'Only when asked'}</dd>
        <dt>Signing in</dt>
        <dd>
          {directory.isActive
            ? 'Its people sign in with their e-mail and directory password'
            : 'Its people cannot sign in while it is inactive'}
        </dd>
      </dl>
      {maySync && (
        <div className="inline-form">
          <button
            type="button"
            className="primary"
            disabled={busy || !directory.isActive}
            onClick={() => void syncNow()}
          >
            {busy ? 'Synchronizing…' : 'Sync now'}
          </button>
          <button type="button" disabled={busy} onClick={() => void testNow()}>
            Test connection
          </button>
          {!directory.isActive && <span className="hint">Activate the directory to synchronize it.</span>}
          {busy && <span role="status">Reading the directory, then saving its people and groups…</span>}
        </div>
      )}
      {runs.length === 0 ? (
        <p className="empty">No synchronization yet.</p>
      ) : (
        <table aria-label="Recent synchronizations">
          <thead>
            <tr>
              <th scope="col">Started</th>
              <th scope="col">How</th>
              <th scope="col">Outcome</th>
              <th scope="col">Changes</th>
            </tr>
          </thead>
          <tbody>
            {runs.map((r) => (
              <tr key={r.id} className={open?.id === r.id ? 'selected' : undefined}>
                <td>
                  <button
                    type="button"
                    className="link"
                    onClick={() => setShown(r.id)}
                    aria-pressed={open?.id === r.id}
                  >
                    {when(r.startedAt)}
                  </button>
                </td>
                <td>{r.trigger === 'manual' ? 'Asked for' : 'On schedule'}</td>
                <td className={r.status === 'failed' ? 'failed-text' : undefined}>
                  {r.status === 'completed' ? 'Completed' : r.status === 'failed' ? 'Failed' : 'Running'}
                </td>
                <td>{summary(r)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {open && (
        <>
          <h3>Log of {when(open.startedAt)}</h3>
          <pre className="log-view" tabIndex={0} aria-label="Synchronization log">
            {open.log}
          </pre>
        </>
      )}
    </div>
  );
}
