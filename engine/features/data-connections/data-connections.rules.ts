import { lazySchema } from '../../core/lazy-schema.js';
import { isAbsolute } from 'node:path';
import { stat } from 'node:fs/promises';
import { z } from 'zod';
import type { OpContext } from '../../ops/context.js';
import { badInput, conflict } from '../../core/errors.js';
import { iso, newBase } from '../../core/entity-base.js';
import { pageOf, type ListQuery, type ListSpec } from '../../core/list-query.js';
import { findOr404, requireAll } from '../../core/rows.js';
import { v } from '../../core/validation.js';
import { sameDestination } from '../../core/secrets.js';
import { houseFolderProblem } from '../../core/house-folders.js';
import { forbiddenHost } from '../../core/outgoing-hosts.js';
import { withinOrganizations } from '../../core/organization-boundary.js';
import { homeOrganization } from '../../access/home-organization.js';
import {
  AppSource,
  DATA_CONNECTION_KINDS,
  DataConnection,
  TLS_MODES,
  type DataConnectionRow,
} from '../../model/data-connections.entity.js';
import { driverOf, problemOf } from './drivers/index.js';
import type { OpenConnection } from './drivers/driver.js';

export const LIST_DATA_CONNECTIONS: ListSpec = {
  sort: { Name: 'LOWER(x.name)', Kind: 'x.kind' },
  defaultSort: { by: 'Name', direction: 'asc' },
  text: { name: 'x.name', description: 'x.description' },
};

export const DataConnectionInput = lazySchema(() =>
  z.object({
    name: v.text(),
    description: v.nstr(),
    kind: v.oneOf(DATA_CONNECTION_KINDS),
    host: v.nstr(1000),
    port: z.number().int().min(1).max(65535).nullable().optional(),
    database: v.nstr(200),
    username: v.nstr(200),
    /** Left out (or empty) to keep the one saved. */
    password: z.string().max(1000).nullable().optional(),
    tls: v.oneOf(TLS_MODES).optional(),
    filePath: v.nstr(1000),
    /** The organization whose apps may load from it: the caller's own when left out. */
    organizationId: v.nuuid(),
  }),
);
export type DataConnectionInput = z.output<typeof DataConnectionInput>;

export function dataConnectionDto(x: DataConnectionRow) {
  const { password, ...rest } = x;
  return {
    ...rest,
    hasPassword: password !== null,
    createdDate: iso(x.createdDate),
    modifiedDate: iso(x.modifiedDate),
  };
}

export const listDataConnections = (ctx: OpContext, list: ListQuery) =>
  pageOf(
    withinOrganizations(ctx, ctx.db.getRepository(DataConnection).createQueryBuilder('x'), DataConnection, 'x'),
    LIST_DATA_CONNECTIONS,
    list,
    'x.id',
    dataConnectionDto,
  );

/** The fields that say where a connection's password goes. */
const DESTINATION = ['kind', 'host', 'port', 'database', 'username', 'tls', 'filePath'] as const;

const DEFAULT_PORTS = { PostgreSQL: 5432, MySQL: 3306, SQLServer: 1433, SQLite: null, Folder: null } as const;
/** Kinds read from this machine's disk (a file, a folder) rather than from a server. */
const onDisk = (kind: DataConnectionRow['kind']) => kind === 'SQLite' || kind === 'Folder';

/** Why a path is not a usable file or folder of this computer, or null. */
async function pathProblem(path: string, want: 'file' | 'folder'): Promise<string | null> {
  const found = await stat(path).catch(() => null);
  if (!found)
    return `was not found on this computer: ${want === 'folder' ? 'a folder' : 'a file'} that exists is needed`;
  if (want === 'folder' && !found.isDirectory()) return 'is a file: a folder is needed, where the files are';
  if (want === 'file' && !found.isFile()) return 'is a folder: the database file itself is needed';
  return null;
}

/** Every field a kind needs, checked at once: a server's host and database, a SQLite file's absolute path. */
export async function saveDataConnection(ctx: OpContext, id: string | null, f: DataConnectionInput) {
  const current = id ? await findOr404(ctx, DataConnection, id, 'Data connection') : null;
  const errors: { field: string; message: string }[] = [];
  if (onDisk(f.kind)) {
    const what = f.kind === 'Folder' ? 'a folder: where the files are' : 'SQLite: the database file';
    const example = f.kind === 'Folder' ? '/srv/exports' : '/srv/data/sales.db';
    if (!f.filePath?.trim()) errors.push({ field: 'body.filePath', message: `is required for ${what}` });
    else if (!isAbsolute(f.filePath.trim()))
      errors.push({ field: 'body.filePath', message: `must be an absolute path, such as ${example}` });
    else {
      const house = houseFolderProblem(f.filePath.trim(), ctx.houseFolders);
      if (house) errors.push({ field: 'body.filePath', message: house });
      else {
        // Said at Save, beside the field, rather than at the first reload: a path that is not there or not of its kind.
        const problem = await pathProblem(f.filePath.trim(), f.kind === 'Folder' ? 'folder' : 'file');
        if (problem) errors.push({ field: 'body.filePath', message: problem });
      }
    }
  } else {
    const host = f.host?.trim();
    if (!host) errors.push({ field: 'body.host', message: `is required for ${f.kind}: the server's name or address` });
    else if (!/^[A-Za-z0-9.-]+$|^\[[0-9a-fA-F:.]+\]$|^\/[^\0]*$/.test(host))
      errors.push({
        field: 'body.host',
        message: 'must be a host name, an IP address, or a socket path starting with /',
      });
    else if (forbiddenHost(host)) errors.push({ field: 'body.host', message: forbiddenHost(host)! });
    else if (f.kind === 'SQLServer' && host.startsWith('/'))
      errors.push({ field: 'body.host', message: 'must be a host name or address: SQL Server is reached over TCP' });
    if (!f.database?.trim()) errors.push({ field: 'body.database', message: 'is required: the database to read' });
    if (!f.username?.trim()) errors.push({ field: 'body.username', message: 'is required: the user to sign in as' });
  }
  if (errors.length) throw badInput(`The ${f.kind} data connection is not complete`, errors);
  const server = !onDisk(f.kind);
  const where = {
    kind: f.kind,
    host: server ? f.host!.trim() : null,
    port: server ? (f.port ?? DEFAULT_PORTS[f.kind]) : null,
    database: server ? f.database!.trim() : null,
    username: server ? f.username!.trim() : null,
    tls: server ? (f.tls ?? current?.tls ?? 'off') : 'off',
    filePath: server ? null : f.filePath!.trim(),
  } satisfies Partial<DataConnectionRow>;
  const row: DataConnectionRow = {
    ...(current ?? newBase(ctx.now())),
    ...where,
    organizationId: await homeOrganization(ctx, f.organizationId ?? current?.organizationId),
    name: f.name,
    description: f.description ?? null,
    // Another server, database, user or encryption is another destination: the password saved for
    // the old one is dropped unless it is given again, never sent where it was not meant for.
    password: server
      ? ctx.secrets.sealOrKeep(f.password, sameDestination(current, where, DESTINATION) ? current!.password : null)
      : null,
    modifiedDate: ctx.now(),
  };
  await ctx.db.getRepository(DataConnection).save(row);
  return dataConnectionDto(row);
}

/** Refused while an app loads from a connection: the apps are named. */
export async function deleteDataConnections(ctx: OpContext, ids: string[]) {
  await requireAll(ctx, DataConnection, ids, 'Data connection');
  const unique = [...new Set(ids)];
  if (!unique.length) return { deleted: 0 };
  const used = await ctx.db
    .getRepository(AppSource)
    .createQueryBuilder('s')
    .innerJoin('analytics_apps', 'a', 'a.id = s.appId')
    .select('DISTINCT a.name', 'name')
    .where('s.connectionId IN (:...ids)', { ids: unique })
    .getRawMany<{ name: string }>();
  if (used.length)
    throw conflict(
      `Apps load their data from this connection: ${[...new Set(used.map((u) => u.name))].join(', ')}. Change their sources first.`,
    );
  await ctx.db.getRepository(DataConnection).delete(unique);
  return { deleted: unique.length };
}

/** The connection as its driver opens it; one saved before the rule that points into the house is refused. */
export function openedConnection(
  ctx: Pick<OpContext, 'secrets' | 'houseFolders'>,
  x: DataConnectionRow,
): OpenConnection {
  const house = onDisk(x.kind) && x.filePath ? houseFolderProblem(x.filePath, ctx.houseFolders) : null;
  if (house)
    throw badInput(`“${x.name}” may not be used: its path ${house}`, [{ field: 'body.filePath', message: house }]);
  const host = onDisk(x.kind) ? null : forbiddenHost(x.host);
  if (host) throw badInput(`“${x.name}” may not be used: its host ${host}`, [{ field: 'body.host', message: host }]);
  return { ...x, password: x.password ? ctx.secrets.open(x.password) : null };
}

/** Connects and says what answered, or what failed in words with the field to fix. */
export async function testDataConnection(ctx: OpContext, id: string) {
  const x = await findOr404(ctx, DataConnection, id, 'Data connection');
  try {
    const server = await (await driverOf(x.kind)).test(openedConnection(ctx, x));
    const where = onDisk(x.kind)
      ? x.filePath
      : `${x.database} at ${x.host}${x.host?.startsWith('/') ? '' : `:${x.port}`}`;
    return { ok: true, message: `Connected to ${server}: ${where}` };
  } catch (e) {
    const p = problemOf(e);
    ctx.log.warn('A data connection test failed', { connection: x.id, problem: p.message });
    throw badInput(`“${x.name}” could not be used: ${p.message}`, [{ field: p.field, message: p.message }]);
  }
}
