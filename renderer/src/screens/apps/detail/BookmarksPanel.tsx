import { invoke } from '../../../bridge';
import { IfMayChangeApp } from './app-change';
import { Form, submitOutcome } from '../../../components/Form';
import { text } from '../../../components/options';
import type { AppMeta } from './use-analytics-app';
import type { Selections } from './use-selection-answers';
import { RemoveItemButton } from './RemoveItemButton';

/** The app's bookmarks: one click applies its selections; the current selections saved as a new one. */
export function BookmarksPanel(props: {
  id: string;
  meta: AppMeta;
  selections: Selections;
  applied: (selections: Selections) => void;
  changed: () => void;
}) {
  const { id, meta, selections } = props;
  const load = props.changed;
  return (
    <>
      <h2 className="spaced">Bookmarks</h2>
      <ul className="cards">
        {meta.bookmarks.map((b) => (
          <li key={b.id}>
            <button type="button" className="link" onClick={() => props.applied(b.selections)}>
              {b.name}
            </button>
            <small className="hint">
              {' '}
              {Object.entries(b.selections)
                .map(([f, v]) => `${f}: ${v.join(', ')}`)
                .join('; ')}
            </small>
            <span className="card-actions">
              <RemoveItemButton appId={id} kind="Bookmark" item={b} removed={load} />
            </span>
          </li>
        ))}
      </ul>
      <IfMayChangeApp>
        <Form
          fields={[{ name: 'name', label: 'Save current selections as', kind: 'text', required: true }]}
          initial={{}}
          submitLabel="Save bookmark"
          clearOnSuccess
          onSubmit={async (v) => {
            const a = await invoke('app.analytics.saveBookmark', {
              params: { id },
              body: { name: text(v.name), selections },
            });
            if (a.ok) void load();
            return submitOutcome(a);
          }}
        />
      </IfMayChangeApp>
    </>
  );
}
