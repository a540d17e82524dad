import { useState } from 'react';
import { invoke } from '../../bridge';
import type { RowOf } from '../../../../engine/catalogue';
import { askConfirm } from '../../stores/feedback/confirm.store';
import { toastOutcome } from '../../stores/feedback/toasts';

type Folder = RowOf<'v1.hubFolders.list'>;

/** The hub's folders for those who manage them: add one under a parent, delete one (its files move to the root). */
export function HubFolders({ folders, onChanged }: { folders: Folder[]; onChanged: () => void }) {
  const root = folders.find((f) => f.isRoot);
  const [name, setName] = useState('');
  const [parentId, setParentId] = useState('');
  const [error, setError] = useState<string | null>(null);
  const parent = folders.find((f) => f.id === parentId) ?? root;

  const add = async () => {
    const location = `${(parent?.location ?? '/').replace(/\/$/, '')}/${name.trim()}`;
    const a = await invoke('v1.hubFolders.create', {
      body: { parentId: parent?.id ?? null, name, parentUrl: parent?.location ?? '/', location },
    });
    setError(a.ok ? null : (a.errorDetails.find((d) => d.field === 'body.name')?.message ?? a.error));
    if (a.ok) {
      setName('');
      toastOutcome(a, `Added ${a.data.location}.`);
      onChanged();
    }
  };
  const remove = async (f: Folder) => {
    const yes = await askConfirm({
      title: 'Delete folder?',
      message: `${f.location} and its subfolders will be deleted. Their files are kept and move to the hub's root.`,
      confirmLabel: 'Delete folder',
    });
    if (!yes) return;
    toastOutcome(await invoke('v1.hubFolders.delete', { body: [f.id] }), `Deleted ${f.location}.`);
    onChanged();
  };

  return (
    <div className="panel">
      <h2>Folders</h2>
      <ul className="plain-list">
        {folders.map((f) => (
          <li key={f.id}>
            <span>{f.isRoot ? '/ (the hub’s root)' : f.location}</span>
            {!f.isRoot && (
              <button
                type="button"
                className="danger"
                onClick={() => void remove(f)}
                aria-label={`Delete folder ${f.location}`}
              >
                Delete
              </button>
            )}
          </li>
        ))}
      </ul>
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          void add();
        }}
      >
        <label>
          New folder
          <input
            value={name}
            onChange={(e) => setName(e.target.value)}
            aria-invalid={!!error}
            aria-describedby={error ? 'hub-folder-error' : undefined}
            required
          />
        </label>
        <label>
          In
          <select value={parentId} onChange={(e) => setParentId(e.target.value)}>
            {folders.map((f) => (
              <option key={f.id} value={f.isRoot ? '' : f.id}>
                {f.isRoot ? '/ (root)' : f.location}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Add folder</button>
        {error && (
          <span id="hub-folder-error" className="field-error" role="alert">
            {error}
          </span>
        )}
      </form>
    </div>
  );
}
