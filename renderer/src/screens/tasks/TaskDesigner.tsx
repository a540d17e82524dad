import { useCallback, useEffect, useState } from 'react';
import { invoke } from '../../bridge';
import { DraftFields } from '../../components/DraftFields';
import { PermissionsDialog } from '../../components/PermissionsDialog';
import { useProjectAccess } from '../../hooks/useProjectAccess';
import { useUndoKeys } from '../../hooks/useUndoKeys';
import { useUnsavedGuard } from '../../hooks/useUnsavedGuard';
import { selectDirty } from '../../stores/drafts/create-draft-store';
import { askConfirm } from '../../stores/feedback/confirm.store';
import { toastOutcome, toastSucceeded } from '../../stores/feedback/toasts';
import { useNav } from '../../stores/nav/nav.store';
import { useTaskDraft } from '../../stores/tasks/task-draft.store';
import { saveTaskDraft, type SaveProblems } from './save-task-draft';
import { loadTaskState, type TaskState } from './task-draft';
import { taskSettingsFields } from './task-settings';
import { TaskDryRunPanel } from './TaskDryRunPanel';
import { TaskEmailSection } from './TaskEmailSection';
import { TaskRecipientsSection } from './TaskRecipientsSection';
import { TaskReportsSection } from './TaskReportsSection';
import { TaskTriggersSection } from './TaskTriggersSection';

/**
 * One task as one draft, like the report designer: settings, e-mail, reports, recipients and
 * schedules are edited in place with undo and redo, written by one Save; leaving with unsaved
 * changes asks first, and "Run now" asks to save them, since a run uses what is saved.
 */
export function TaskDesigner({ taskId }: { taskId: string }) {
  const screenChosen = useNav((s) => s.screenChosen);
  const [state, setState] = useState<TaskState | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [problems, setProblems] = useState<SaveProblems>({});
  const [saving, setSaving] = useState(false);
  const [guarding, setGuarding] = useState(false);
  const draft = useTaskDraft((s) => (s.ownerId === taskId ? s.draft : null));
  const dirty = useTaskDraft(selectDirty);
  const canUndo = useTaskDraft((s) => s.past.length > 0);
  const canRedo = useTaskDraft((s) => s.future.length > 0);
  const { draftLoaded, draftEdited, draftRebased, undoRequested, redoRequested } = useTaskDraft.getState();
  useUndoKeys(useTaskDraft);
  // What this person may do to the task, as the engine's checks answer it.
  const may = useProjectAccess(state?.task.projectId ?? null, state);
  // Until the answer comes, Save behaves as before; once it says no, Save is off and says why.
  const mayEdit = may('task', taskId, 'app.tasks.save') !== false;

  useEffect(() => {
    void loadTaskState(taskId).then((s) => {
      if (typeof s === 'string') return setError(s);
      setState(s);
      draftLoaded(taskId, s.draft);
    });
  }, [taskId, draftLoaded]);

  /** Writes the draft; true when all of it was written. */
  const save = useCallback(async (): Promise<boolean> => {
    const d = useTaskDraft.getState().draft;
    if (!d || !state) return false;
    setSaving(true);
    const refused = await saveTaskDraft(taskId, state.draft, d);
    const failed = Object.keys(refused).length > 0;
    // Refused: nothing was written, so the draft stays as edited, the parts at fault marked.
    const stored = failed ? null : await loadTaskState(taskId);
    setSaving(false);
    if (typeof stored === 'string') {
      setProblems({ task: stored });
      return false;
    }
    setProblems(refused);
    if (!stored) return false;
    setState(stored);
    draftRebased(stored.draft, stored.draft);
    toastSucceeded('Saved the task.');
    return true;
  }, [taskId, state, draftRebased]);
  useUnsavedGuard(dirty, state ? `“${state.task.name}”` : 'this task', mayEdit ? save : undefined);

  if (error)
    return (
      <div className="error-banner" role="alert">
        {error}
      </div>
    );
  if (!state || !draft) return <p className="empty">Loading…</p>;

  const runNow = async () => {
    if (useTaskDraft.getState().draft && selectDirty(useTaskDraft.getState())) {
      const yes = await askConfirm({
        title: 'Save before running?',
        message: 'A run uses the saved task. Your changes are not saved yet: save them now and run with them?',
        confirmLabel: 'Save and run',
        cancelLabel: 'Keep editing',
      });
      if (!yes || !(await save())) return;
    }
    const a = await invoke('v2.requests.run', { params: { id: taskId } });
    if (toastOutcome(a, `Started “${draft.settings.name}”.`)) void screenChosen('monitoring');
  };
  const s = draft.settings;
  const problemList = Object.values(problems);
  return (
    <section className="screen">
      <header className="screen-head">
        <div>
          <a href="#/tasks" className="crumb">
            Tasks
          </a>
          <h1>{state.task.name}</h1>
          <p className="status-line">
            {s.isActive ? 'Active' : 'Disabled: its schedules do not run'}
            {s.testMode ? ' · Test mode: mail goes only to the test recipients' : ''}
            {dirty && <span className="badge unsaved"> Unsaved changes</span>}
          </p>
          {!mayEdit && (
            <p className="hint" id="task-view-only">
              Save is off: you may view this task, not change it.
            </p>
          )}
        </div>
        <div className="head-actions">
          <button type="button" onClick={undoRequested} disabled={!canUndo} aria-keyshortcuts="Control+Z">
            Undo
          </button>
          <button type="button" onClick={redoRequested} disabled={!canRedo} aria-keyshortcuts="Control+Shift+Z">
            Redo
          </button>
          <button
            type="button"
            className={dirty && mayEdit ? 'primary' : ''}
            onClick={() => void save()}
            disabled={!dirty || saving || !mayEdit}
            aria-describedby={mayEdit ? undefined : 'task-view-only'}
          >
            {saving ? 'Saving…' : 'Save'}
          </button>
          {may('task', taskId, 'v2.tasks.setPermissions') && (
            <button type="button" onClick={() => setGuarding(true)}>
              Permissions
            </button>
          )}
          {may('task', taskId, 'v2.requests.run') && (
            <button type="button" className={dirty ? '' : 'primary'} onClick={() => void runNow()}>
              Run now
            </button>
          )}
        </div>
      </header>
      {problemList.length > 0 && (
        <div className="error-banner" role="alert">
          Nothing was saved: put right what is listed and save again. Your changes stay in the draft.
          <ul>
            {problemList.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </div>
      )}
      {/* What a viewer may not change is shown, not offered: a disabled fieldset turns off every field and button in it. */}
      <fieldset className="columns plain" disabled={!mayEdit} aria-describedby={mayEdit ? undefined : 'task-view-only'}>
        <legend className="sr-only">The task</legend>
        <TaskReportsSection
          projectId={state.task.projectId}
          items={draft.reports}
          problems={problems}
          edited={(reports) => draftEdited({ reports })}
        />
        <TaskRecipientsSection
          items={draft.recipients}
          readOnly={!mayEdit}
          edited={(recipients) => draftEdited({ recipients })}
        />
        <TaskTriggersSection
          items={draft.triggers}
          stored={state.triggers}
          problems={problems}
          edited={(triggers) => draftEdited({ triggers })}
        />
        <TaskEmailSection
          email={draft.email}
          edited={(change, key) => draftEdited({ email: { ...draft.email, ...change } }, key)}
        />
        <div className="panel">
          <h2>Settings</h2>
          <DraftFields
            fields={taskSettingsFields}
            values={s}
            onChange={(change, key) => draftEdited({ settings: { ...s, ...change } }, key)}
          />
        </div>
      </fieldset>
      <TaskDryRunPanel taskId={taskId} dirty={dirty} save={mayEdit ? save : undefined} />
      {guarding && (
        <PermissionsDialog kind="task" id={taskId} name={state.task.name} onClose={() => setGuarding(false)} />
      )}
    </section>
  );
}
