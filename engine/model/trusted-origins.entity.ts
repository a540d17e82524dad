import { EntitySchema } from 'typeorm';
import { baseColumns, text, type BaseRow } from '../core/entity-base.js';

export interface TrustedOriginRow extends BaseRow {
  name: string;
  description: string | null;
  /** Normalized origin (scheme://host[:port]); the HTTP server answers CORS only for these. */
  address: string;
}

export const TrustedOrigin = new EntitySchema<TrustedOriginRow>({
  name: 'TrustedOrigin',
  tableName: 'trusted_origins',
  columns: { ...baseColumns, name: text(false), description: text(), address: text(false) },
});
