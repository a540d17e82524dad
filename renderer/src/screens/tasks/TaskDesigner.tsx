import { useCallback, useEffect, useState } from 'react';
import { invoke } from '../../bridge';
import type { ResultOf } from '../../../../engine/catalogue';
import { Dialog } from '../../components/Dialog';
import { Form, submitOutcome } from '../../components/Form';
import { toastOutcome } from '../../stores/feedback/toasts';
import { useNav } from '../../stores/nav/nav.store';
import { TaskReportsSection } from './TaskReportsSection';
import { TaskRecipientsSection } from './TaskRecipientsSection';
import { TaskTriggersSection } from './TaskTriggersSection';
import { TaskEmailSection } from './TaskEmailSection';
import { TaskDryRunPanel } from './TaskDryRunPanel';
import { taskSettingsBody, taskSettingsFields } from './task-settings';
import { PermissionsDialog } from '../../components/PermissionsDialog';

export type TaskDto = ResultOf<'app.tasks.get'>;

/** One task: what it makes, for whom, when, and what it says; run it now from here. */
export function TaskDesigner({ taskId }: { taskId: string }) {
  const screenChosen = useNav((s) => s.screenChosen);
  const [task, setTask] = useState<TaskDto | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const [guarding, setGuarding] = useState(false);
  const load = useCallback(async () => {
    const a = await invoke('app.tasks.get', { params: { id: taskId } });
    if (a.ok) setTask(a.data);
    else setError(a.error);
  }, [taskId]);
  useEffect(() => void load(), [load]);

  if (error) return <div className="error-banner" role="alert">{error}</div>;
  if (!task) return <p className="empty">Loading…</p>;
  const runNow = async () => {
    const a = await invoke('v2.requests.run', { params: { id: task.id } });
    if (toastOutcome(a, `Started “${task.name}”.`)) void screenChosen('monitoring');
  };
  return (
    <section className="screen">
      <header className="screen-head">
        <div>
          <a href="#/tasks" className="crumb">Tasks</a>
          <h1>{task.name}</h1>
          <p className="status-line">
            {task.isActive ? 'Active' : 'Disabled: its schedules do not run'}
            {task.testMode ? ' · Test mode: mail goes only to the test recipients' : ''}
          </p>
        </div>
        <div className="head-actions">
          <button type="button" onClick={() => setEditing(true)}>Settings</button>
          <button type="button" onClick={() => setGuarding(true)}>Permissions</button>
          <button type="button" className="primary" onClick={() => void runNow()}>Run now</button>
        </div>
      </header>
      <div className="columns">
        <TaskReportsSection task={task} />
        <TaskRecipientsSection task={task} />
        <TaskTriggersSection task={task} />
        <TaskEmailSection task={task} saved={load} />
      </div>
      <TaskDryRunPanel task={task} />
      {guarding && <PermissionsDialog kind="task" id={task.id} name={task.name} onClose={() => setGuarding(false)} />}
      {editing && (
        <Dialog title="Task settings" onClose={() => setEditing(false)}>
          <Form
            fields={taskSettingsFields}
            initial={{ ...task }}
            submitLabel="Save"
            onCancel={() => setEditing(false)}
            onSubmit={async (v) => {
              const a = await invoke('v1.tasks.update', { params: { id: task.id }, body: taskSettingsBody(v) });
              if (!a.ok) return submitOutcome(a);
              setEditing(false);
              void load();
              return null;
            }}
          />
        </Dialog>
      )}
    </section>
  );
}
