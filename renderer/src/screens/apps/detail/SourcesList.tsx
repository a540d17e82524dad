export interface Source {
  name: string;
  connectionId: string;
  query: string;
}

/**
 * An app's sources in the order they load: the first holds the facts, the others add rows or
 * columns to them. Each can be previewed; one who may change them edits, removes or moves it up.
 */
export function SourcesList(props: {
  sources: Source[];
  connectionName: (id: string) => string;
  mayChange: boolean;
  mayPreview: boolean;
  preview: (s: Source) => void;
  edit: (index: number) => void;
  remove: (index: number) => void;
  moveUp: (index: number) => void;
}) {
  const { sources, connectionName, mayChange, mayPreview } = props;
  return (
    <div className="table-scroll">
      <table aria-label="Sources">
        <thead>
          <tr>
            <th scope="col">Source</th>
            <th scope="col">Data connection</th>
            <th scope="col">Query</th>
            <th scope="col" className="actions-col">
              Actions
            </th>
          </tr>
        </thead>
        <tbody>
          {sources.map((s, i) => (
            <tr key={s.name}>
              <td>
                {s.name}
                {sources.length > 1 && <div className="muted">{i === 0 ? 'the facts' : 'adds to the facts'}</div>}
              </td>
              <td>{connectionName(s.connectionId)}</td>
              <td>
                <pre className="query">{s.query}</pre>
              </td>
              <td className="actions">
                <div className="row-actions">
                  {mayPreview && (
                    <button
                      type="button"
                      aria-label={`Preview the first 100 rows of ${s.name}`}
                      onClick={() => props.preview(s)}
                    >
                      Preview
                    </button>
                  )}
                  {mayChange && (
                    <>
                      <button type="button" aria-label={`Edit ${s.name}`} onClick={() => props.edit(i)}>
                        Edit
                      </button>
                      {i > 0 && (
                        <button type="button" aria-label={`Move ${s.name} up`} onClick={() => props.moveUp(i)}>
                          Up
                        </button>
                      )}
                      <button
                        type="button"
                        className="danger"
                        aria-label={`Remove ${s.name}`}
                        onClick={() => props.remove(i)}
                      >
                        Remove
                      </button>
                    </>
                  )}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
