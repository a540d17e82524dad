import type { ResultOf } from '../../../../../engine/catalogue';
import type { AppMeta } from './use-analytics-app';
import type { Selections } from './use-selection-answers';

/** The app's fields; the chosen one's values (searchable) select and unselect as they are clicked. */
export function FieldsPanel(props: {
  meta: AppMeta;
  field: string | null;
  chosen: (field: string) => void;
  search: string;
  searched: (text: string) => void;
  values: ResultOf<'app.analytics.fieldValues'>;
  selections: Selections;
  toggled: (field: string, value: string) => void;
}) {
  const { meta, field, search, values, selections } = props;
  return (
    <div className="panel">
      <h2>Fields</h2>
      <table>
        <thead>
          <tr>
            <th>Field</th>
            <th>Type</th>
            <th>Distinct values</th>
          </tr>
        </thead>
        <tbody>
          {meta.fields.map((f) => (
            <tr
              key={f.id}
              className={field === f.name ? 'selected clickable' : 'clickable'}
              onClick={() => props.chosen(f.name)}
            >
              <td>{f.name}</td>
              <td>{f.type}</td>
              <td>{f.distinctCount.toLocaleString()}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {field && (
        <>
          <h2 className="spaced">Values of {field}</h2>
          <input
            type="search"
            className="filter"
            placeholder={`Search the values of ${field}`}
            aria-label={`Search the values of ${field}`}
            value={search}
            onChange={(e) => props.searched(e.target.value)}
          />
          <div className="values" role="listbox" aria-label={`Values of ${field}`}>
            {values.map((v) => {
              const s = String(v.value ?? '');
              const on = (selections[field] ?? []).includes(s);
              return (
                <button
                  type="button"
                  key={s}
                  role="option"
                  aria-selected={on}
                  className={on ? 'value on' : 'value'}
                  onClick={() => props.toggled(field, s)}
                >
                  {s || '(empty)'} <small>{v.count.toLocaleString()}</small>
                </button>
              );
            })}
          </div>
        </>
      )}
    </div>
  );
}
