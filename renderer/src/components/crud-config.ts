import type { Column } from './DataTable';
import type { FieldDef, FormValues } from './Form';
import type { ResourceConfig, Row } from './ResourceScreen';

interface CrudOptions {
  title: string;
  noun: string;
  ops: { list: string; create: string; update: string; remove: string };
  permissions: { create: string; update: string; remove: string };
  columns: Column<Row>[];
  fields: FieldDef[];
  initial: FormValues;
  /** The request body from the form; the same for create and update. */
  body: (v: FormValues) => unknown;
  toForm?: (row: Row) => FormValues;
  detail?: ResourceConfig['detail'];
}

/** The usual list/create/edit/delete screen of one resource filtered by name, from its four operations. */
export function crudConfig(o: CrudOptions): ResourceConfig {
  return {
    title: o.title,
    noun: o.noun,
    listOp: o.ops.list,
    filterParam: 'name',
    filterLabel: 'name',
    columns: o.columns,
    creates: [{ noun: o.noun, op: o.ops.create, permission: o.permissions.create, fields: o.fields, initial: o.initial, toBody: o.body }],
    update: { op: o.ops.update, permission: o.permissions.update, fields: o.fields, toForm: o.toForm ?? ((r) => ({ ...r })), toBody: o.body },
    remove: { op: o.ops.remove, permission: o.permissions.remove },
    detail: o.detail,
  };
}
