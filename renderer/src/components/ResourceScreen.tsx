import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { invokeAny } from '../bridge';
import { createListStore } from '../stores/lists/list-store';
import { selectCan, useSession } from '../stores/session/session.store';
import { DataTable, type Column } from './DataTable';
import { Dialog } from './Dialog';
import { Form, type FieldDef, type FormValues } from './Form';

export type Row = { id: string } & Record<string, unknown>;

export interface CreateDef {
  noun: string;
  op: string;
  permission: string;
  fields: FieldDef[];
  initial: FormValues;
  toBody: (v: FormValues) => unknown;
  created?: (data: Row) => void;
}

export interface ResourceConfig {
  title: string;
  noun: string;
  listOp: string;
  listParams?: () => Record<string, string>;
  filterParam?: string;
  filterLabel?: string;
  columns: Column<Row>[];
  creates?: CreateDef[];
  update?: { op: string | ((row: Row) => string); permission: string; fields: FieldDef[] | ((row: Row) => FieldDef[]); toForm: (row: Row) => FormValues; toBody: (v: FormValues, row: Row) => unknown };
  remove?: { op: string; permission: string };
  rowActions?: (row: Row, reload: () => void) => ReactNode;
  detail?: (row: Row, reload: () => void) => ReactNode;
}

/** A list with create, edit and delete for one resource, driven by its catalogue operations. */
export function ResourceScreen({ config }: { config: ResourceConfig }) {
  const store = useMemo(() => createListStore<Row>(config.listOp, config.filterParam ?? null, config.listParams), [config]);
  const me = useSession((s) => s.me);
  const can = (permission: string) => selectCan(permission)({ me } as never);
  const canUpdate = can(config.update?.permission ?? '-');
  const canRemove = can(config.remove?.permission ?? '-');
  const [editing, setEditing] = useState<Row | CreateDef | null>(null);
  const [selected, setSelected] = useState<Row | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const reload = () => void store.getState().refreshRequested();

  useEffect(reload, [store]);

  const remove = async (row: Row) => {
    if (!confirm(`Delete ${config.noun} "${String(row.name ?? row.displayName ?? row.id)}"?`)) return;
    const answer = await invokeAny(config.remove!.op, { body: [row.id] });
    setNotice(answer.ok ? `Deleted.` : answer.error);
    if (selected?.id === row.id) setSelected(null);
    reload();
  };

  const creating = editing && 'toBody' in editing && 'initial' in editing ? (editing as CreateDef) : null;
  const row = editing && !creating ? (editing as Row) : null;
  return (
    <section className="screen">
      <header className="screen-head">
        <h1>{config.title}</h1>
        <div className="head-actions">
          {(config.creates ?? []).filter((c) => can(c.permission)).map((c) => (
            <button key={c.noun} type="button" className="primary" onClick={() => setEditing(c)}>New {c.noun}</button>
          ))}
        </div>
      </header>
      {notice && <div className="notice" role="status" onClick={() => setNotice(null)}>{notice}</div>}
      <DataTable
        store={store}
        columns={config.columns}
        filterLabel={config.filterLabel}
        selectedId={selected?.id}
        onRowClick={config.detail ? (row) => setSelected(row) : undefined}
        actions={(row) => (
          <>
            {config.rowActions?.(row, reload)}
            {config.update && canUpdate && <button type="button" onClick={() => setEditing(row)}>Edit</button>}
            {config.remove && canRemove && <button type="button" className="danger" onClick={() => void remove(row)}>Delete</button>}
          </>
        )}
      />
      {selected && config.detail && <div className="detail">{config.detail(selected, reload)}</div>}
      {(creating || (row && config.update)) && (
        <Dialog title={creating ? `New ${creating.noun}` : `Edit ${config.noun}`} onClose={() => setEditing(null)}>
          <Form
            fields={creating ? creating.fields : typeof config.update!.fields === 'function' ? config.update!.fields(row!) : config.update!.fields}
            initial={creating ? creating.initial : config.update!.toForm(row!)}
            submitLabel={creating ? 'Create' : 'Save'}
            onSubmit={async (values) => {
              const update = config.update!;
              const answer = creating
                ? await invokeAny(creating.op, { body: creating.toBody(values) })
                : await invokeAny(typeof update.op === 'function' ? update.op(row!) : update.op, { params: { id: row!.id }, body: update.toBody(values, row!) });
              if (!answer.ok) return { error: answer.error, errorDetails: answer.errorDetails };
              creating?.created?.(answer.data as Row);
              setEditing(null);
              setNotice(creating ? `Created ${creating.noun}.` : 'Saved.');
              reload();
              return null;
            }}
          />
        </Dialog>
      )}
    </section>
  );
}
