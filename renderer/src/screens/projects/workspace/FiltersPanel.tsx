import { invoke } from '../../../bridge';
import type { ResultOf } from '../../../../../engine/catalogue';
import { Form, submitOutcome } from '../../../components/Form';
import { text } from '../../../components/options';
import { useNav } from '../../../stores/nav/nav.store';
import { askConfirm } from '../../../stores/feedback/confirm.store';
import { toastOutcome } from '../../../stores/feedback/toasts';
import type { PermissionKind } from '../../../components/PermissionsDialog';
import { ShareAndDelete } from './ShareAndDelete';
import type { May } from './may';

/** The project's filters: open, share, delete; create one. */
export function FiltersPanel(props: {
  projectId: string;
  filters: ResultOf<'app.filters.list'>;
  may: May;
  load: () => Promise<void>;
  guard: (g: { kind: PermissionKind; id: string; name: string }) => void;
}) {
  const { projectId, filters, may, load } = props;
  const screenChosen = useNav((s) => s.screenChosen);
  const removeFilter = async (f: { id: string; name: string }) => {
    const yes = await askConfirm({
      title: 'Delete filter?',
      message: `The filter “${f.name}” will be deleted with its steps. This cannot be undone.`,
      confirmLabel: 'Delete filter',
    });
    if (!yes) return;
    toastOutcome(await invoke('app.filters.delete', { params: { id: f.id } }), `Deleted filter “${f.name}”.`);
    void load();
  };
  return (
    <>
      <h2 className="spaced">Filters</h2>
      <ul className="cards">
        {filters.map((f) => (
          <li key={f.id}>
            <a href={`#/projects/${projectId}/filters/${f.id}`}>{f.name}</a>
            <span className="badge">
              {f.values.length} step{f.values.length === 1 ? '' : 's'}
            </span>
            <span className="card-actions">
              <ShareAndDelete
                label={`filter ${f.name}`}
                share={may('filter', f.id, 'v2.filters.setPermissions')}
                remove={may('filter', f.id, 'app.filters.delete')}
                onShare={() => props.guard({ kind: 'filter', id: f.id, name: f.name })}
                onRemove={() => void removeFilter(f)}
              />
            </span>
          </li>
        ))}
      </ul>
      {may('project', null, 'v2.filters.create') && (
        <Form
          fields={[{ name: 'name', label: 'New filter name', kind: 'text', required: true }]}
          initial={{}}
          submitLabel="Create filter"
          clearOnSuccess
          onSubmit={async (v) => {
            const a = await invoke('v2.filters.create', { body: { name: text(v.name), projectID: projectId } });
            if (!a.ok) return submitOutcome(a);
            void screenChosen('projects', projectId, 'filters', a.data.id);
            return null;
          }}
        />
      )}
    </>
  );
}
