import { EntitySchema } from 'typeorm';
import { ref, when } from '../core/entity-base.js';

/**
 * A one-time invitation: only the SHA-256 of its token is kept, so the database cannot be read for a
 * working link; it ends when used or when it expires.
 */
export interface InvitationRow {
  id: string;
  createdDate: Date;
  userId: string;
  tokenHash: string;
  expiresAt: Date;
  usedAt: Date | null;
}

export const Invitation = new EntitySchema<InvitationRow>({
  name: 'Invitation',
  tableName: 'invitations',
  columns: {
    id: { type: 'varchar', length: 36, primary: true },
    createdDate: when(false),
    userId: ref(false),
    tokenHash: { type: 'varchar', length: 64, unique: true },
    expiresAt: when(false),
    usedAt: when(),
  },
  foreignKeys: [{ target: 'User', columnNames: ['userId'], referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
});
