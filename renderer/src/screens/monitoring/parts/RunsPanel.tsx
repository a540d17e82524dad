import { downloadFile, invoke } from '../../../bridge';
import { DataTable } from '../../../components/DataTable';
import type { ListStore } from '../../../stores/lists/list-store';
import { askConfirm } from '../../../stores/feedback/confirm.store';
import { toastFailed, toastOutcome } from '../../../stores/feedback/toasts';
import { Status } from './RunStatus';
import { mayCall } from '../../../stores/session/session.store';
import { LIVE, when, type Run } from './types';

/** Every run the caller may see: who started it, how it went, its mail; stop, log, download, delete. */
export function RunsPanel(props: {
  runs: ListStore<'app.requests.list'>;
  narrowed: boolean;
  refreshAll: () => void;
  logShown: (log: { run: Run; text: string }) => void;
}) {
  const { runs, refreshAll } = props;
  const setLog = props.logShown;
  const stop = async (r: Run) =>
    toastOutcome(await invoke('v2.requests.stop', { params: { id: r.id } }), `Stopped “${r.title}”.`);
  const remove = async (r: Run) => {
    const yes = await askConfirm({
      title: 'Delete run?',
      message: `The run of “${r.title}” will be deleted with its log and ${r.files.length} file${r.files.length === 1 ? '' : 's'}.${LIVE.includes(r.status) ? ' It is stopped first.' : ''} This cannot be undone.`,
      confirmLabel: 'Delete run',
    });
    if (!yes) return;
    toastOutcome(await invoke('v2.requests.delete', { params: { id: r.id } }), `Deleted the run of “${r.title}”.`);
    refreshAll();
  };
  const showLog = async (r: Run) => {
    const a = await invoke('app.requests.log', { params: { id: r.id } });
    if (a.ok) setLog({ run: r, text: a.data.text });
    else toastFailed(a.error ?? 'The log could not be read');
  };
  const download = async (r: Run) => {
    const a = await downloadFile('app.onDemand.result', { params: { id: r.id }, query: {} });
    if (!a.ok) toastFailed(a.error ?? 'The files could not be downloaded');
  };
  return (
    <div className="panel">
      <h2>Runs</h2>
      <DataTable
        store={runs}
        narrowed={props.narrowed}
        filterLabel="title"
        columns={[
          { key: 'title', label: 'What', sort: 'title' },
          {
            key: 'source',
            label: 'Started by',
            sort: 'source',
            render: (r) =>
              r.kind === 'ScheduledTask'
                ? r.catchUp
                  ? 'schedule (catch-up)'
                  : r.triggerId && !r.scheduledFor
                    ? 'event'
                    : 'schedule'
                : r.kind === 'OnDemandTask'
                  ? 'by hand'
                  : 'on demand',
          },
          {
            key: 'status',
            label: 'Status',
            sort: 'status',
            // What the run says beside its status: a warning's reason, or what conditions left out as designed.
            render: (r) => (
              <>
                <Status run={r} />
                {r.message && !LIVE.includes(r.status) && (
                  <div className={r.status === 'completed' ? 'run-note' : 'delivery-problem'}>{r.message}</div>
                )}
              </>
            ),
          },
          { key: 'createdDate', label: 'Queued', sort: 'createddate', render: (r) => when(r.createdDate) },
          {
            key: 'durationMs',
            label: 'Took',
            render: (r) => (r.durationMs === null ? '' : `${(r.durationMs / 1000).toFixed(1)} s`),
          },
          { key: 'files', label: 'Files', render: (r) => String(r.files.length) },
          {
            key: 'mail',
            label: 'Mail',
            render: (r) => (
              <>
                {LIVE.includes(r.status)
                  ? ''
                  : Object.entries(r.mail)
                      .map(([status, n]) => `${n} ${status}`)
                      .join(' · ') || 'none'}
                {r.deliveryProblem && (
                  <div className="delivery-problem" role="note">
                    {r.deliveryProblem}
                  </div>
                )}
              </>
            ),
          },
        ]}
        actions={(r) => (
          <>
            {LIVE.includes(r.status) && mayCall('v2.requests.stop') && (
              <button type="button" onClick={() => void stop(r)}>
                Stop
              </button>
            )}
            <button type="button" onClick={() => void showLog(r)}>
              Log
            </button>
            {r.files.length > 0 && !LIVE.includes(r.status) && (
              <button type="button" onClick={() => void download(r)}>
                Download
              </button>
            )}
            {mayCall('v2.requests.delete') && (
              <button type="button" className="danger" onClick={() => void remove(r)}>
                Delete
              </button>
            )}
          </>
        )}
      />
    </div>
  );
}
