import { EntitySchema } from 'typeorm';
import { ref, text } from './entity-base.js';

/** Who changed what, when: one row per successful change, never the request body (it may hold secrets). */
export interface AuditRow {
  id: number;
  at: Date;
  userId: string | null;
  credential: string | null;
  operation: string;
  targetId: string | null;
  transport: string;
}

export const AuditEntry = new EntitySchema<AuditRow>({
  name: 'AuditEntry',
  tableName: 'audit_log',
  columns: {
    id: { type: 'integer', primary: true, generated: 'increment' },
    at: { type: 'datetime' },
    userId: ref(),
    credential: text(),
    operation: text(false),
    targetId: text(),
    transport: { type: 'varchar', length: 8 },
  },
  indices: [{ name: 'IDX_audit_at', columns: ['at'] }],
});
