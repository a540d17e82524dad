import { EntitySchema } from 'typeorm';
import { baseColumns, flag, ref, text, type BaseRow } from '../core/entity-base.js';
import type { ReportDocument } from '../render/document.js';

import type { ReportType } from '../render/formats.js';
import { boundByOrganization, projectInside } from '../core/organization-boundary.js';

export type { ReportType };

export interface IterationField {
  fieldID: string;
  order: number;
}
export interface DynamicName {
  itemType: string;
  value: string;
  order: number;
  variableAnalyticsAppID?: string | null;
}

export interface ReportRow extends BaseRow {
  projectId: string;
  connectionId: string | null;
  name: string;
  description: string | null;
  type: ReportType;
  isIteration: boolean;
  iterationFields: IterationField[];
  dynamicNameSeparator: string | null;
  dynamicNames: DynamicName[];
  document: ReportDocument;
  /** Filters applied, in order, whenever the report is generated. */
  filterIds: string[];
  /** The template file's name when the report is built from one (then `document` is unused). */
  templateFile: string | null;
  createdBy: string | null;
  modifiedBy: string | null;
}

export const Report = new EntitySchema<ReportRow>({
  name: 'Report',
  tableName: 'reports',
  columns: {
    ...baseColumns,
    projectId: ref(false),
    connectionId: ref(),
    name: text(false),
    description: text(),
    type: { type: 'varchar', length: 16 },
    isIteration: flag(),
    iterationFields: { type: 'simple-json' },
    dynamicNameSeparator: text(),
    dynamicNames: { type: 'simple-json' },
    document: { type: 'simple-json' },
    filterIds: { type: 'simple-json' },
    templateFile: text(),
    createdBy: ref(),
    modifiedBy: ref(),
  },
  foreignKeys: [
    { target: 'Project', columnNames: ['projectId'], referencedColumnNames: ['id'], onDelete: 'CASCADE' },
    { target: 'Connection', columnNames: ['connectionId'], referencedColumnNames: ['id'], onDelete: 'SET NULL' },
  ],
  indices: [{ name: 'IDX_reports_project_id', columns: ['projectId', 'id'] }],
});

// A report belongs to its project's organization.
boundByOrganization(Report, (x) => projectInside(`${x}."projectId"`));
