import { invoke } from '../../bridge';
import { orNull, projectOptions, text } from '../../components/options';
import { taskSettingsBody, taskSettingsFields } from './task-settings';
import { ResourceScreen, type ResourceConfig } from '../../components/ResourceScreen';
import { createWith, updateWith } from '../../components/crud-config';
import { useNav } from '../../stores/nav/nav.store';
import { toastOutcome } from '../../stores/feedback/toasts';
import { TaskDesigner } from './TaskDesigner';
import { taskEmailOn } from './new-task';
import { mayCall } from '../../stores/session/session.store';

const config: ResourceConfig<'v1.tasks.list'> = {
  title: 'Tasks',
  noun: 'task',
  listOp: 'v1.tasks.list',
  filterParam: 'name',
  filterLabel: 'name',
  columns: [
    { key: 'name', label: 'Name', sort: 'Name', render: (r) => <a href={`#/tasks/${r.id}`}>{r.name}</a> },
    { key: 'description', label: 'Description', sort: 'Description' },
    { key: 'isActive', label: 'Active', sort: 'IsActive', render: (r) => (r.isActive ? 'Yes' : 'No') },
    { key: 'testMode', label: 'Test mode', render: (r) => (r.testMode ? 'On' : '') },
    {
      key: 'modifiedDate',
      label: 'Changed',
      sort: 'ModifiedDate',
      render: (r) => (r.modifiedDate ? new Date(r.modifiedDate).toLocaleString() : ''),
    },
  ],
  creates: [
    createWith('v1.tasks.create', {
      noun: 'task',
      fields: [
        { name: 'name', label: 'Name', kind: 'text', required: true },
        { name: 'projectId', label: 'Project', kind: 'select', required: true, options: projectOptions },
        { name: 'description', label: 'Description', kind: 'textarea' },
      ],
      initial: {},
      toBody: (v) => ({ name: text(v.name), projectId: text(v.projectId), description: orNull(v.description) }),
      // A new task opens in its designer (it needs reports, recipients and a schedule), its e-mail on.
      created: (t) => void taskEmailOn(t).then(() => useNav.getState().screenChosen('tasks', t.id)),
    }),
  ],
  update: updateWith('v1.tasks.update', {
    fields: taskSettingsFields,
    toForm: (r) => ({ ...r }),
    toBody: taskSettingsBody,
  }),
  remove: {
    op: 'app.tasks.delete',
    consequence: () =>
      'Its reports, recipients and schedules go with it; its past runs stay in the monitoring history.',
  },
  // Running is a role of its own: a task one may only look at is not offered to run.
  rowActions: (r) =>
    mayCall('v2.requests.run') && (
      <button
        type="button"
        onClick={async () =>
          toastOutcome(
            await invoke('v2.requests.run', { params: { id: r.id } }),
            `Started “${r.name}”; follow it under Monitoring.`,
          )
        }
      >
        Run now
      </button>
    ),
};

/** Tasks: the list, or one task's designer (#/tasks/<id>). */
export function TasksScreen() {
  const path = useNav((s) => s.path);
  if (path[0]) return <TaskDesigner key={path[0]} taskId={path[0]} />;
  return <ResourceScreen config={config} />;
}
