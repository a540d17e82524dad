import type { ResultOf } from '../../../../engine/catalogue';
import { useDraft, type Draft } from '../../stores/designer/draft.store';
import type { AppInfo } from './BlockEditor';

type Connection = ResultOf<'app.connections.list'>[number];
type Filter = { id: string; name: string };

/** The report's data, filters and iteration: part of the draft, saved with the blocks by one Save. */
export function DesignerDataPanel({
  draft,
  app,
  connections,
  filters,
}: {
  draft: Draft;
  app: AppInfo | null;
  connections: Connection[];
  filters: Filter[];
}) {
  const draftEdited = useDraft((s) => s.draftEdited);
  const firstTextField = app?.fields.find((f) => f.type === 'text')?.id ?? app?.fields[0]?.id ?? '';
  return (
    <div className="panel">
      <h2>Data</h2>
      <label htmlFor="conn">Connection</label>
      <select
        id="conn"
        value={draft.connectionId ?? ''}
        onChange={(e) => draftEdited({ connectionId: e.target.value || null, iterationFieldId: '' })}
      >
        {!draft.connectionId && <option value="">Choose a connection…</option>}
        {connections.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
      <fieldset className="filters-pick">
        <legend>Filters applied</legend>
        {filters.map((f) => (
          <label key={f.id} className="chip">
            <input
              type="checkbox"
              checked={draft.filterIds.includes(f.id)}
              onChange={(e) =>
                draftEdited({
                  filterIds: e.target.checked ? [...draft.filterIds, f.id] : draft.filterIds.filter((x) => x !== f.id),
                })
              }
            />
            {f.name}
          </label>
        ))}
        {!filters.length && <small className="hint">The project has no filters.</small>}
      </fieldset>
      <h2 className="spaced">Iteration</h2>
      <label className="check-line">
        <input
          type="checkbox"
          checked={draft.isIteration}
          onChange={(e) =>
            draftEdited({ isIteration: e.target.checked, iterationFieldId: draft.iterationFieldId || firstTextField })
          }
        />
        One file per value of
      </label>
      <select
        aria-label="Iteration field"
        value={draft.iterationFieldId}
        disabled={!draft.isIteration}
        onChange={(e) => draftEdited({ iterationFieldId: e.target.value })}
      >
        {!draft.iterationFieldId && <option value="">Choose a field…</option>}
        {app?.fields.map((f) => (
          <option key={f.id} value={f.id}>
            {f.name}
          </option>
        ))}
      </select>
      <label htmlFor="sep">File name separator</label>
      <input
        id="sep"
        value={draft.separator}
        maxLength={10}
        onChange={(e) => draftEdited({ separator: e.target.value }, 'separator')}
      />
      <small className="hint">Files are named: report name{draft.separator}value.</small>
    </div>
  );
}
