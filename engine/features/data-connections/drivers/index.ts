import { EngineError } from '../../../core/errors.js';
import type { DataConnectionKind } from '../../../model/data-connections.entity.js';
import { SourceProblem, type SourceDriver } from './driver.js';

// Each kind's driver, loaded the first time a connection of that kind is used: a database client
// (tedious alone took 314 ms of every start) is no part of a start that uses none.
const LOADERS: Record<DataConnectionKind, () => Promise<SourceDriver>> = {
  PostgreSQL: async () => (await import('./postgres.js')).postgresDriver,
  MySQL: async () => (await import('./mysql.js')).mysqlDriver,
  SQLServer: async () => (await import('./sqlserver.js')).sqlServerDriver,
  SQLite: async () => (await import('./sqlite.js')).sqliteDriver,
  Folder: async () => (await import('./folder.js')).folderDriver,
};

/** The driver of a kind of connection. */
export const driverOf = (kind: DataConnectionKind): Promise<SourceDriver> => LOADERS[kind]();

/** A driver's failure in words a person can act on, and the field to fix. */
export function problemOf(e: unknown): { message: string; field: string } {
  if (e instanceof SourceProblem) return { message: e.message, field: e.field };
  // A file of a folder source that cannot be read as a table says where ("Line 12: ...").
  if (e instanceof EngineError) return { message: e.message, field: 'query' };
  const err = e as { code?: string; errno?: number; message?: string };
  const code = err.code ?? '';
  const said = (err.message ?? String(e)).replace(/[\r\n]+/g, ' ').slice(0, 300);
  if (
    code === 'ECONNREFUSED' ||
    code === 'ENOTFOUND' ||
    code === 'EHOSTUNREACH' ||
    (code === 'ENOENT' && !/SQLITE/.test(said))
  )
    return { field: 'host', message: `the host cannot be reached (${code}): check the host and port` };
  if (code === 'ETIMEDOUT' || /timeout expired|connect ETIMEDOUT/i.test(said))
    return { field: 'host', message: 'the host did not answer in time: check the host, port and firewall' };
  // SQL Server (tedious): a login refused names the database when it is the database that is missing.
  if (code === 'ELOGIN' && /Cannot open database/i.test(said))
    return { field: 'database', message: `the server has no such database, or it may not be read (${said})` };
  if (code === 'ESOCKET')
    return { field: 'host', message: `the host cannot be reached: check the host and port (${said})` };
  if (code === 'ETIMEOUT' && /connect/i.test(said))
    return { field: 'host', message: 'the host did not answer in time: check the host, port and firewall' };
  // PostgreSQL 28P01 / 28000, MySQL 1045, SQL Server's ELOGIN: the user name or password.
  if (code === '28P01' || code === '28000' || code === 'ER_ACCESS_DENIED_ERROR' || code === 'ELOGIN')
    return { field: 'password', message: `the server refused the user name or password (${said})` };
  // PostgreSQL 3D000, MySQL 1049: no such database.
  if (code === '3D000' || code === 'ER_BAD_DB_ERROR')
    return { field: 'database', message: `the server has no such database (${said})` };
  if (
    code === '57014' ||
    code === 'ER_QUERY_TIMEOUT' ||
    code === 'ER_STATEMENT_TIMEOUT' ||
    code === 'ETIMEOUT' ||
    /SQLITE_INTERRUPT/.test(said)
  )
    return { field: 'query', message: 'the query ran past its time limit and was stopped' };
  if (/SQLITE_CANTOPEN/.test(said)) return { field: 'filePath', message: 'the file cannot be opened: check the path' };
  if (/SQLITE_NOTADB/.test(said)) return { field: 'filePath', message: 'the file is not a SQLite database' };
  if (/self[- ]signed|certificate|SSL|TLS/i.test(said)) return { field: 'tls', message: said };
  return { field: 'query', message: said };
}
