import { lazySchema } from '../../core/lazy-schema.js';
import { constants } from 'node:fs';
import { createHash, randomUUID } from 'node:crypto';
import { access, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { z } from 'zod';
import type { Client } from 'basic-ftp';
import type SftpClient from 'ssh2-sftp-client';
import type { OpContext } from '../../ops/context.js';
import { iso, newBase } from '../../core/entity-base.js';
import { badInput } from '../../core/errors.js';
import { findOr404, requireAll } from '../../core/rows.js';
import type { ListQuery, ListSpec } from '../../core/list-query.js';
import { pageOf } from '../../core/list-query.js';
import { v } from '../../core/validation.js';
import { sameDestination } from '../../core/secrets.js';
import { houseFolderProblem } from '../../core/house-folders.js';
import { forbiddenHosts } from '../../core/outgoing-hosts.js';
import { withinOrganizations } from '../../core/organization-boundary.js';
import { homeOrganization } from '../../access/home-organization.js';
import { StorageService, STORAGE_TYPES, type StorageServiceRow } from '../../model/storage.entity.js';
import { confinedRelative } from './storage-paths.js';
import { webdavClient, webdavProblem } from './webdav.js';
import { cloudDrive, isCloud } from './cloud/providers.js';

export const LIST_STORAGE: ListSpec = {
  sort: { Name: 'LOWER(x.name)', Description: 'LOWER(x.description)', Type: 'x.type', IsDefault: 'x."isDefault"' },
  defaultSort: { by: 'Name', direction: 'asc' },
  text: { name: 'x.name', description: 'x.description' },
};

/** Set B 2.11, with the folder's root and the FTP port this product also needs (`rootPath`, `port`). */
export const StorageInput = lazySchema(() =>
  z.object({
    name: v.text(),
    description: v.nstr(),
    type: v.oneOf(STORAGE_TYPES),
    host: v.nstr(253),
    username: v.nstr(320),
    password: z.string().max(1000).nullable().optional(),
    passiveMode: v.obool().nullable(),
    ftpTestDirectoryPath: v.nstr(1000),
    sftpPort: v.int().nullable().optional(),
    rootPath: v.nstr(1000),
    port: z.number().int().min(1).max(65535).nullable().optional(),
    isDefault: v.obool(),
    privateKey: z.string().max(20_000).nullable().optional(),
    /** SFTP: forget the pinned host key (the server was reinstalled); the next connection pins the new one. */
    clearHostKey: v.obool(),
    /** SharePoint: the site's address, and the document library (the site's default one when empty). */
    siteUrl: v.nstr(1000),
    library: v.nstr(300),
    /** The organization whose tasks may deliver to it: the caller's own when left out. */
    organizationId: v.nuuid(),
  }),
);
export type StorageInput = z.output<typeof StorageInput>;

export function storageDto(x: StorageServiceRow) {
  const { password, privateKey, oauth, ...rest } = x;
  // Set B names `password` (never answered) and `sftpPort`.
  return {
    ...rest,
    password: null,
    hasPassword: password !== null,
    hasPrivateKey: privateKey !== null,
    ftpTestDirectoryPath: x.type === 'Folder' ? null : x.rootPath,
    sftpPort: x.type === 'SFTP' ? x.port : null,
    account: x.account ?? null,
    connected: !!oauth,
    siteUrl: x.siteUrl ?? null,
    library: x.library ?? null,
    createdDate: iso(x.createdDate),
    modifiedDate: iso(x.modifiedDate),
  };
}

export const listStorage = (ctx: OpContext, list: ListQuery) =>
  pageOf(
    withinOrganizations(ctx, ctx.db.getRepository(StorageService).createQueryBuilder('x'), StorageService, 'x'),
    LIST_STORAGE,
    list,
    'x.id',
    storageDto,
  );

/** The fields that say where a storage's password and key go. */
const DESTINATION = ['type', 'host', 'port', 'username', 'rootPath'] as const;

/** Every field a type needs, checked at once: a folder's absolute root, an FTP server's host and base. */
export async function saveStorage(ctx: OpContext, id: string | null, f: StorageInput) {
  const current = id ? await findOr404(ctx, StorageService, id, 'Storage service') : null;
  const errors = [];
  let rootPath: string | null;
  if (f.type === 'Folder') {
    rootPath = f.rootPath?.trim() || null;
    if (!rootPath)
      errors.push({ field: 'body.rootPath', message: 'is required for a folder: the root every delivery stays under' });
    else if (!isAbsolute(rootPath))
      errors.push({ field: 'body.rootPath', message: 'must be an absolute path, such as /srv/reports or D:\\Reports' });
    else if (houseFolderProblem(rootPath, ctx.houseFolders))
      errors.push({ field: 'body.rootPath', message: houseFolderProblem(rootPath, ctx.houseFolders)! });
    // A folder that is not there would fail every delivery later: said now, where it can be fixed.
    else if (
      !(await stat(rootPath).then(
        (x) => x.isDirectory(),
        () => false,
      ))
    )
      errors.push({ field: 'body.rootPath', message: 'does not exist or is not a folder on this computer' });
  } else if (isCloud(f.type)) {
    rootPath = f.ftpTestDirectoryPath?.trim() || '/';
    if (confinedRelative(rootPath) === null)
      errors.push({ field: 'body.ftpTestDirectoryPath', message: 'must not contain ".."' });
    if (f.type === 'SharePoint' && !sharePointSite(f.siteUrl))
      errors.push({
        field: 'body.siteUrl',
        message: 'must be the SharePoint site’s address, such as https://contoso.sharepoint.com/sites/Finance',
      });
  } else if (f.type === 'WebDAV') {
    rootPath = f.ftpTestDirectoryPath?.trim() || '/';
    const url = webdavUrl(f.host);
    if (!f.host?.trim()) errors.push({ field: 'body.host', message: "is required for WebDAV: the server's address" });
    else if (!url)
      errors.push({
        field: 'body.host',
        message: 'must be the WebDAV address, such as https://cloud.example.com/remote.php/dav/files/reports',
      });
    if (confinedRelative(rootPath) === null)
      errors.push({ field: 'body.ftpTestDirectoryPath', message: 'must not contain ".."' });
  } else {
    rootPath = f.ftpTestDirectoryPath?.trim() || '/';
    if (f.type === 'SFTP' && !rootPath.startsWith('/'))
      errors.push({
        field: 'body.ftpTestDirectoryPath',
        message: 'must be an absolute path on the server, such as /home/reports/out',
      });
    if (!f.host?.trim()) errors.push({ field: 'body.host', message: `is required for ${f.type}` });
    else if (!/^[A-Za-z0-9.-]+$|^\[[0-9a-fA-F:.]+\]$/.test(f.host.trim()))
      errors.push({ field: 'body.host', message: 'must be a host name or an IP address' });
    if (confinedRelative(rootPath) === null)
      errors.push({ field: 'body.ftpTestDirectoryPath', message: 'must not contain ".."' });
  }
  if (f.type !== 'Folder' && !isCloud(f.type)) errors.push(...forbiddenHosts({ 'body.host': f.host }));
  if (errors.length) throw badInput(`The ${f.type} storage service is not complete`, errors);
  const where = {
    type: f.type,
    host:
      f.type === 'Folder' || isCloud(f.type)
        ? null
        : f.type === 'WebDAV'
          ? webdavUrl(f.host)
          : (f.host?.trim() ?? null),
    port:
      f.type === 'Folder' || f.type === 'WebDAV' || isCloud(f.type)
        ? null
        : f.type === 'SFTP'
          ? (f.sftpPort ?? f.port ?? 22)
          : (f.port ?? 21),
    username: f.username ?? null,
    rootPath,
  } satisfies Partial<StorageServiceRow>;
  // Another server, port, user or root is another destination: the password and key saved for the
  // old one are dropped unless given again, never sent where they were not meant for.
  const same = sameDestination(current, where, DESTINATION);
  const row: StorageServiceRow = {
    ...(current ?? newBase(ctx.now())),
    ...where,
    organizationId: await homeOrganization(ctx, f.organizationId ?? current?.organizationId),
    name: f.name,
    description: f.description ?? null,
    password: ctx.secrets.sealOrKeep(f.password, same ? current!.password : null),
    privateKey: ctx.secrets.sealOrKeep(f.privateKey, same ? current!.privateKey : null),
    passiveMode: f.passiveMode ?? true,
    rootPath,
    isDefault: f.isDefault ?? current?.isDefault ?? false,
    modifiedDate: ctx.now(),
    // Another host (or port) is another machine: its key is pinned afresh; so is one the user clears.
    hostKey:
      current &&
      !f.clearHostKey &&
      current.host === (f.host?.trim() ?? null) &&
      current.port === (f.type === 'SFTP' ? (f.sftpPort ?? f.port ?? 22) : (f.port ?? 21))
        ? current.hostKey
        : null,
    // The account stays connected while the service stays on the same drive.
    ...cloudConnection(current, f),
  };
  await ctx.db.getRepository(StorageService).save(row);
  return storageDto(row);
}

export async function deleteStorage(ctx: OpContext, ids: string[]) {
  await requireAll(ctx, StorageService, ids, 'Storage service');
  if (ids.length) await ctx.db.getRepository(StorageService).delete([...new Set(ids)]);
  return { deleted: new Set(ids).size };
}

/** A SharePoint site's address as kept (https, no query), or null. */
function sharePointSite(url: string | null | undefined): string | null {
  try {
    const u = new URL(url?.trim() ?? '');
    return u.protocol === 'https:' && !u.username && !u.search ? u.href.replace(/\/+$/, '') : null;
  } catch {
    return null;
  }
}

/** What a save keeps of the connected account: all of it on the same drive, nothing on another. */
function cloudConnection(current: StorageServiceRow | null, f: StorageInput) {
  const siteUrl = f.type === 'SharePoint' ? sharePointSite(f.siteUrl) : null;
  const library = f.type === 'SharePoint' ? f.library?.trim() || null : null;
  const same =
    !!current &&
    current.type === f.type &&
    (current.siteUrl ?? null) === siteUrl &&
    (current.library ?? null) === library;
  return {
    siteUrl,
    library,
    account: same ? (current.account ?? null) : null,
    oauth: same ? (current.oauth ?? null) : null,
  };
}

/** A WebDAV address as it is kept (http or https, no credentials in it), or null when it is not one. */
function webdavUrl(host: string | null | undefined): string | null {
  try {
    const u = new URL(host?.trim() ?? '');
    if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.username || u.password || u.search || u.hash)
      return null;
    return u.href;
  } catch {
    return null;
  }
}

/** An FTP client signed in to the service, in its base directory. */
export async function ftpClient(ctx: Pick<OpContext, 'secrets'>, x: StorageServiceRow): Promise<Client> {
  // The FTP and SFTP libraries are loaded on first use, not at start.
  const { Client } = await import('basic-ftp');
  const client = new Client(30_000);
  await client.access({
    host: x.host ?? '',
    port: x.port ?? 21,
    user: x.username ?? 'anonymous',
    password: x.password ? ctx.secrets.open(x.password) : '',
    secure: x.type === 'FTPS',
  });
  await client.ensureDir(x.rootPath ?? '/');
  return client;
}

/**
 * An SFTP client signed in to the service (password or private key), its base directory made. The
 * server's host key is pinned on first use (its SHA-256 kept on the service) and must match after:
 * a changed key is refused before any password or file is sent, since it may be another machine.
 */
export async function sftpClient(
  ctx: Pick<OpContext, 'secrets' | 'db' | 'write'>,
  x: StorageServiceRow,
): Promise<SftpClient> {
  const { default: SftpClient } = await import('ssh2-sftp-client');
  const client = new SftpClient();
  let seen: string | null = null;
  try {
    await client.connect({
      host: x.host ?? '',
      port: x.port ?? 22,
      username: x.username ?? '',
      readyTimeout: 20_000,
      password: x.password ? ctx.secrets.open(x.password) : undefined,
      privateKey: x.privateKey ? ctx.secrets.open(x.privateKey) : undefined,
      hostVerifier: (key: Buffer) => {
        seen = `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;
        return !x.hostKey || x.hostKey === seen;
      },
    });
  } catch (e) {
    if (x.hostKey && seen && seen !== x.hostKey) {
      throw new Error(
        `the host key of ${x.host} changed (pinned ${x.hostKey}, offered ${seen}); if the server was reinstalled, clear the pinned key and test again`,
      );
    }
    throw e;
  }
  if (!x.hostKey && seen) {
    const pinned = seen;
    await ctx.write(() => ctx.db.getRepository(StorageService).update({ id: x.id }, { hostKey: pinned }));
    x.hostKey = pinned;
  }
  await client.mkdir(x.rootPath ?? '/', true);
  return client;
}

/** "Test connection": the folder exists and is writable, or the server signs in and opens its base directory. */
export async function testStorage(ctx: OpContext, id: string) {
  const x = await findOr404(ctx, StorageService, id, 'Storage service');
  if (x.type === 'Folder') {
    const root = x.rootPath ?? '';
    const ok = await stat(root).then(
      (s) => s.isDirectory(),
      () => false,
    );
    if (!ok)
      throw badInput(`The folder ${root} does not exist`, [
        { field: 'rootPath', message: 'does not exist or is not a folder' },
      ]);
    await access(root, constants.W_OK).catch(() => {
      throw badInput(`The folder ${root} cannot be written to`, [
        { field: 'rootPath', message: 'cannot be written to' },
      ]);
    });
    return { ok: true, message: `The folder ${root} is there and can be written to` };
  }
  if (x.type === 'WebDAV') return testWebdav(ctx, x);
  if (isCloud(x.type)) return testCloud(ctx, x);
  if (x.type === 'SFTP') {
    let sftp: SftpClient | null = null;
    try {
      sftp = await sftpClient(ctx, x);
      return { ok: true, message: `Signed in to ${x.host}:${x.port} (host key ${x.hostKey}) and opened ${x.rootPath}` };
    } catch (e) {
      const msg = (e as Error).message.replace(/[\r\n]+/g, ' ').slice(0, 300);
      throw badInput(`${x.host}:${x.port} could not be used: ${msg}`, [
        { field: /host key/i.test(msg) ? 'host' : /auth|password|key/i.test(msg) ? 'username' : 'host', message: msg },
      ]);
    } finally {
      await sftp?.end().catch(() => undefined);
    }
  }
  let client: Client | null = null;
  try {
    client = await ftpClient(ctx, x);
    return { ok: true, message: `Signed in to ${x.host}:${x.port} and opened ${await client.pwd()}` };
  } catch (e) {
    const msg = (e as Error).message.replace(/[\r\n]+/g, ' ').slice(0, 300);
    throw badInput(`${x.host}:${x.port} could not be used: ${msg}`, [
      { field: /530|login|auth/i.test(msg) ? 'username' : 'host', message: msg },
    ]);
  } finally {
    client?.close();
  }
}

/** A cloud drive's test, like WebDAV's, writes a small file in the base folder and removes it. */
async function testCloud(ctx: OpContext, x: StorageServiceRow) {
  if (!x.oauth)
    throw badInput(`“${x.name}” is not connected to an account yet`, [
      { field: 'account', message: 'connect an account first' },
    ]);
  return probeWrite(
    ctx,
    async () => {
      const drive = await cloudDrive(ctx, x, { attempts: 1 });
      return { ...drive, base: `${x.rootPath ?? '/'} (${drive.where})` };
    },
    (e) => {
      const msg = (e as Error).message.replace(/[\r\n]+/g, ' ').slice(0, 300);
      return badInput(`“${x.name}” could not be used: ${msg}`, [
        { field: /reconnect|revoked/i.test(msg) ? 'account' : 'type', message: msg },
      ]);
    },
  );
}

/** Writes a small file through `open`'s client and removes it; a failure is said by `refused`. */
async function probeWrite(
  ctx: OpContext,
  open: () => Promise<{
    put(local: string, path: string): Promise<void>;
    remove(path: string): Promise<void>;
    base: string;
  }>,
  refused: (e: unknown) => Error,
) {
  const probe = `.broadsheet-test-${randomUUID()}.txt`;
  const local = join(tmpdir(), probe);
  await writeFile(local, 'Broadsheet checks it may write here; this file is removed at once.\n');
  try {
    const client = await open();
    await client.put(local, probe);
    await client.remove(probe);
    return { ok: true, message: `Wrote and removed a test file in ${client.base}` };
  } catch (e) {
    throw refused(e);
  } finally {
    await rm(local, { force: true });
  }
}

/** WebDAV's test writes a small file in the base folder and removes it: signing in alone proves no right to write. */
function testWebdav(ctx: OpContext, x: StorageServiceRow) {
  return probeWrite(
    ctx,
    async () => {
      const dav = await webdavClient(ctx, x, { attempts: 1 });
      return { ...dav, put: dav.put, remove: dav.remove, base: `${dav.base} at ${x.host}` };
    },
    (e) => {
      const msg = webdavProblem(e);
      return badInput(`${x.host} could not be used: ${msg}`, [
        { field: /user name|password|401/.test(msg) ? 'username' : 'host', message: msg },
      ]);
    },
  );
}
