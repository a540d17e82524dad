import { EntitySchema } from 'typeorm';
import { baseColumns, flag, ref, text, type BaseRow } from '../core/entity-base.js';
import { boundByOrganization } from '../core/organization-boundary.js';

export interface ProjectRow extends BaseRow {
  name: string;
  description: string | null;
  organizationId: string;
  isActive: boolean;
  /** Set B's permissions mode: when on, content operations also need member permissions. */
  permissionsMode: boolean;
  /** Hidden while an import writes it chunk by chunk. */
  importing: boolean;
  createdBy: string | null;
  modifiedBy: string | null;
}

export const Project = new EntitySchema<ProjectRow>({
  name: 'Project',
  tableName: 'projects',
  columns: {
    ...baseColumns,
    name: text(false),
    description: text(),
    organizationId: ref(false),
    isActive: flag(true),
    permissionsMode: flag(),
    importing: flag(),
    createdBy: ref(),
    modifiedBy: ref(),
  },
  foreignKeys: [
    { target: 'Organization', columnNames: ['organizationId'], referencedColumnNames: ['id'], onDelete: 'RESTRICT' },
  ],
});

boundByOrganization(Project, (x) => `${x}."organizationId" IN (:...orgs)`);
