import { invoke } from '../../../bridge';
import type { ResultOf } from '../../../../../engine/catalogue';
import { Form, submitOutcome } from '../../../components/Form';
import { text } from '../../../components/options';
import { askConfirm } from '../../../stores/feedback/confirm.store';
import { toastOutcome } from '../../../stores/feedback/toasts';
import type { May } from './may';

const appOptions = async () => {
  const a = await invoke('v1.analyticsApps.list', { query: { get_all: true } });
  return a.ok ? a.data.map((x) => ({ id: x.id, name: x.name })) : [];
};

/** The project's connections to analytics apps: add one, remove one (refused, naming them, while reports use it). */
export function ConnectionsPanel(props: {
  projectId: string;
  connections: ResultOf<'app.connections.list'>;
  may: May;
  load: () => Promise<void>;
}) {
  const { projectId, connections, may, load } = props;
  const removeConnection = async (c: { id: string; name: string; appName: string | null }) => {
    const yes = await askConfirm({
      title: 'Remove connection?',
      message: `The project will no longer reach the app “${c.appName ?? 'unknown'}” through “${c.name}”. Reports using it must be given another connection.`,
      confirmLabel: 'Remove connection',
    });
    if (!yes) return;
    // A connection in use is refused with the reports named: told in a toast, the page stays.
    toastOutcome(await invoke('app.connections.delete', { params: { id: c.id } }), `Removed connection “${c.name}”.`);
    void load();
  };
  return (
    <>
      <h2>Connections</h2>
      <ul className="cards">
        {connections.map((c) => (
          <li key={c.id}>
            {c.name} <span className="badge">{c.appName}</span>
            {may('project', null, 'app.connections.delete') && (
              <button
                type="button"
                className="danger small"
                aria-label={`Remove connection ${c.name}`}
                onClick={() => void removeConnection(c)}
              >
                Remove
              </button>
            )}
          </li>
        ))}
        {!connections.length && <li className="empty">Connect the project to an analytics app to build reports.</li>}
      </ul>
      {may('project', null, 'app.connections.create') && (
        <Form
          fields={[
            { name: 'name', label: 'Connection name', kind: 'text', required: true },
            { name: 'analyticsAppId', label: 'Analytics app', kind: 'select', required: true, options: appOptions },
          ]}
          initial={{}}
          submitLabel="Add connection"
          clearOnSuccess
          onSubmit={async (v) => {
            const a = await invoke('app.connections.create', {
              body: { projectId, name: text(v.name), analyticsAppId: text(v.analyticsAppId) },
            });
            if (!a.ok) return submitOutcome(a);
            void load();
            return null;
          }}
        />
      )}
    </>
  );
}
