import { randomUUID } from 'node:crypto';
import type { EntitySchemaColumnOptions } from 'typeorm';

/** Columns every entity shares (as n8n's WithTimestampsAndStringId): a UUID key and two timestamps. */
export interface BaseRow {
  id: string;
  createdDate: Date;
  modifiedDate: Date;
}

export const baseColumns: Record<keyof BaseRow, EntitySchemaColumnOptions> = {
  id: { type: 'varchar', length: 36, primary: true },
  createdDate: { type: 'datetime' },
  modifiedDate: { type: 'datetime' },
};

/** Fresh id and timestamps for a new row. */
export function newBase(now: Date): BaseRow {
  return { id: randomUUID(), createdDate: now, modifiedDate: now };
}

export const iso = (d: Date | string | null | undefined): string | null => (d ? sqliteDate(d).toISOString() : null);

/** Raw queries return SQLite datetime text (UTC, "YYYY-MM-DD HH:MM:SS.SSS"); entities return Dates. */
export function sqliteDate(d: Date | string): Date {
  if (d instanceof Date) return d;
  return new Date(/^\d{4}-\d\d-\d\d \d/.test(d) ? d.replace(' ', 'T') + 'Z' : d);
}

/** A Date as the text TypeORM's SQLite driver stores (UTC, "YYYY-MM-DD HH:MM:SS.SSS"), for raw statements. */
export const sqliteText = (d: Date) => d.toISOString().replace('T', ' ').replace('Z', '');

export const text = (nullable = true): EntitySchemaColumnOptions => ({ type: 'text', nullable });
export const flag = (dflt = false): EntitySchemaColumnOptions => ({ type: 'boolean', default: dflt });
export const ref = (nullable = true): EntitySchemaColumnOptions => ({ type: 'varchar', length: 36, nullable });
export const int = (nullable = true): EntitySchemaColumnOptions => ({ type: 'integer', nullable });
export const when = (nullable = true): EntitySchemaColumnOptions => ({ type: 'datetime', nullable });
