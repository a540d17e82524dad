import { EntitySchema } from 'typeorm';
import { baseColumns, ref, text, when, type BaseRow } from '../core/entity-base.js';
import { boundByOrganization } from '../core/organization-boundary.js';

export interface ApiKeyRow extends BaseRow {
  userId: string;
  organizationId: string | null;
  name: string;
  description: string | null;
  expiryDate: Date;
  /** SHA-256 of the key; the key itself is shown once at creation and never stored. */
  keyHash: string;
  /** First characters, so a user can tell keys apart without the secret. */
  keyPrefix: string;
  lastUsedDate: Date | null;
}

export const ApiKey = new EntitySchema<ApiKeyRow>({
  name: 'ApiKey',
  tableName: 'api_keys',
  columns: {
    ...baseColumns,
    userId: ref(false),
    organizationId: ref(),
    name: text(false),
    description: text(),
    expiryDate: { type: 'datetime' },
    keyHash: { type: 'varchar', length: 64 },
    keyPrefix: { type: 'varchar', length: 16 },
    lastUsedDate: when(),
  },
  indices: [{ name: 'IDX_api_keys_hash', columns: ['keyHash'], unique: true }],
  foreignKeys: [{ target: 'User', columnNames: ['userId'], referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
});

// A key belongs to the organizations of the user it signs in as.
boundByOrganization(
  ApiKey,
  (x) => `${x}."userId" IN (SELECT bu."userId" FROM user_organizations bu WHERE bu."targetId" IN (:...orgs))`,
);
