import { invoke } from '../../../bridge';
import type { ResultOf } from '../../../../../engine/catalogue';
import { askConfirm } from '../../../stores/feedback/confirm.store';
import { toastOutcome } from '../../../stores/feedback/toasts';
import type { May } from './may';

/** "Members only": the project's permissions mode, switched by whoever may (asked first when turned on); a badge for the others. */
export function PermissionsModeSwitch(props: {
  project: ResultOf<'app.projects.get'>;
  may: May;
  load: () => Promise<void>;
}) {
  const { project, may, load } = props;
  const projectId = project.id;
  const setMode = async (on: boolean) => {
    if (on) {
      const yes = await askConfirm({
        title: 'Turn on permissions mode?',
        message: `Only administrators, the project's creator and the members you add will reach “${project?.name}” and its reports, filters, conditions and tasks.`,
        confirmLabel: 'Turn on',
      });
      if (!yes) return;
    }
    toastOutcome(
      await invoke('v2.projects.updatePermissionsMode', {
        params: { id: projectId },
        query: { value: on ? 'true' : 'false' },
      }),
      on ? 'Permissions mode is on: members only.' : 'Permissions mode is off: roles alone decide.',
    );
    void load();
  };
  return (
    <>
      {may('project', null, 'v2.projects.updatePermissionsMode') ? (
        <label className="mode-switch">
          <input type="checkbox" checked={project.permissionsMode} onChange={(e) => void setMode(e.target.checked)} />
          Members only (permissions mode)
        </label>
      ) : (
        project.permissionsMode && <span className="badge">Members only</span>
      )}
    </>
  );
}
