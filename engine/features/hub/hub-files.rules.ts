import { keptRead } from '../../core/kept-reads.js';
import { marks } from '../../core/sql.js';
import { randomUUID } from 'node:crypto';
import { In } from 'typeorm';
import type { OpContext } from '../../ops/context.js';
import { me } from '../../ops/context.js';
import { iso } from '../../core/entity-base.js';
import { badInput, notFound } from '../../core/errors.js';
import { FileResult, safeFileName } from '../../core/file-result.js';
import type { ListQuery, ListSpec } from '../../core/list-query.js';
import { pageOf, runList } from '../../core/list-query.js';
import { Page } from '../../core/envelope.js';
import {
  HubEvent,
  HubFavorite,
  HubFile,
  HubFolder,
  HubOccurrence,
  type HubFileRow,
  type HubOccurrenceRow,
} from '../../model/hub.entity.js';
import { readOccurrence, removeHubFileDir } from './hub-storage.js';
import { zipFiles } from '../../core/zip.js';
import { visibleFileOr404, visibleFiles } from './hub-visibility.js';

const RECENT_DAYS = 7;
const SORT_FILES = { Type: 'f.extension', Name: 'LOWER(f.name)', CreatedDate: 'f."modifiedDate"' };
const isIteration = (value: boolean, p: string) => ({ sql: `(f.kind <> 'single') = :${p}`, params: { [p]: value } });

export const LIST_FILES: ListSpec = {
  sort: { starred: 'fav."starredDate"', ...SORT_FILES },
  defaultSort: { by: 'CreatedDate', direction: 'desc' },
  text: { name: 'f.name', 'report.name': 'f."reportName"' },
  exact: { extension: 'LOWER(f.extension)' },
  bool: { is_iteration: isIteration },
  uuid: { folderId: 'f."hubFolderId"' },
};
export const LIST_OCCURRENCES: ListSpec = {
  sort: { Type: 'o.extension', Name: 'LOWER(o.name)', Size: 'o.size', CreatedDate: 'o."createdDate"' },
  defaultSort: { by: 'CreatedDate', direction: 'desc' },
  text: { name: 'o.name' },
};
export const LIST_ITERATION_FILES: ListSpec = {
  sort: { starred: 'fav."starredDate"', ...SORT_FILES, Size: 'f.size' },
  defaultSort: { by: 'Name', direction: 'asc' },
  text: { name: 'f.name' },
};
export const LIST_FAVORITES: ListSpec = {
  sort: SORT_FILES,
  defaultSort: { by: 'CreatedDate', direction: 'desc' },
  text: { name: 'f.name' },
  exact: { extension: 'LOWER(f.extension)' },
};
export const LIST_RECENT: ListSpec = {
  sort: SORT_FILES,
  defaultSort: { by: 'CreatedDate', direction: 'desc' },
  text: { name: 'f.name' },
  exact: {
    extension: 'LOWER(f.extension)',
    event_type: (value, p) => {
      if (value !== 'viewed' && value !== 'added')
        throw badInput('event_type must be viewed or added', [
          { field: 'query.event_type', message: 'must be viewed or added' },
        ]);
      return {
        sql: `EXISTS (SELECT 1 FROM hub_file_events e2 WHERE e2."fileId" = f.id AND e2.date >= :recentSince AND e2.type = :${p} AND (e2.type = 'added' OR e2."userId" = :recentUser))`,
        params: { [p]: value },
      };
    },
  },
};

const occurrenceDto = (o: HubOccurrenceRow, folder = '') => ({
  id: o.id,
  fileId: o.fileId,
  name: o.name,
  fullName: `${folder}${o.name}`,
  extension: o.extension,
  path: `${folder}${o.name}`,
  typeMime: o.typeMime,
  size: o.size,
  createdDate: iso(o.createdDate),
});

/** Set A 2.5, with the folder and iteration values the hub screen shows. */
function fileDto(f: HubFileRow, star: { starredDate: Date | string } | undefined, folders: Map<string, string>) {
  const location = folders.get(f.hubFolderId) ?? '/';
  return {
    id: f.id,
    reportId: f.reportId,
    reportName: f.reportName,
    reportAvailableFormats: [f.extension.toUpperCase()],
    reportDelete: false,
    isIteration: f.kind !== 'single',
    occurrenceId: f.latestOccurrenceId,
    name: f.name,
    fullName: `${location.replace(/\/$/, '')}/${f.name}`,
    type: f.kind,
    extension: f.extension,
    thumbnailPath: null,
    typeMime: f.typeMime,
    size: f.size,
    starred: !!star,
    lastStarDate: iso(star?.starredDate),
    createdDate: iso(f.modifiedDate),
    fileOccurrences: null,
    hubFolderId: f.hubFolderId,
    folder: location,
    iteration: f.iterationKey ? f.iterationKey.split('\u001f') : [],
  };
}
export type HubFileDto = ReturnType<typeof fileDto>;

/**
 * A page of files with each one's star and folder. The caller's stars are joined only when the page
 * is sorted by them (one star per file and user, so the join repeats no file and the count needs
 * none); the page's stars and folders are then read together, each a trip to the database's thread.
 */
async function filePage(ctx: OpContext, qb: ReturnType<typeof visibleFiles>, spec: ListSpec, list: ListQuery) {
  const user = me(ctx).user.id;
  if (list.sortBy && String(spec.sort[list.sortBy]).startsWith('fav.'))
    qb.leftJoin('HubFavorite', 'fav', 'fav."fileId" = f.id AND fav."userId" = :favUser', { favUser: user });
  const { rows, total, page, pageSize } = await runList(qb, spec, list, 'f.id');
  const ids = rows.map((r) => r.id);
  const folderIds = [...new Set(rows.map((r) => r.hubFolderId))];
  const [stars, folderRows] = ids.length
    ? await Promise.all([
        keptRead<{ fileId: string; starredDate: Date | string }>(
          ctx.db,
          `SELECT "fileId", "starredDate" FROM hub_favorites WHERE "userId" = ? AND "fileId" IN (${marks(ids)})`,
          [user, ...ids],
        ),
        keptRead<{ id: string; location: string }>(
          ctx.db,
          `SELECT id, location FROM hub_folders WHERE id IN (${marks(folderIds)})`,
          folderIds,
        ),
      ])
    : [[], []];
  const folders = new Map(folderRows.map((x) => [x.id, x.location]));
  return new Page(
    rows.map((r) =>
      fileDto(
        r,
        stars.find((s) => s.fileId === r.id),
        folders,
      ),
    ),
    page,
    pageSize,
    total,
  );
}

export const listFiles = (ctx: OpContext, list: ListQuery) => filePage(ctx, visibleFiles(ctx), LIST_FILES, list);

export async function listOccurrences(ctx: OpContext, id: string, list: ListQuery) {
  const file = await visibleFileOr404(ctx, id);
  const folder = (await ctx.db.getRepository(HubFolder).findOneBy({ id: file.hubFolderId }))?.location ?? '/';
  const qb = ctx.db.getRepository(HubOccurrence).createQueryBuilder('o').where('o."fileId" = :id', { id });
  return pageOf(qb, LIST_OCCURRENCES, list, 'o.id', (o) => occurrenceDto(o, `${folder.replace(/\/$/, '')}/`));
}

export const listIterationFiles = (ctx: OpContext, reportId: string, extension: string, list: ListQuery) =>
  filePage(
    ctx,
    visibleFiles(ctx).andWhere('f."reportId" = :reportId AND LOWER(f.extension) = :ext AND f.kind <> \'single\'', {
      reportId,
      ext: extension.toLowerCase().replace(/^\./, ''),
    }),
    LIST_ITERATION_FILES,
    list,
  );

export const listFavorites = (ctx: OpContext, list: ListQuery) =>
  filePage(
    ctx,
    visibleFiles(ctx).andWhere(
      'EXISTS (SELECT 1 FROM hub_favorites s WHERE s."fileId" = f.id AND s."userId" = :starUser)',
      { starUser: me(ctx).user.id },
    ),
    LIST_FAVORITES,
    list,
  );

/** Files added in the last 7 days, or viewed by the caller in them. */
export function listRecent(ctx: OpContext, list: ListQuery) {
  const since = new Date(ctx.now().getTime() - RECENT_DAYS * 86_400_000);
  const qb = visibleFiles(ctx).andWhere(
    'EXISTS (SELECT 1 FROM hub_file_events e WHERE e."fileId" = f.id AND e.date >= :recentSince AND (e.type = \'added\' OR e."userId" = :recentUser))',
    { recentSince: since, recentUser: me(ctx).user.id },
  );
  return filePage(ctx, qb, LIST_RECENT, list);
}

/** Stars or unstars a file the caller sees. */
export async function setStar(ctx: OpContext, id: string, starred: boolean) {
  await visibleFileOr404(ctx, id);
  const key = { fileId: id, userId: me(ctx).user.id };
  if (starred) await ctx.db.getRepository(HubFavorite).upsert({ ...key, starredDate: ctx.now() }, ['fileId', 'userId']);
  else await ctx.db.getRepository(HubFavorite).delete(key);
  return { id, starred };
}

/** Deletes files the caller sees, with every occurrence and its bytes; any unseen id is a 404 and nothing goes. */
export async function deleteFiles(ctx: OpContext, ids: string[]) {
  const unique = [...new Set(ids)];
  for (const id of unique) await visibleFileOr404(ctx, id);
  // Occurrences, stars, events and dedicated links go with the file (ON DELETE CASCADE).
  if (unique.length) await ctx.db.getRepository(HubFile).delete(unique);
  for (const id of unique) await removeHubFileDir(ctx.files, id);
  return { deleted: unique.length };
}

async function viewed(ctx: OpContext, fileIds: string[]) {
  // Reads run outside the write queue; the event waits its turn there.
  if (fileIds.length)
    await ctx.write(() =>
      ctx.db.getRepository(HubEvent).insert(
        fileIds.map((fileId) => ({
          id: randomUUID(),
          fileId,
          userId: me(ctx).user.id,
          type: 'viewed' as const,
          date: ctx.now(),
        })),
      ),
    );
}

/**
 * A file's bytes: a file id gives its latest occurrence, an occurrence id that occurrence. With
 * `isIteration`, the latest occurrence of every iteration file of the same report and format the
 * caller sees, zipped (the id may be one of those files, or the report).
 */
export async function downloadFile(ctx: OpContext, id: string, iterationSet: boolean): Promise<FileResult> {
  if (iterationSet) return downloadIterationSet(ctx, id);
  const occurrence = await ctx.db.getRepository(HubOccurrence).findOneBy({ id });
  const file = await visibleFileOr404(ctx, occurrence?.fileId ?? id);
  const o =
    occurrence ??
    (file.latestOccurrenceId
      ? await ctx.db.getRepository(HubOccurrence).findOneBy({ id: file.latestOccurrenceId })
      : null);
  if (!o) throw notFound(`File ${id}`);
  const data = await readOccurrence(ctx.files, file.id, o.id, o.extension).catch(() => {
    throw notFound(`The bytes of file ${file.name}`);
  });
  await viewed(ctx, [file.id]);
  return new FileResult(o.name, o.typeMime, data);
}

async function downloadIterationSet(ctx: OpContext, id: string): Promise<FileResult> {
  const one = await visibleFiles(ctx).andWhere('f.id = :id', { id }).getOne();
  const qb = visibleFiles(ctx).andWhere("f.kind <> 'single'");
  if (one)
    qb.andWhere('f."reportId" = :reportId AND f.extension = :ext', { reportId: one.reportId, ext: one.extension });
  else qb.andWhere('f."reportId" = :reportId', { reportId: id });
  const files = await qb.orderBy('f.name').getMany();
  if (!files.length) throw notFound(`Iteration files of ${id}`);
  const latest = await ctx.db
    .getRepository(HubOccurrence)
    .findBy({ id: In(files.map((f) => f.latestOccurrenceId).filter((x): x is string => !!x)) });
  const data = await zipFiles(
    latest
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((o) => ({ name: o.name, read: () => readOccurrence(ctx.files, o.fileId, o.id, o.extension) })),
  );
  await viewed(
    ctx,
    files.map((f) => f.id),
  );
  return new FileResult(`${safeFileName(files[0].reportName)}.zip`, 'application/zip', data);
}

const PREVIEWABLE = new Set(['pdf', 'png']);

/** A PDF or an image to show in the page; other types are downloaded instead. */
export async function previewFile(ctx: OpContext, id: string): Promise<FileResult> {
  const file = await visibleFileOr404(ctx, id);
  if (!PREVIEWABLE.has(file.extension))
    throw badInput(`A ${file.extension.toUpperCase()} file cannot be shown in the page; download it instead`, [
      { field: 'id', message: 'only PDF and PNG files can be previewed' },
    ]);
  return downloadFile(ctx, id, false);
}
