import { invoke } from '../bridge';
import type { BodyOf, DeleteByIdsOpId, InputOf, ListOpId, OpId, ResultOf, RowOf } from '../../../engine/catalogue';
import type { Column } from './DataTable';
import type { FieldDef, FormValues } from './Form';
import type { CreateDef, ResourceConfig, UpdateDef } from './ResourceScreen';

/** A create action whose form becomes the operation's own body type. */
export function createWith<C extends OpId>(
  op: C,
  def: {
    noun: string;
    fields: FieldDef[];
    initial: FormValues;
    toBody: (v: FormValues) => BodyOf<C>;
    created?: (data: ResultOf<C>) => void;
  },
): CreateDef {
  const created = def.created;
  return {
    noun: def.noun,
    op,
    fields: def.fields,
    initial: def.initial,
    created: created ? (data) => created(data as ResultOf<C>) : undefined,
    submit: (v) => invoke(op, { body: def.toBody(v) } as InputOf<C>),
  };
}

/** An edit action by the row's id, whose form becomes the operation's own body type. */
export function updateWith<Row extends { id: string }, U extends OpId>(
  op: U,
  def: {
    fields: FieldDef[] | ((row: Row) => FieldDef[]);
    toForm: (row: Row) => FormValues;
    toBody: (v: FormValues, row: Row) => BodyOf<U>;
  },
): UpdateDef<Row> {
  return {
    op: () => op,
    fields: def.fields,
    toForm: def.toForm,
    submit: (v, row) => invoke(op, { params: { id: row.id }, body: def.toBody(v, row) } as InputOf<U>),
  };
}

interface CrudOptions<L extends ListOpId, C extends OpId, U extends OpId> {
  title: string;
  noun: string;
  ops: { list: L; create: C; update: U; remove: DeleteByIdsOpId };
  columns: Column<RowOf<L>>[];
  fields: FieldDef[];
  initial: FormValues;
  /** The request body from the form; the same for create and update. */
  body: (v: FormValues) => BodyOf<C> & BodyOf<U>;
  toForm?: (row: RowOf<L>) => FormValues;
  detail?: ResourceConfig<L>['detail'];
  detailLabel?: string;
  /** Shown in the edit dialog below its form, saved on their own. */
  alongside?: UpdateDef<RowOf<L>>['alongside'];
}

/** The usual list/create/edit/delete screen of one resource filtered by name, from its four operations. */
export function crudConfig<L extends ListOpId, C extends OpId, U extends OpId>(
  o: CrudOptions<L, C, U>,
): ResourceConfig<L> {
  return {
    title: o.title,
    noun: o.noun,
    listOp: o.ops.list,
    filterParam: 'name',
    filterLabel: 'name',
    columns: o.columns,
    creates: [createWith(o.ops.create, { noun: o.noun, fields: o.fields, initial: o.initial, toBody: o.body })],
    update: {
      ...(updateWith<RowOf<L> & { id: string }, U>(o.ops.update, {
        fields: o.fields,
        toForm: (o.toForm ?? ((r) => ({ ...(r as object) }))) as (row: RowOf<L>) => FormValues,
        toBody: o.body,
      }) as UpdateDef<RowOf<L>>),
      alongside: o.alongside,
    },
    remove: { op: o.ops.remove },
    detail: o.detail,
    detailLabel: o.detailLabel,
  };
}
