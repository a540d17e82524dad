import { lazySchema } from '../../core/lazy-schema.js';
import { z } from 'zod';
import { In } from 'typeorm';
import type { OpContext } from '../../ops/context.js';
import { iso, newBase } from '../../core/entity-base.js';
import { badInput, conflict } from '../../core/errors.js';
import { email, v } from '../../core/validation.js';
import { findOr404, requireAll } from '../../core/rows.js';
import type { ListQuery, ListSpec } from '../../core/list-query.js';
import { pageOf } from '../../core/list-query.js';
import {
  HUB_CONFIGURATION_ID,
  HUB_ROOT_FOLDER_ID,
  HubConfiguration,
  HubFile,
  HubFolder,
  type HubFolderRow,
} from '../../model/hub.entity.js';

/** Set A 2.7. `parentUrl` and `location` are required by the interface, and recomputed from the parent so they never disagree with it. */
export const HubFolderInput = lazySchema(() =>
  z.object({
    parentId: v.nuuid(),
    name: v.text().refine((s) => !/[\\/]/.test(s) && s !== '.' && s !== '..', {
      message: 'must not contain / or \\ and must not be . or ..',
    }),
    parentUrl: v.text(2000),
    location: v.text(2000),
  }),
);
export type HubFolderInput = z.output<typeof HubFolderInput>;

/** Set A 2.6: the sender of the hub's mail (subscriptions) and its footer. */
export const HubConfigurationInput = lazySchema(() =>
  z.object({
    fromEmail: email(),
    fromName: v.header(),
    customEmailFooter: v.nstr(4000),
    hideSubsciptionLink: v.obool(),
  }),
);

export const LIST_HUB_FOLDERS: ListSpec = {
  sort: { Name: 'LOWER(x.name)', ParentUrl: 'LOWER(x."parentUrl")' },
  defaultSort: { by: 'ParentUrl', direction: 'asc' },
  text: { name: 'x.name' },
  uuid: {
    exceptFolderId: (value, p) => ({
      sql: `x.id <> :${p} AND x.location NOT LIKE (SELECT location FROM hub_folders WHERE id = :${p}) || '/%'`,
      params: { [p]: value },
    }),
  },
  // Not a partition like the other booleans (false lists everything), so read as an exact value.
  exact: {
    exceptRoot: (value, p) => {
      if (!/^(true|false)$/i.test(value))
        throw badInput('exceptRoot must be true or false', [
          { field: 'query.exceptRoot', message: 'must be true or false' },
        ]);
      return { sql: value.toLowerCase() === 'true' ? `x.id <> :${p}` : '1 = 1', params: { [p]: HUB_ROOT_FOLDER_ID } };
    },
  },
};

const folderDto = (x: HubFolderRow) => ({
  ...x,
  isRoot: x.id === HUB_ROOT_FOLDER_ID,
  createdDate: iso(x.createdDate),
  modifiedDate: iso(x.modifiedDate),
});

export const listHubFolders = (ctx: OpContext, list: ListQuery) =>
  pageOf(ctx.db.getRepository(HubFolder).createQueryBuilder('x'), LIST_HUB_FOLDERS, list, 'x.id', folderDto);

const childLocation = (parent: HubFolderRow, name: string) => `${parent.location.replace(/\/$/, '')}/${name}`;

/** Adds or renames/moves a folder; a move carries its subfolders along. */
export async function saveHubFolder(ctx: OpContext, id: string | null, f: HubFolderInput) {
  const repo = ctx.db.getRepository(HubFolder);
  const current = id ? await findOr404(ctx, HubFolder, id, 'Hub folder') : null;
  if (current?.id === HUB_ROOT_FOLDER_ID) throw conflict("The hub's root folder cannot be renamed or moved");
  const parent = await findOr404(ctx, HubFolder, f.parentId ?? HUB_ROOT_FOLDER_ID, 'Parent folder');
  if (current && (parent.id === current.id || parent.location.startsWith(`${current.location}/`)))
    throw badInput('A folder cannot be moved into itself', [
      { field: 'body.parentId', message: 'is this folder or one of its subfolders' },
    ]);
  const location = childLocation(parent, f.name);
  const clash = await repo.findOneBy({ location });
  if (clash && clash.id !== current?.id)
    throw conflict(`${location} already exists`, [
      { field: 'body.name', message: 'is used by another folder in the same parent' },
    ]);
  const now = ctx.now();
  const row: HubFolderRow = {
    ...(current ?? newBase(now)),
    parentId: parent.id,
    name: f.name,
    parentUrl: parent.location,
    location,
    modifiedDate: now,
  };
  await ctx.db.transaction(async (m) => {
    if (current && current.location !== location) {
      const below = await m
        .getRepository(HubFolder)
        .createQueryBuilder('x')
        .where("x.location LIKE :prefix ESCAPE '\\'", {
          prefix: `${current.location.replace(/[\\%_]/g, (c) => `\\${c}`)}/%`,
        })
        .getMany();
      for (const b of below) {
        b.location = location + b.location.slice(current.location.length);
        b.parentUrl = location + b.parentUrl.slice(current.location.length);
      }
      // Move the subtree out of the way first: locations are unique.
      await m.getRepository(HubFolder).save(row);
      await m.getRepository(HubFolder).save(below);
    } else await m.getRepository(HubFolder).save(row);
  });
  return folderDto(row);
}

/** Deletes folders with their subfolders; their files move to the root, never lost. */
export async function deleteHubFolders(ctx: OpContext, ids: string[]) {
  const rows = await requireAll(ctx, HubFolder, ids, 'Hub folder');
  if (!rows.length) return { deleted: 0, filesMovedToRoot: 0 };
  if (rows.some((r) => r.id === HUB_ROOT_FOLDER_ID))
    throw conflict("The hub's root folder cannot be deleted", [{ field: 'body', message: 'holds the root folder' }]);
  let removed = 0;
  let moved = 0;
  await ctx.db.transaction(async (m) => {
    const gone = new Set<string>();
    for (const r of rows) {
      const below = await m
        .getRepository(HubFolder)
        .createQueryBuilder('x')
        .where("x.id = :id OR x.location LIKE :prefix ESCAPE '\\'", {
          id: r.id,
          prefix: `${r.location.replace(/[\\%_]/g, (c) => `\\${c}`)}/%`,
        })
        .getMany();
      for (const b of below) gone.add(b.id);
    }
    const all = [...gone];
    moved =
      (await m.getRepository(HubFile).update({ hubFolderId: In(all) }, { hubFolderId: HUB_ROOT_FOLDER_ID })).affected ??
      0;
    removed = (await m.getRepository(HubFolder).delete(all)).affected ?? 0;
  });
  return { deleted: removed, filesMovedToRoot: moved };
}

export async function hubConfiguration(ctx: OpContext) {
  const x = await findOr404(ctx, HubConfiguration, HUB_CONFIGURATION_ID, 'Hub configuration');
  return { ...x, createdDate: iso(x.createdDate), modifiedDate: iso(x.modifiedDate) };
}

export async function updateHubConfiguration(ctx: OpContext, id: string, f: z.output<typeof HubConfigurationInput>) {
  const current = await findOr404(ctx, HubConfiguration, id, 'Hub configuration');
  await ctx.db.getRepository(HubConfiguration).save({
    ...current,
    fromEmail: f.fromEmail,
    fromName: f.fromName,
    customEmailFooter: f.customEmailFooter ?? null,
    hideSubsciptionLink: f.hideSubsciptionLink ?? current.hideSubsciptionLink,
    modifiedDate: ctx.now(),
  });
  return hubConfiguration(ctx);
}
