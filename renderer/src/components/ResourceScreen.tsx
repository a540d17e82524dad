import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { invoke, type Answer } from '../bridge';
import type { DeleteByIdsOpId, ListOpId, OpId, RowOf } from '../../../engine/catalogue';
import { createListStore } from '../stores/lists/list-store';
import { selectMayCall, useSession } from '../stores/session/session.store';
import { DataTable, type Column } from './DataTable';
import { Dialog } from './Dialog';
import { Form, type FieldDef, type FormValues } from './Form';
import { askConfirm } from '../stores/feedback/confirm.store';
import { toastOutcome, toastSucceeded } from '../stores/feedback/toasts';

/** A create action: its operation (shown when the caller may call it), its form, and how it submits. */
export interface CreateDef {
  noun: string;
  op: OpId;
  fields: FieldDef[];
  initial: FormValues;
  submit: (values: FormValues) => Promise<Answer<unknown>>;
  /** Told what the operation answered (a new key, a new app's id). */
  created?: (data: unknown) => void;
}

export interface UpdateDef<Row> {
  op: (row: Row) => OpId;
  fields: FieldDef[] | ((row: Row) => FieldDef[]);
  toForm: (row: Row) => FormValues;
  submit: (values: FormValues, row: Row) => Promise<Answer<unknown>>;
  /** Settings of the row saved on their own, shown in the same dialog below its form (an organization's sign-in). */
  alongside?: (row: Row) => ReactNode;
}

/** A screen's configuration, typed by its list operation: rows, columns and actions follow its answer. */
export interface ResourceConfig<L extends ListOpId> {
  title: string;
  noun: string;
  listOp: L;
  listParams?: () => Record<string, string>;
  filterParam?: string;
  filterLabel?: string;
  columns: Column<RowOf<L>>[];
  creates?: CreateDef[];
  update?: UpdateDef<RowOf<L>>;
  /** Deletes by a list of ids, or by the row through its own operation (`run`). */
  remove?: (
    | { op: DeleteByIdsOpId; run?: undefined }
    | { op: OpId; run: (row: RowOf<L>) => Promise<Answer<unknown>> }
  ) & {
    /** What goes with the row, said in the question (its reports, its members). */
    consequence?: (row: RowOf<L>) => string;
  };
  rowActions?: (row: RowOf<L>, reload: () => void) => ReactNode;
  /** Actions of the whole screen beside its "New …" buttons (inviting people). */
  headerActions?: (reload: () => void) => ReactNode;
  detail?: (row: RowOf<L>, reload: () => void) => ReactNode;
  /** A button on each row that opens its detail, named for what is there ("Sign-in settings"): a click on the row is not found by all. */
  detailLabel?: string;
}

const idOf = (row: unknown) => (row as { id: string }).id;
/** What a person calls a row: its name, quoted (never its id, which means nothing to them), or null. */
const nameOf = (row: unknown): string | null => {
  const r = row as { name?: unknown; displayName?: unknown; fullName?: unknown; title?: unknown; email?: unknown };
  const name = [r.name, r.displayName, r.fullName, r.title, r.email].find((x) => typeof x === 'string' && x.trim());
  return name ? `“${String(name)}”` : null;
};

/** A list with create, edit and delete for one resource, driven by its catalogue operations. */
export function ResourceScreen<L extends ListOpId>({ config }: { config: ResourceConfig<L> }) {
  const store = useMemo(() => createListStore(config.listOp, config.filterParam ?? null, config.listParams), [config]);
  const me = useSession((s) => s.me);
  const may = (op: OpId) => selectMayCall(op)({ me });
  const [editing, setEditing] = useState<{ row: RowOf<L> } | CreateDef | null>(null);
  const [selected, setSelected] = useState<RowOf<L> | null>(null);
  const reload = () => void store.getState().refreshRequested();
  // What a row opens takes the focus (and scrolls into view), so the keyboard goes on from there.
  const detailRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!selected) return;
    detailRef.current?.focus({ preventScroll: true });
    detailRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [selected]);

  useEffect(() => void store.getState().refreshRequested(), [store]);

  const remove = async (row: RowOf<L>) => {
    const consequence = config.remove!.consequence?.(row);
    const named = nameOf(row);
    const yes = await askConfirm({
      title: `Delete ${config.noun}?`,
      message: `${named ?? `This ${config.noun}`} will be deleted.${consequence ? ` ${consequence}` : ''} This cannot be undone.`,
      confirmLabel: `Delete ${config.noun}`,
    });
    if (!yes) return;
    const how = config.remove!;
    const answer = how.run ? await how.run(row) : await invoke(how.op, { body: [idOf(row)] });
    toastOutcome(answer, `Deleted ${config.noun}${named ? ` ${named}` : ''}.`);
    if (selected && idOf(selected) === idOf(row)) setSelected(null);
    reload();
  };

  const creating = editing && 'submit' in editing ? editing : null;
  const row = editing && 'row' in editing ? editing.row : null;
  const update = config.update;
  // An empty list says what makes its first row, when this person may make one.
  const makers = (config.creates ?? []).filter((c) => may(c.op)).map((c) => `New ${c.noun}`);
  const emptyText = makers.length
    ? `No ${config.title.toLowerCase()} yet: ${makers.map((m) => `“${m}”`).join(' or ')} above makes the first.`
    : `No ${config.title.toLowerCase()} yet.`;
  return (
    <section className="screen">
      <header className="screen-head">
        <h1>{config.title}</h1>
        <div className="head-actions">
          {(config.creates ?? [])
            .filter((c) => may(c.op))
            .map((c) => (
              <button key={c.noun} type="button" className="primary" onClick={() => setEditing(c)}>
                New {c.noun}
              </button>
            ))}
          {config.headerActions?.(reload)}
        </div>
      </header>
      <DataTable
        store={store}
        columns={config.columns}
        filterLabel={config.filterLabel}
        emptyText={emptyText}
        selectedId={selected ? idOf(selected) : null}
        onRowClick={config.detail ? (r) => setSelected(r) : undefined}
        actions={(r) => (
          <>
            {config.rowActions?.(r, reload)}
            {config.detail && config.detailLabel && (
              <button
                type="button"
                aria-label={`${config.detailLabel} of ${nameOf(r) ?? config.noun}`}
                onClick={() => setSelected(r)}
              >
                {config.detailLabel}
              </button>
            )}
            {update && may(update.op(r)) && (
              <button
                type="button"
                aria-label={`Edit ${nameOf(r) ?? config.noun}`}
                onClick={() => setEditing({ row: r })}
              >
                Edit
              </button>
            )}
            {config.remove && may(config.remove.op) && (
              <button
                type="button"
                className="danger"
                aria-label={`Delete ${nameOf(r) ?? config.noun}`}
                onClick={() => void remove(r)}
              >
                Delete
              </button>
            )}
          </>
        )}
      />
      {selected && config.detail && (
        <div
          className="detail"
          ref={detailRef}
          tabIndex={-1}
          aria-label={`${nameOf(selected) ?? config.noun}`}
          role="region"
        >
          {config.detail(selected, reload)}
        </div>
      )}
      {(creating || (row && update)) && (
        <Dialog title={creating ? `New ${creating.noun}` : `Edit ${config.noun}`} onClose={() => setEditing(null)}>
          <Form
            fields={
              creating ? creating.fields : typeof update!.fields === 'function' ? update!.fields(row!) : update!.fields
            }
            initial={creating ? creating.initial : update!.toForm(row!)}
            submitLabel={creating ? 'Create' : 'Save'}
            onCancel={() => setEditing(null)}
            onSubmit={async (values) => {
              const answer = creating ? await creating.submit(values) : await update!.submit(values, row!);
              if (!answer.ok) return { error: answer.error, errorDetails: answer.errorDetails };
              creating?.created?.(answer.data);
              // What has a detail (a group's members) opens it at once: the next step is there.
              if (creating && !creating.created && config.detail) setSelected(answer.data as RowOf<L>);
              setEditing(null);
              toastSucceeded(creating ? `Created ${creating.noun}.` : 'Saved.');
              reload();
              return null;
            }}
          />
          {!creating && update!.alongside?.(row!)}
        </Dialog>
      )}
    </section>
  );
}
