import { EntitySchema } from 'typeorm';
import { baseColumns, ref, text, type BaseRow } from '../core/entity-base.js';
import { boundByOrganization } from '../core/organization-boundary.js';

export interface ResourceRow extends BaseRow {
  name: string;
  description: string | null;
  type: string;
  organizationId: string;
  url: string;
  createdBy: string | null;
}

export const Resource = new EntitySchema<ResourceRow>({
  name: 'Resource',
  tableName: 'resources',
  columns: {
    ...baseColumns,
    name: text(false),
    description: text(),
    type: text(false),
    organizationId: ref(false),
    url: text(false),
    createdBy: ref(),
  },
  foreignKeys: [
    { target: 'Organization', columnNames: ['organizationId'], referencedColumnNames: ['id'], onDelete: 'RESTRICT' },
  ],
});

boundByOrganization(Resource, (x) => `${x}."organizationId" IN (:...orgs)`);
