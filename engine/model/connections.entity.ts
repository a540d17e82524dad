import { EntitySchema } from 'typeorm';
import { baseColumns, ref, text, type BaseRow } from '../core/entity-base.js';
import { boundByOrganization, projectInside } from '../core/organization-boundary.js';

/** A project's link to an analytics app: reports and filters of the project read data through it. */
export interface ConnectionRow extends BaseRow {
  projectId: string;
  name: string;
  analyticsAppId: string;
}

export const Connection = new EntitySchema<ConnectionRow>({
  name: 'Connection',
  tableName: 'connections',
  columns: { ...baseColumns, projectId: ref(false), name: text(false), analyticsAppId: ref(false) },
  foreignKeys: [
    { target: 'Project', columnNames: ['projectId'], referencedColumnNames: ['id'], onDelete: 'CASCADE' },
    { target: 'AnalyticsApp', columnNames: ['analyticsAppId'], referencedColumnNames: ['id'], onDelete: 'RESTRICT' },
  ],
});

// A project's connection to an app belongs to the project's organization.
boundByOrganization(Connection, (x) => projectInside(`${x}."projectId"`));
