import { invoke } from '../../../bridge';
import { Form, submitOutcome } from '../../../components/Form';
import { text } from '../../../components/options';
import { useNav } from '../../../stores/nav/nav.store';
import { askConfirm } from '../../../stores/feedback/confirm.store';
import { toastFailed, toastOutcome } from '../../../stores/feedback/toasts';
import { mayCall } from '../../../stores/session/session.store';
import { distributeReport } from '../../tasks/new-task';
import { REPORT_TYPES } from '../../../../../engine/wire';
import type { PermissionKind } from '../../../components/PermissionsDialog';
import { NewTemplateReport } from '../NewTemplateReport';
import { ShareAndDelete } from './ShareAndDelete';
import type { ReportRow } from './use-project-workspace';
import type { May } from './may';

/** The project's reports: open, rename, share, delete; create one blank or from a starter. */
export function ReportsPanel(props: {
  projectId: string;
  reports: ReportRow[];
  may: May;
  load: () => Promise<void>;
  rename: (r: ReportRow) => void;
  guard: (g: { kind: PermissionKind; id: string; name: string }) => void;
}) {
  const { projectId, reports, may, load } = props;
  const screenChosen = useNav((s) => s.screenChosen);
  const removeReport = async (r: ReportRow) => {
    const yes = await askConfirm({
      title: 'Delete report?',
      message: `The report “${r.name}” will be deleted with its design. This cannot be undone.`,
      confirmLabel: 'Delete report',
    });
    if (!yes) return;
    toastOutcome(await invoke('app.reports.delete', { params: { id: r.id } }), `Deleted report “${r.name}”.`);
    void load();
  };
  const distribute = async (r: ReportRow) => {
    const made = await distributeReport(projectId, { id: r.id, name: r.name, formats: r.outputFormats });
    if ('problem' in made) toastFailed(`The task to distribute “${r.name}” could not be made whole: ${made.problem}`);
    if (made.taskId) void screenChosen('tasks', made.taskId);
  };
  return (
    <div className="panel">
      <h2>Reports</h2>
      <ul className="cards">
        {reports.map((r) => (
          <li key={r.id}>
            <a href={`#/projects/${projectId}/reports/${r.id}`}>{r.name}</a>
            <span className="badge">{r.type}</span>
            {r.templateFile ? (
              <span className="badge" title={r.templateFile}>
                template
              </span>
            ) : null}
            {r.isIteration ? <span className="badge">iterates</span> : null}
            <span className="card-actions">
              {mayCall('v1.tasks.create') && (
                <button
                  type="button"
                  className="small"
                  onClick={() => void distribute(r)}
                  aria-label={`Distribute ${r.name}`}
                  title="A task that mails this report to you and publishes it to the hub; add recipients and a schedule there"
                >
                  Distribute
                </button>
              )}
              {may('report', r.id, 'v2.reports.update') && (
                <button type="button" className="small" onClick={() => props.rename(r)} aria-label={`Rename ${r.name}`}>
                  Rename
                </button>
              )}
              <ShareAndDelete
                label={r.name}
                share={may('report', r.id, 'v2.reports.setPermissions')}
                remove={may('report', r.id, 'app.reports.delete')}
                onShare={() => props.guard({ kind: 'report', id: r.id, name: r.name })}
                onRemove={() => void removeReport(r)}
              />
            </span>
          </li>
        ))}
        {!reports.length && (
          <li className="empty">
            No reports yet: create one below, blank or from your own Word, Excel or PowerPoint file.
          </li>
        )}
      </ul>
      {may('project', null, 'v2.reports.create') && (
        <Form
          fields={[
            { name: 'name', label: 'New report name', kind: 'text', required: true },
            { name: 'type', label: 'Type', kind: 'select', required: true, choices: REPORT_TYPES },
          ]}
          initial={{ type: 'Word' }}
          submitLabel="Create report"
          clearOnSuccess
          onSubmit={async (v) => {
            const a = await invoke('v2.reports.create', {
              body: { name: text(v.name), projectID: projectId, type: text(v.type) },
            });
            if (!a.ok) return submitOutcome(a);
            void screenChosen('projects', projectId, 'reports', a.data.id);
            return null;
          }}
        />
      )}
      {may('project', null, 'app.reports.createFromTemplate') && (
        <NewTemplateReport
          projectId={projectId}
          onCreated={(id) => void screenChosen('projects', projectId, 'reports', id)}
        />
      )}
    </div>
  );
}
