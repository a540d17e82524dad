import { EntitySchema } from 'typeorm';
import { baseColumns, int, ref, text, type BaseRow } from '../core/entity-base.js';
import { boundByOrganization, projectInside } from '../core/organization-boundary.js';

export interface FilterRow extends BaseRow {
  projectId: string;
  name: string;
  description: string | null;
}

export const Filter = new EntitySchema<FilterRow>({
  name: 'Filter',
  tableName: 'filters',
  columns: { ...baseColumns, projectId: ref(false), name: text(false), description: text() },
  foreignKeys: [{ target: 'Project', columnNames: ['projectId'], referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
  indices: [{ name: 'IDX_filters_project_id', columns: ['projectId', 'id'] }],
});

export type FilterValueKind = 'field' | 'variable' | 'bookmark';

/** One step of a filter, applied in order: select field values, set a variable, or apply a bookmark. */
export interface FilterValueRow extends BaseRow {
  filterId: string;
  kind: FilterValueKind;
  /** The app's field, variable or bookmark id. */
  targetId: string;
  fieldValues: string[] | null;
  variableValue: string | null;
  order: number;
}

export const FilterValue = new EntitySchema<FilterValueRow>({
  name: 'FilterValue',
  tableName: 'filter_values',
  columns: {
    ...baseColumns,
    filterId: ref(false),
    kind: { type: 'varchar', length: 16 },
    targetId: ref(false),
    fieldValues: { type: 'simple-json', nullable: true },
    variableValue: text(),
    order: int(false),
  },
  foreignKeys: [{ target: 'Filter', columnNames: ['filterId'], referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
});

// A filter belongs to its project's organization.
boundByOrganization(Filter, (x) => projectInside(`${x}."projectId"`));
