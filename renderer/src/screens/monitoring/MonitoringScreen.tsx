import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { invoke } from '../../bridge';
import { onEngineEvent } from '../../engine-events';
import { createListStore } from '../../stores/lists/list-store';
import { RunsPlot } from './RunsPlot';
import { filterFromAddress, filterInAddress, RunFilters, runQuery, type RunFilter } from './RunFilters';
import { hashOf, useNav } from '../../stores/nav/nav.store';
import { ScheduledTasksPanel } from './parts/ScheduledTasksPanel';
import { RunsPanel } from './parts/RunsPanel';
import { OutboxPanel } from './parts/OutboxPanel';
import { DeliveriesPanel } from './parts/DeliveriesPanel';
import { RunLogDialog } from './parts/RunLogDialog';
import { AppReloadsPanel } from './parts/AppReloadsPanel';
import type { Run } from './parts/types';

/** Scheduled tasks and every run: live status and progress pushed by the engine, stop, delete, logs, files. */
export function MonitoringScreen() {
  const tasks = useMemo(() => createListStore('v1.requests.listScheduledStatuses', 'name'), []);
  // The runs' filter is read at each refresh (a ref: the store outlives renders).
  // Kept in the address, so a reload, Back or a shared link shows the same runs.
  const [filter, setFilter] = useState<RunFilter>(() => filterFromAddress(useNav.getState().path[0]));
  const filterRef = useRef(filter);
  filterRef.current = filter;
  const runs = useMemo(
    () => createListStore('app.requests.list', 'title', undefined, () => runQuery(filterRef.current)),
    [],
  );
  // The outbox follows the runs' filter: a task's mail, of a period (a mail's status is not a run's).
  const outbox = useMemo(
    () =>
      createListStore('app.outbox.list', 'subject', undefined, () => {
        const { status: _runStatus, ...mailOf } = runQuery(filterRef.current);
        return mailOf;
      }),
    [],
  );
  // Deliveries kept after their run follow the runs' filter as the outbox does.
  const deliveries = useMemo(
    () =>
      createListStore('app.deliveries.list', 'destination', undefined, () => {
        const { status: _runStatus, ...deliveriesOf } = runQuery(filterRef.current);
        return deliveriesOf;
      }),
    [],
  );
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
    void deliveries.getState().refreshRequested();
    void loadRecent();
  }, [tasks, runs, outbox, deliveries, loadRecent]);

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
    // Once the stream is live the lists are read again: a run that ended between the first read
    // and the stream's start would otherwise show as running until the next change.
    const offRuns = onEngineEvent('request.changed', soon, soon);
    // Mail is sent after its run ends: the outbox and the runs' mail column follow it too.
    const offMail = onEngineEvent('mail.changed', soon);
    const offDeliveries = onEngineEvent('delivery.changed', soon);
    return () => {
      offRuns();
      offMail();
      offDeliveries();
      if (timer) clearTimeout(timer);
    };
  }, [refreshAll]);
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
          const kept = filterInAddress(f);
          // Replaced, not pushed: Back leaves Monitoring rather than stepping through each filter.
          history.replaceState(null, '', hashOf('monitoring', kept ? [kept] : []));
          useNav.setState({ path: kept ? [kept] : [] });
          void runs.getState().pageChosen(1);
          void outbox.getState().pageChosen(1);
          void deliveries.getState().pageChosen(1);
          void loadRecent();
        }}
      />
      <div className="panel">
        <h2>Runs over time</h2>
        <RunsPlot runs={recent} narrowed={Object.values(filter).some(Boolean)} />
      </div>
      <ScheduledTasksPanel tasks={tasks} />
      <RunsPanel runs={runs} narrowed={Object.values(filter).some(Boolean)} refreshAll={refreshAll} logShown={setLog} />
      <OutboxPanel outbox={outbox} refreshAll={refreshAll} narrowed={Object.values(filter).some(Boolean)} />
      <DeliveriesPanel deliveries={deliveries} refreshAll={refreshAll} narrowed={Object.values(filter).some(Boolean)} />
      <AppReloadsPanel />
      {log && <RunLogDialog shown={log} close={() => setLog(null)} />}
    </section>
  );
}
