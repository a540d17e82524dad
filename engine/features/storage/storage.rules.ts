import { lazySchema } from '../../core/lazy-schema.js';
import { z } from 'zod';
import type { OpContext } from '../../ops/context.js';
import { iso, newBase } from '../../core/entity-base.js';
import { badInput } from '../../core/errors.js';
import { findOr404, requireAll } from '../../core/rows.js';
import type { ListQuery, ListSpec } from '../../core/list-query.js';
import { pageOf } from '../../core/list-query.js';
import { v } from '../../core/validation.js';
import { sameDestination } from '../../core/secrets.js';
import { forbiddenHosts } from '../../core/outgoing-hosts.js';
import { withinOrganizations } from '../../core/organization-boundary.js';
import { homeOrganization } from '../../access/home-organization.js';
import { StorageService, STORAGE_TYPES, type StorageServiceRow } from '../../model/storage.entity.js';
import { storageKindOf } from './kinds/index.js';
import { sharePointSite } from './kinds/cloud.js';

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
  const kind = storageKindOf(f.type);
  const { host, port, rootPath, errors } = await kind.destination(ctx, f);
  if (kind.networkHost) errors.push(...forbiddenHosts({ 'body.host': f.host }));
  if (errors.length) throw badInput(`The ${f.type} storage service is not complete`, errors);
  const where = {
    type: f.type,
    host,
    port,
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
      current && !f.clearHostKey && current.host === (f.host?.trim() ?? null) && current.port === port
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

/** "Test connection": the destination is there and may be written to (each kind's own test, kinds/*.ts). */
export async function testStorage(ctx: OpContext, id: string) {
  const x = await findOr404(ctx, StorageService, id, 'Storage service');
  return storageKindOf(x.type).test(ctx, x);
}
