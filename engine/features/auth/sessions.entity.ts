import { EntitySchema } from 'typeorm';
import { baseColumns, ref, type BaseRow } from '../../core/entity-base.js';

export interface SessionRow extends BaseRow {
  userId: string;
  tokenHash: string;
  expiresAt: Date;
}

export const Session = new EntitySchema<SessionRow>({
  name: 'Session',
  tableName: 'sessions',
  columns: {
    ...baseColumns,
    userId: ref(false),
    tokenHash: { type: 'varchar', length: 64 },
    expiresAt: { type: 'datetime' },
  },
  indices: [{ name: 'IDX_sessions_hash', columns: ['tokenHash'], unique: true }],
  foreignKeys: [{ target: 'User', columnNames: ['userId'], referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
});
