import { DataSource, MigrationExecutor, type DataSourceOptions, type EntitySchema } from 'typeorm';
import { entitiesFor } from './dialect.js';
import { onPostgres } from './sql.js';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { KeptStatements } from './kept-statements.js';
import { isEmptyDatabase, type SchemaSnapshot } from './schema-snapshot.js';

export const DB_FILE = 'broadsheet.db';

/**
 * Opens the data folder's database: WAL so readers never wait on the writer, foreign keys on,
 * a busy timeout instead of immediate SQLITE_BUSY, and the listed migrations run in order.
 * `synchronize` stays off: the schema changes only through migrations. The composition root
 * gives the entities and migrations, so this floor knows none of the features above it.
 */
/**
 * sqlite3 as TypeORM gets it, minus `verbose()`: TypeORM turns on sqlite3's long stack traces, which
 * wrap every call to capture a stack and print its arguments (`util.inspect`) whether or not it
 * fails — about a tenth of every API call. Errors still carry the statement that failed.
 */
/**
 * The connection TypeORM opens, counting the statements that may have changed data (anything but a
 * SELECT, counted once it has finished: a COMMIT or ROLLBACK counts too). With SQLite's own
 * `data_version`, which moves when another connection commits, it tells a reader whether anything
 * it read before can have changed since (`changeStamp`).
 */
class CountingDatabase extends sqlite3.Database {
  writes = 0;
  /** Prepared once: asked at every signed-in call, a prepared statement is half the trips of a new one. */
  private dataVersionStatement: sqlite3.Statement | null = null;
  /** SELECTs kept prepared by their text (`allKept`). */
  private readonly kept = new KeptStatements(this, KEPT_STATEMENTS);

  /** A SELECT through a statement prepared once and kept (`KeptStatements`). */
  allKept(sql: string, params: unknown[]): Promise<Record<string, unknown>[]> {
    return this.kept.all(sql, params);
  }

  /** The data_version SQLite last answered: it moves when another connection commits. */
  lastVersion = NaN;

  dataVersion(): Promise<number> {
    this.dataVersionStatement ??= this.prepare('PRAGMA data_version');
    return new Promise((resolve, reject) =>
      this.dataVersionStatement!.all((err: Error | null, rows: { data_version: number }[]) =>
        err ? reject(err) : resolve((this.lastVersion = rows[0].data_version)),
      ),
    );
  }

  override close(callback?: (err: Error | null) => void): void {
    // SQLite refuses to close while a statement is still prepared.
    const version = this.dataVersionStatement;
    this.dataVersionStatement = null;
    Promise.all([this.kept.finalizeAll(), version && new Promise<void>((done) => version.finalize(() => done()))]).then(
      () => super.close(callback),
      () => super.close(callback),
    );
  }
}
/** Enough for every list's page, count and related-row statements, with their page sizes. */
const KEPT_STATEMENTS = 200;

/** A SELECT with `?` placeholders through a kept prepared statement on SQLite (`allKept`); null elsewhere. */
export function keptStatementsOf(ds: DataSource): CountingDatabase | null {
  if (onPostgres(ds)) return null;
  const connection = connectionOf(ds) as CountingDatabase | undefined;
  return connection instanceof CountingDatabase ? connection : null;
}
type Method = (this: CountingDatabase, sql: string, ...args: unknown[]) => unknown;
const counted = (method: 'run' | 'all' | 'exec'): Method => {
  const original = sqlite3.Database.prototype[method] as unknown as Method;
  return function (sql, ...args) {
    if (/^\s*SELECT\b/i.test(sql)) return original.call(this, sql, ...args);
    const last = args.length - 1;
    if (typeof args[last] === 'function') {
      const callback = args[last] as (this: unknown, ...results: unknown[]) => void;
      const wrote = () => this.writes++;
      args[last] = function (this: unknown, ...results: unknown[]) {
        wrote();
        return callback.apply(this, results);
      };
    } else this.writes++;
    return original.call(this, sql, ...args);
  };
};
CountingDatabase.prototype.run = counted('run') as never;
CountingDatabase.prototype.all = counted('all') as never;
CountingDatabase.prototype.exec = counted('exec') as never;

const withoutLongStackTraces: typeof sqlite3 = Object.assign(Object.create(sqlite3) as typeof sqlite3, {
  verbose: () => withoutLongStackTraces,
  Database: CountingDatabase,
});

const connectionOf = (ds: DataSource) =>
  (ds.driver as unknown as { databaseConnection: CountingDatabase }).databaseConnection;

/** Runs a script of statements in one call to the database's thread (SQLite's own exec). */
async function execScript(ds: DataSource, script: string): Promise<void> {
  const connection = connectionOf(ds);
  const exec = (sql: string) =>
    new Promise<void>((resolve, reject) => connection.exec(sql, (err) => (err ? reject(err) : resolve())));
  // A script that fails midway leaves its transaction open: roll it back, the database stays empty.
  await exec(script).catch(async (e: unknown) => {
    await exec('ROLLBACK').catch(() => undefined);
    throw e;
  });
}

/**
 * What tells whether the database may have changed between two moments: the statements other than
 * SELECT this engine's connection has finished (read at once, no trip), and SQLite's data_version,
 * which moves when another connection (another engine on the same folder) commits (one trip).
 */
export function localWrites(ds: DataSource): number {
  // PostgreSQL has no such count (other nodes write to it all the time): NaN equals nothing, so
  // nothing read there is taken as still current.
  return onPostgres(ds) ? NaN : connectionOf(ds).writes;
}

export function dataVersion(ds: DataSource): Promise<number> {
  return onPostgres(ds) ? Promise.resolve(NaN) : connectionOf(ds).dataVersion();
}

/**
 * Where the file stands as this engine last knew it: its own finished writes and the data_version
 * SQLite last answered (asked at every signed-in call). Two equal stamps mean nothing was written
 * between them that this engine has seen; on PostgreSQL the stamp equals nothing.
 */
export function changeStamp(ds: DataSource): string {
  if (onPostgres(ds)) return '';
  const connection = connectionOf(ds);
  return `${connection.writes}:${connection.lastVersion}`;
}

/** The single query runner TypeORM's SQLite driver runs every statement through, as it counts transactions. */
interface TransactionCount {
  isTransactionActive: boolean;
  transactionDepth: number;
  startTransaction(...args: unknown[]): Promise<void>;
  rollbackTransaction(): Promise<void>;
}

/**
 * TypeORM counts the transactions it opened on the connection, and forgets to count one as ended
 * when SQLite ended it itself: on a full disk (or an I/O error) SQLite rolls back the whole
 * transaction, so TypeORM's own ROLLBACK fails ("no transaction is active") and its count stays at
 * one. The next write then opened a SAVEPOINT in place of a transaction and, failing too, rolled back
 * to it and left a real transaction open for good: every write after it was answered, seen on this
 * connection, and lost at the next start (issue 57, finding 1). So a rollback that fails ends the
 * level it was asked to end whatever happened, and at the outermost level the connection is
 * rolled back for certain; a BEGIN that fails counts nothing.
 */
function transactionsAlwaysEnd(ds: DataSource): void {
  const runner = ds.createQueryRunner() as unknown as TransactionCount;
  const start = runner.startTransaction.bind(runner);
  const rollback = runner.rollbackTransaction.bind(runner);
  runner.startTransaction = async (...args: unknown[]) => {
    const depth = runner.transactionDepth;
    try {
      await start(...args);
    } catch (e) {
      runner.transactionDepth = depth;
      if (depth === 0) runner.isTransactionActive = false;
      throw e;
    }
  };
  runner.rollbackTransaction = async () => {
    const depth = runner.transactionDepth;
    try {
      await rollback();
    } catch (e) {
      runner.transactionDepth = Math.max(0, depth - 1);
      if (runner.transactionDepth === 0) {
        // Either ends what SQLite kept open, or fails harmlessly because nothing is.
        await new Promise<void>((resolve) => connectionOf(ds).exec('ROLLBACK', () => resolve()));
        runner.isTransactionActive = false;
      }
      throw e;
    }
  };
}

export async function openDatabase(
  dataDir: string,
  schema: {
    entities: EntitySchema<any>[];
    migrations: (new () => unknown)[];
    release?: string;
    /** What the migrations build, made at once on an empty database when it is current. */
    snapshot?: SchemaSnapshot;
  },
): Promise<DataSource> {
  const ds = new DataSource({
    type: 'sqlite',
    driver: withoutLongStackTraces,
    database: join(dataDir, DB_FILE),
    entities: schema.entities,
    migrations: schema.migrations as DataSourceOptions['migrations'],
    migrationsRun: false,
    synchronize: false,
    logging: false,
    busyErrorRetry: 50,
  });
  await ds.initialize();
  transactionsAlwaysEnd(ds);
  await ds.query('PRAGMA journal_mode = WAL');
  await ds.query('PRAGMA foreign_keys = ON');
  await ds.query('PRAGMA busy_timeout = 5000');
  await ds.query('PRAGMA synchronous = NORMAL');
  await refuseNewerSchema(ds, schema.migrations.length, schema.release);
  if (schema.snapshot?.migrations === schema.migrations.length && (await isEmptyDatabase(ds)))
    await execScript(ds, `BEGIN;\n${schema.snapshot.script}\nCOMMIT;`).catch(async (e: unknown) => {
      await ds.destroy();
      throw e;
    });
  // On a snapshot's database this finds every migration run; elsewhere it runs those not run yet.
  await ds.runMigrations({ transaction: 'each' });
  // The schema's version is the number of migrations applied: a release compares it with its own.
  await ds.query(`PRAGMA user_version = ${schema.migrations.length}`);
  return ds;
}

/** A data folder a newer release has migrated, opened by an older one. */
export class NewerSchemaError extends Error {
  constructor(
    readonly found: number,
    readonly known: number,
    release?: string,
  ) {
    super(
      `This data folder was last opened by a newer release of Broadsheet (schema version ${found}); this release${release ? ` (${release})` : ''} knows schema version ${known} at most. ` +
        'Start the newer release, or restore a backup made by this one. Nothing was changed.',
    );
    this.name = 'NewerSchemaError';
  }
}

/**
 * An older release would ignore what it does not know (a project's permissions mode, a
 * subscription's hidden task) and act wrongly on the rest: it refuses the folder before touching it.
 * The version is `user_version`; migrations this release does not know tell the same for folders
 * written before the version was recorded.
 */
async function refuseNewerSchema(ds: DataSource, known: number, release?: string) {
  const [{ user_version: found }] = (await ds.query('PRAGMA user_version')) as { user_version: number }[];
  if (found > known) {
    await ds.destroy();
    throw new NewerSchemaError(found, known, release);
  }
}

/** Any number fixed for the advisory lock the nodes take while migrating (PostgreSQL's own lock space). */
const MIGRATION_LOCK = 4_726_001;

/**
 * Opens a PostgreSQL database shared by several nodes (issue 26): the entities as PostgreSQL takes
 * them and its own migration track. Nodes started together migrate one at a time under an advisory
 * lock held on the migrating connection; the others find the work done.
 */
export async function openPostgres(
  url: string,
  schema: { entities: EntitySchema<any>[]; migrations: (new () => unknown)[] },
): Promise<DataSource> {
  const { types } = (await import('pg')).default;
  const ds = new DataSource({
    type: 'postgres',
    url,
    extra: {
      // Timestamps written as text (bulk inserts, VALUES lists) are UTC, as SQLite's are.
      options: '-c TimeZone=UTC',
      // Counts (bigint) as numbers, as SQLite answers them: no count here nears 2^53.
      types: {
        getTypeParser: (oid: number, format?: 'text' | 'binary') =>
          oid === 20 ? Number : types.getTypeParser(oid, format as 'text'),
      },
    },
    entities: entitiesFor('postgres', schema.entities),
    migrations: schema.migrations as DataSourceOptions['migrations'],
    migrationsRun: false,
    synchronize: false,
    logging: false,
  });
  await ds.initialize();
  const runner = ds.createQueryRunner();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const executor = new MigrationExecutor(ds, runner);
    executor.transaction = 'each';
    await executor.executePendingMigrations();
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await runner.release();
  }
  return ds;
}
