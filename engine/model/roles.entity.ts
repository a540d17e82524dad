import { EntitySchema } from 'typeorm';
import { baseColumns, flag, text, type BaseRow } from '../core/entity-base.js';
import type { PermissionFlags } from '../core/permissions.js';

export interface RoleRow extends BaseRow {
  name: string;
  description: string | null;
  allProjects: boolean;
  /** JSON list of {id, name}: projects arrive with the analytics issue, so no foreign key yet. */
  projects: { id: string; name: string | null }[];
  permissions: PermissionFlags;
  /** When the permission set last changed (the permission-set record's own dates). */
  permissionsModifiedDate: Date;
  isActive: boolean;
  /** `system` for the built-in roles, `custom` otherwise. */
  type: string;
}

export const Role = new EntitySchema<RoleRow>({
  name: 'Role',
  tableName: 'roles',
  columns: {
    ...baseColumns,
    name: text(false),
    description: text(),
    allProjects: flag(),
    projects: { type: 'simple-json' },
    permissions: { type: 'simple-json' },
    permissionsModifiedDate: { type: 'datetime' },
    isActive: flag(true),
    type: { type: 'varchar', length: 16, default: 'custom' },
  },
});
