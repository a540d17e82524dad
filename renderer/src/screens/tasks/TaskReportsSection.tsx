import { invoke } from '../../bridge';
import { useAllRows } from '../../hooks/useAllRows';
import type { RowOf } from '../../../../engine/catalogue';
import { Form, submitOutcome, type Option } from '../../components/Form';
import { flag, ids, num, orNull, text } from '../../components/options';
import { askConfirm } from '../../stores/feedback/confirm.store';
import { toastOutcome } from '../../stores/feedback/toasts';
import type { TaskDto } from './TaskDesigner';

const FORMATS = ['Pdf', 'Docx', 'Xlsx', 'Pptx', 'Html', 'Csv', 'Png'] as const;
type TaskReport = RowOf<'v1.taskReports.list'>;

/** The reports a task makes: format, filters and conditions of each; add and remove. */
export function TaskReportsSection({ task }: { task: TaskDto }) {
  const [rows, load] = useAllRows('v1.taskReports.list', { taskId: task.id });

  const options = {
    reports: async (): Promise<Option[]> => {
      const a = await invoke('v1.reports.listOwn', { query: { project_id: task.projectId, get_all: true } });
      return a.ok ? a.data.map((r) => ({ id: r.id, name: `${r.name} (${r.outputFormats.join(', ')})` })) : [];
    },
    conditions: async (): Promise<Option[]> => {
      const a = await invoke('v1.conditions.list', { query: { project_id: task.projectId, get_all: true } });
      return a.ok ? a.data.map((c) => ({ id: c.id, name: c.name })) : [];
    },
    storage: async (): Promise<Option[]> => {
      const a = await invoke('v1.storageServices.list', { query: { get_all: true } });
      return a.ok ? a.data.map((x) => ({ id: x.id, name: `${x.name} (${x.type})` })) : [];
    },
    hubFolders: async (): Promise<Option[]> => {
      const a = await invoke('v1.hubFolders.list', { query: { get_all: true, sort_by: 'ParentUrl' } });
      return a.ok ? a.data.map((f) => ({ id: f.id, name: f.location })) : [];
    },
    filters: async (): Promise<Option[]> => {
      const a = await invoke('app.filters.list', { query: { projectId: task.projectId } });
      return a.ok ? a.data.map((f) => ({ id: f.id, name: f.name })) : [];
    },
  };
  const remove = async (r: TaskReport) => {
    const yes = await askConfirm({ title: 'Remove report from task?', message: `The task will no longer make “${r.reportName}” as ${r.format}.`, confirmLabel: 'Remove report' });
    if (!yes) return;
    toastOutcome(await invoke('v2.tasks.deleteReports', { params: { id: task.id }, body: [r.id] }), `Removed “${r.reportName}” from the task.`);
    void load();
  };
  return (
    <div className="panel">
      <h2>Reports</h2>
      <ul className="cards">
        {rows === null && <li className="empty">Loading…</li>}
        {rows?.map((r) => (
          <li key={r.id}>
            {r.reportName} <span className="badge">{r.format}</span>
            {r.conditions.map((c) => <span key={c.id} className="badge">if {c.name}{r.evaluateConditionForEachIteration ? ' (each value)' : ''}</span>)}
            {r.filters.map((f) => <span key={f.id} className="badge">filter {f.name}</span>)}
            {r.hasFileOpenPassword && <span className="badge">password</span>}
            {r.storageServices.length > 0 && <span className="badge">to {r.storageServices.length} storage</span>}
            {r.emailAttachment && <span className="badge">{r.zipEmailFiles ? 'zipped in mail' : 'attached'}</span>}
            {r.emailEmbedment && <span className="badge">in the mail body</span>}
            {r.recipientsVariable && <span className="badge">mailed to {r.recipientsVariable}</span>}
            {r.publishToServiceHub && <span className="badge">hub{r.maxFileOccurrences ? `, keeps ${r.maxFileOccurrences}` : ''}{r.hubAuthorizedUserVariable ? ` for ${r.hubAuthorizedUserVariable}` : ''}</span>}
            <span className="card-actions">
              <button type="button" className="small danger" aria-label={`Remove ${r.reportName ?? 'report'} from the task`} onClick={() => void remove(r)}>Remove</button>
            </span>
          </li>
        ))}
        {rows?.length === 0 && <li className="empty">No reports yet: add the first one below.</li>}
      </ul>
      <Form
        fields={[
          { name: 'reportID', label: 'Report', kind: 'select', required: true, options: options.reports },
          { name: 'format', label: 'Format', kind: 'select', required: true, choices: FORMATS },
          { name: 'filters', label: 'Filters (after the report\'s own)', kind: 'multi', options: options.filters },
          { name: 'conditions', label: 'Conditions (all must hold)', kind: 'multi', options: options.conditions },
          { name: 'eachIteration', label: 'Check the conditions for each iteration value', kind: 'checkbox' },
          { name: 'password', label: 'Password to open the file', kind: 'password', hint: 'Leave blank for an unprotected file' },
          { name: 'storage', label: 'Also put the files in', kind: 'select', options: options.storage },
          { name: 'storagePath', label: 'Under the path', kind: 'text', hint: 'Inside the storage service, such as monthly/2026' },
          { name: 'folderVariable', label: 'Subfolder per iteration value from the variable', kind: 'text', hint: 'A variable such as vRegion: each value\'s file goes to its own folder' },
          { name: 'mail', label: 'In the task\'s e-mail', kind: 'select', required: true, choices: ['Attached', 'In the body', 'Not mailed'] },
          { name: 'zipEmailFiles', label: 'Zip the attached files into one', kind: 'checkbox' },
          { name: 'recipientsVariable', label: 'Also mail each iteration value\'s file to the addresses in the variable', kind: 'text', hint: 'A variable such as vManagerEmail; each address gets only its own files' },
          { name: 'hubFolder', label: 'Publish to the hub, in', kind: 'select', options: options.hubFolders },
          { name: 'hubMax', label: 'Occurrences kept in the hub', kind: 'number', hint: 'Older ones are removed; blank keeps all' },
          { name: 'hubUserVariable', label: 'Hub: only for the users the variable names', kind: 'text', hint: 'A variable giving e-mail addresses per iteration value; leave blank for every recipient' },
        ]}
        initial={{ format: 'Pdf', mail: 'Attached' }}
        submitLabel="Add report"
        clearOnSuccess
        onSubmit={async (v) => {
          const password = orNull(v.password);
          const a = await invoke('v2.tasks.upsertReport', {
            params: { id: task.id },
            query: {},
            body: {
              reportID: text(v.reportID), format: text(v.format), emailEmbedment: v.mail === 'In the body', emailAttachment: v.mail === 'Attached',
              filters: ids(v.filters).map((id, order) => ({ id, order })), conditions: ids(v.conditions).map((id) => ({ id })),
              iterationOptions: {
                evaluateConditionForEachIteration: flag(v.eachIteration), zipEmailFiles: flag(v.zipEmailFiles),
                recipientsVariable: orNull(v.recipientsVariable), folderVariable: orNull(v.folderVariable), hubAuthorizedUserVariable: orNull(v.hubUserVariable),
              },
              hub: v.hubFolder ? { folderID: text(v.hubFolder), hubMaxFileOccurrences: num(v.hubMax) ?? 0 } : null,
              isOpenFilePasswordProtected: !!password, fileOpenPassword: password,
              storageServices: v.storage ? [{ fileStorageServiceID: text(v.storage), path: text(v.storagePath), order: 0 }] : [],
            },
          });
          if (!a.ok) return submitOutcome(a);
          void load();
          return null;
        }}
      />
    </div>
  );
}
