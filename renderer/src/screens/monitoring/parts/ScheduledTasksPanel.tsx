import { invoke } from '../../../bridge';
import { DataTable } from '../../../components/DataTable';
import type { ListStore } from '../../../stores/lists/list-store';
import { toastOutcome } from '../../../stores/feedback/toasts';
import { Status } from './RunStatus';
import { when, type ScheduledTask } from './types';

/** Every scheduled task: its schedule, its last run, its next; "Run now". */
export function ScheduledTasksPanel({ tasks }: { tasks: ListStore<'v1.requests.listScheduledStatuses'> }) {
  const runNow = async (t: ScheduledTask) =>
    toastOutcome(await invoke('v2.requests.run', { params: { id: t.id } }), `Started “${t.name}”.`);
  return (
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
  );
}
