import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { downloadFile, invoke, onEngineEvent } from '../../bridge';
import type { RowOf } from '../../../../engine/catalogue';
import { DataTable } from '../../components/DataTable';
import { Dialog } from '../../components/Dialog';
import { createListStore } from '../../stores/lists/list-store';
import { askConfirm } from '../../stores/feedback/confirm.store';
import { toastFailed, toastOutcome } from '../../stores/feedback/toasts';
import { RunsPlot } from './RunsPlot';
import { NO_FILTER, RunFilters, runQuery, type RunFilter } from './RunFilters';
import { hereZone, inZone, readableTimes } from '../../components/times';
import { LIVE as LIVE_STATES } from '../../../../engine/wire';

type Run = RowOf<'app.requests.list'>;
type Message = RowOf<'app.outbox.list'>;
const LIVE: string[] = LIVE_STATES;
const when = (iso: string | null) => inZone(iso);

function Status({ run }: { run: { status: string | null; progress: { done: number; total: number } | null } }) {
  if (!run.status) return <span className="empty">never run</span>;
  const p = run.progress;
  return (
    <span className={`status status-${run.status}`}>
      {run.status}
      {run.status === 'running' && p && p.total > 0 && (
        <progress max={p.total} value={p.done} aria-label={`${p.done} of ${p.total} files`}>
          {p.done}/{p.total}
        </progress>
      )}
      {run.status === 'running' && p && p.total > 0 && ` ${p.done}/${p.total}`}
    </span>
  );
}

/** Scheduled tasks and every run: live status and progress pushed by the engine, stop, delete, logs, files. */
export function MonitoringScreen() {
  const tasks = useMemo(() => createListStore('v1.requests.listScheduledStatuses', 'name'), []);
  // The runs' filter is read at each refresh (a ref: the store outlives renders).
  const [filter, setFilter] = useState<RunFilter>(NO_FILTER);
  const filterRef = useRef(filter);
  filterRef.current = filter;
  const runs = useMemo(
    () => createListStore('app.requests.list', 'title', undefined, () => runQuery(filterRef.current)),
    [],
  );
  const outbox = useMemo(() => createListStore('app.outbox.list', 'subject'), []);
  const [recent, setRecent] = useState<Run[]>([]);
  const [log, setLog] = useState<{ run: Run; text: string } | null>(null);
  const loadRecent = useCallback(async () => {
    const a = await invoke('app.requests.list', {
      query: { page_size: 100, sort_by: 'createddate', sort_direction: 'desc', ...runQuery(filterRef.current) },
    });
    if (a.ok) setRecent(a.data);
  }, []);
  const refreshAll = useCallback(() => {
    void tasks.getState().refreshRequested();
    void runs.getState().refreshRequested();
    void outbox.getState().refreshRequested();
    void loadRecent();
  }, [tasks, runs, outbox, loadRecent]);

  useEffect(() => refreshAll(), [refreshAll]);
  // The engine says when a request changes; a burst of progress is gathered into one refresh.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const soon = () => {
      timer ??= setTimeout(() => {
        timer = null;
        refreshAll();
      }, 300);
    };
    const offRuns = onEngineEvent('request.changed', soon);
    // Mail is sent after its run ends: the outbox and the runs' mail column follow it too.
    const offMail = onEngineEvent('mail.changed', soon);
    return () => {
      offRuns();
      offMail();
      if (timer) clearTimeout(timer);
    };
  }, [refreshAll]);
  // An open log follows its run.
  useEffect(() => {
    if (!log || !LIVE.includes(log.run.status)) return;
    const off = onEngineEvent('request.changed', (e) => {
      if (e.id !== log.run.id) return;
      void invoke('app.requests.log', { params: { id: e.id } }).then(
        (a) =>
          a.ok &&
          setLog((cur) =>
            cur && cur.run.id === e.id ? { run: { ...cur.run, status: e.status }, text: a.data.text } : cur,
          ),
      );
    });
    return off;
  }, [log]);

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
  const cancel = async (m: Message) => {
    const yes = await askConfirm({
      title: 'Cancel mail?',
      message: `“${m.subject}” to ${m.to.join(', ')} will not be sent. You can send it again later with Retry.`,
      confirmLabel: 'Cancel mail',
    });
    if (!yes) return;
    toastOutcome(await invoke('app.outbox.cancel', { params: { id: m.id } }), `“${m.subject}” will not be sent.`);
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
  const runNow = async (t: RowOf<'v1.requests.listScheduledStatuses'>) =>
    toastOutcome(await invoke('v2.requests.run', { params: { id: t.id } }), `Started “${t.name}”.`);

  return (
    <section className="screen">
      <header className="screen-head">
        <h1>Monitoring</h1>
        <div className="head-actions">
          <button type="button" onClick={refreshAll}>
            Refresh
          </button>
        </div>
      </header>
      <RunFilters
        value={filter}
        changed={(f) => {
          filterRef.current = f;
          setFilter(f);
          void runs.getState().pageChosen(1);
          void loadRecent();
        }}
      />
      <div className="panel">
        <h2>Runs over time</h2>
        <RunsPlot runs={recent} />
      </div>
      <div className="panel">
        <h2>Scheduled tasks</h2>
        <DataTable
          store={tasks}
          filterLabel="task name"
          columns={[
            { key: 'name', label: 'Task', sort: 'name', render: (t) => <a href={`#/tasks/${t.id}`}>{t.name}</a> },
            { key: 'schedule', label: 'Schedule', sort: 'schedule' },
            { key: 'status', label: 'Last run', sort: 'status', render: (t) => <Status run={t} /> },
            {
              key: 'lastExecution',
              label: 'Last started',
              sort: 'lastexecution',
              render: (t) => when(t.lastExecution),
            },
            {
              key: 'nextExecution',
              label: 'Next run',
              sort: 'nextexecution',
              render: (t) => (t.isActive ? when(t.nextExecution) : 'disabled'),
            },
          ]}
          actions={(t) => (
            <button type="button" onClick={() => void runNow(t)}>
              Run now
            </button>
          )}
        />
      </div>
      <div className="panel">
        <h2>Runs</h2>
        <DataTable
          store={runs}
          narrowed={Object.values(filter).some(Boolean)}
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
            { key: 'status', label: 'Status', sort: 'status', render: (r) => <Status run={r} /> },
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
                  {Object.entries(r.mail)
                    .map(([status, n]) => `${n} ${status}`)
                    .join(' · ')}
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
              {LIVE.includes(r.status) && (
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
              <button type="button" className="danger" onClick={() => void remove(r)}>
                Delete
              </button>
            </>
          )}
        />
      </div>
      <div className="panel">
        <h2>Outbox</h2>
        <DataTable
          store={outbox}
          filterLabel="subject"
          columns={[
            { key: 'subject', label: 'Subject', sort: 'subject' },
            { key: 'to', label: 'To', render: (m) => m.to.join(', ') },
            {
              key: 'status',
              label: 'Status',
              sort: 'status',
              render: (m) => (
                <span
                  className={`status status-${m.status === 'sent' ? 'completed' : m.status === 'failed' ? 'failed' : 'warning'}`}
                >
                  {m.status}
                  {m.uncertain ? ' (resent after an interruption)' : ''}
                </span>
              ),
            },
            { key: 'attempts', label: 'Attempts', sort: 'attempts' },
            {
              key: 'lastError',
              label: 'Server reply',
              render: (m) =>
                m.lastError ? (
                  <>
                    <div>{m.explanation}</div>
                    <div className="raw-reply">{m.lastError}</div>
                  </>
                ) : (
                  ''
                ),
            },
            { key: 'sentAt', label: 'Sent', sort: 'sentAt', render: (m) => when(m.sentAt) },
          ]}
          actions={(m) => (
            <>
              {(m.status === 'failed' || m.status === 'cancelled') && (
                <button
                  type="button"
                  onClick={async () => {
                    toastOutcome(
                      await invoke('app.outbox.retry', { params: { id: m.id } }),
                      `Sending “${m.subject}” again.`,
                    );
                    refreshAll();
                  }}
                >
                  Retry
                </button>
              )}
              {(m.status === 'queued' || m.status === 'uncertain' || m.status === 'failed') && (
                <button type="button" onClick={() => void cancel(m)}>
                  Cancel
                </button>
              )}
            </>
          )}
        />
      </div>
      {log && (
        <Dialog title={`Log of “${log.run.title}”`} onClose={() => setLog(null)}>
          <p className="hint">Times in your zone ({hereZone}).</p>
          <pre className="log-view" tabIndex={0}>
            {readableTimes(log.text)}
          </pre>
        </Dialog>
      )}
    </section>
  );
}
