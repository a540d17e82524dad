import { EntitySchema } from 'typeorm';
import { baseColumns, ref, type BaseRow } from '../core/entity-base.js';

export interface SessionRow extends BaseRow {
  userId: string;
  tokenHash: string;
  expiresAt: Date;
  /** The identity provider whose sign-in made this session (null: a password, a JWT, Windows). */
  providerId: string | null;
  /** Whom the provider signed in, as it names them (SAML's NameID): its logout request names them so. */
  providerSubject: string | null;
  /** What ending the provider's session takes (SAML: the NameID's format and the SessionIndex), as JSON. */
  providerSession: string | null;
}

export const Session = new EntitySchema<SessionRow>({
  name: 'Session',
  tableName: 'sessions',
  columns: {
    ...baseColumns,
    userId: ref(false),
    tokenHash: { type: 'varchar', length: 64 },
    expiresAt: { type: 'datetime' },
    providerId: { type: 'varchar', length: 36, nullable: true },
    providerSubject: { type: 'text', nullable: true },
    providerSession: { type: 'text', nullable: true },
  },
  indices: [
    { name: 'IDX_sessions_hash', columns: ['tokenHash'], unique: true },
    { name: 'IDX_sessions_provider', columns: ['providerId', 'providerSubject'] },
  ],
  foreignKeys: [{ target: 'User', columnNames: ['userId'], referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
});
