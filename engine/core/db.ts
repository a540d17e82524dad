import { DataSource } from 'typeorm';
import { join } from 'node:path';
import { ENTITIES } from './entities.js';
import { MIGRATIONS } from '../migrations/index.js';

export const DB_FILE = 'broadsheet.db';

/**
 * Opens the data folder's database: WAL so readers never wait on the writer, foreign keys on,
 * a busy timeout instead of immediate SQLITE_BUSY, and the listed migrations run in order.
 * `synchronize` stays off: the schema changes only through migrations.
 */
export async function openDatabase(dataDir: string): Promise<DataSource> {
  const ds = new DataSource({
    type: 'sqlite',
    database: join(dataDir, DB_FILE),
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsRun: false,
    synchronize: false,
    logging: false,
    busyErrorRetry: 50,
  });
  await ds.initialize();
  await ds.query('PRAGMA journal_mode = WAL');
  await ds.query('PRAGMA foreign_keys = ON');
  await ds.query('PRAGMA busy_timeout = 5000');
  await ds.query('PRAGMA synchronous = NORMAL');
  await ds.runMigrations({ transaction: 'each' });
  return ds;
}
