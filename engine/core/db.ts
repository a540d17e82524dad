import { DataSource, type DataSourceOptions, type EntitySchema } from 'typeorm';
import { join } from 'node:path';

export const DB_FILE = 'broadsheet.db';

/**
 * Opens the data folder's database: WAL so readers never wait on the writer, foreign keys on,
 * a busy timeout instead of immediate SQLITE_BUSY, and the listed migrations run in order.
 * `synchronize` stays off: the schema changes only through migrations. The composition root
 * gives the entities and migrations, so this floor knows none of the features above it.
 */
export async function openDatabase(dataDir: string, schema: { entities: EntitySchema<any>[]; migrations: DataSourceOptions['migrations'] }): Promise<DataSource> {
  const ds = new DataSource({
    type: 'sqlite',
    database: join(dataDir, DB_FILE),
    entities: schema.entities,
    migrations: schema.migrations,
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
