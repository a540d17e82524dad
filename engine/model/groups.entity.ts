import { EntitySchema } from 'typeorm';
import { baseColumns, flag, ref, text, type BaseRow } from '../core/entity-base.js';
import { boundByOrganization } from '../core/organization-boundary.js';

export interface GroupRow extends BaseRow {
  /** The user directory the row is synchronized from, with its key there; null when made here. */
  directoryId?: string | null;
  directoryKey?: string | null;
  name: string;
  description: string | null;
  organizationId: string | null;
  isActive: boolean;
  /** `system` for the built-in "All users" group, `custom` otherwise. */
  type: string;
}

export const Group = new EntitySchema<GroupRow>({
  name: 'Group',
  tableName: 'groups',
  columns: {
    ...baseColumns,
    name: text(false),
    description: text(),
    organizationId: ref(),
    isActive: flag(true),
    type: { type: 'varchar', length: 16, default: 'custom' },
    directoryId: ref(),
    directoryKey: text(),
  },
  indices: [{ name: 'IDX_groups_directory', columns: ['directoryId', 'directoryKey'], unique: true }],
  foreignKeys: [
    { target: 'Organization', columnNames: ['organizationId'], referencedColumnNames: ['id'], onDelete: 'RESTRICT' },
  ],
});

// "All users" and other groups of no organization are shared by every organization.
boundByOrganization(Group, (x) => `${x}."organizationId" IS NULL OR ${x}."organizationId" IN (:...orgs)`);
