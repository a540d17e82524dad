import type { ReactNode } from 'react';
import type { StoreApi, UseBoundStore } from 'zustand';
import type { ListState } from '../stores/lists/list-store';

export interface Column<Row> {
  /** A field of the row (typed from the list operation: a renamed field fails the build). */
  key: keyof Row & string;
  label: string;
  /** The operation's sort name, when the column can be sorted. */
  sort?: string;
  render?: (row: Row) => ReactNode;
}

interface Props<Row> {
  store: UseBoundStore<StoreApi<ListState<Row>>>;
  columns: Column<Row>[];
  filterLabel?: string;
  actions?: (row: Row) => ReactNode;
  onRowClick?: (row: Row) => void;
  selectedId?: string | null;
  /** Filters set outside the table (a status, dates) narrow it: an empty table says so. */
  narrowed?: boolean;
  /** What an empty list says: what to do next ("None yet: New task makes one."). */
  emptyText?: string;
}

const idOf = (row: unknown) => (row as { id: string }).id;

/** A server-paged, server-sorted, server-filtered table. */
export function DataTable<Row>({
  store,
  columns,
  filterLabel,
  actions,
  onRowClick,
  selectedId,
  narrowed,
  emptyText,
}: Props<Row>) {
  const rows = store((s) => s.rows);
  const page = store((s) => s.page);
  const totalPages = store((s) => s.totalPages);
  const totalItems = store((s) => s.totalItems);
  const sortBy = store((s) => s.sortBy);
  const sortDirection = store((s) => s.sortDirection);
  const filter = store((s) => s.filter);
  const loading = store((s) => s.loading);
  const loaded = store((s) => s.loaded);
  const error = store((s) => s.error);
  const { pageChosen, sortChosen, filterTyped } = store.getState();
  return (
    <div className="table-wrap">
      {filterLabel && (
        <input
          className="filter"
          type="search"
          placeholder={`Filter by ${filterLabel}`}
          aria-label={`Filter by ${filterLabel}`}
          value={filter}
          onChange={(e) => filterTyped(e.target.value)}
        />
      )}
      {error && (
        <div className="error-banner" role="alert">
          {error}
        </div>
      )}
      <div className="table-scroll">
        <table className={loading ? 'loading' : ''} aria-busy={loading || !loaded}>
          <thead>
            <tr>
              {columns.map((c) => (
                <th
                  key={c.key}
                  aria-sort={sortBy === c.sort ? (sortDirection === 'asc' ? 'ascending' : 'descending') : undefined}
                >
                  {c.sort ? (
                    <button type="button" className="sort" onClick={() => sortChosen(c.sort!)}>
                      {c.label} {sortBy === c.sort ? (sortDirection === 'asc' ? '▲' : '▼') : ''}
                    </button>
                  ) : (
                    c.label
                  )}
                </th>
              ))}
              {actions && <th className="actions-col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={columns.length + (actions ? 1 : 0)} className="empty" role={loaded ? undefined : 'status'}>
                  {!loaded
                    ? 'Loading…'
                    : filter || narrowed
                      ? 'Nothing matches the filter.'
                      : (emptyText ?? 'Nothing here yet.')}
                </td>
              </tr>
            )}
            {rows.map((row) => (
              <tr
                key={idOf(row)}
                className={selectedId === idOf(row) ? 'selected' : onRowClick ? 'clickable' : ''}
                onClick={onRowClick ? () => onRowClick(row) : undefined}
              >
                {columns.map((c, i) => {
                  const content = c.render ? c.render(row) : String((row as Record<string, unknown>)[c.key] ?? '');
                  // A row that opens something opens from a button in its first cell too: reachable by Tab, Enter opens it.
                  if (i === 0 && onRowClick) {
                    return (
                      <td key={c.key}>
                        <button
                          type="button"
                          className="row-open"
                          aria-expanded={selectedId === idOf(row)}
                          onClick={(e) => {
                            e.stopPropagation();
                            onRowClick(row);
                          }}
                        >
                          {content}
                        </button>
                      </td>
                    );
                  }
                  return <td key={c.key}>{content}</td>;
                })}
                {actions && (
                  <td className="actions" onClick={(e) => e.stopPropagation()}>
                    <div className="row-actions">{actions(row)}</div>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="pager">
        <span>{loaded ? `${totalItems} item${totalItems === 1 ? '' : 's'}` : ''}</span>
        {loaded && totalPages > 1 && (
          <>
            <button type="button" disabled={page <= 1} onClick={() => pageChosen(page - 1)}>
              Previous
            </button>
            <span>
              Page {page} of {totalPages}
            </span>
            <button type="button" disabled={page >= totalPages} onClick={() => pageChosen(page + 1)}>
              Next
            </button>
          </>
        )}
      </div>
    </div>
  );
}
