import { randomUUID } from 'node:crypto';
import { extname } from 'node:path';
import { In, type EntityManager } from 'typeorm';
import type { OpContext } from '../../../ops/context.js';
import { insertRows } from '../../../core/insert-rows.js';
import { eachAtOnce } from '../../../core/at-once.js';
import { listEntries } from '../../../core/validation.js';
import { FILE_TYPES, parseFormat } from '../../../render/formats.js';
import { User } from '../../../model/users.entity.js';
import type { TaskReportRow, TaskRow } from '../../../model/tasks.entity.js';
import type { ReportRow } from '../../../model/reports.entity.js';
import type { RequestFile } from '../../../model/requests.entity.js';
import { requestFileKey } from '../../requests/request-output.js';
import {
  HUB_ROOT_FOLDER_ID,
  HubFileUser,
  HubFolder,
  type HubFileKind,
  type HubFileRow,
  type HubOccurrenceRow,
} from '../../../model/hub.entity.js';
import { placeOccurrence, removeOccurrence } from '../../hub/hub-storage.js';
import type { Deliver } from './delivery.js';
import { deleteReturning, insertionOrder, sql } from '../../../core/sql.js';

const KEY_SEPARATOR = '\u001f';
/** Links made or removed at once: libuv's four threads kept busy, the disk's queue short. */
export const FILES_AT_ONCE = 8;

/**
 * Publishes a task report's files to the hub: one hub file per iteration value and format, a new
 * occurrence each run, at most `maxFileOccurrences` kept (0 keeps all). With an authorized-user
 * variable the files are dedicated: seen only by the users its value names (by e-mail or account).
 * Answers the number of files published.
 */
export async function publishToHub(
  ctx: OpContext,
  task: TaskRow,
  tr: TaskReportRow,
  report: ReportRow,
  requestId: string,
  files: RequestFile[],
  log: (line: string) => void,
  /** Inside the publishing transaction: throws when this attempt no longer holds its run. */
  stillHeld: (m: EntityManager) => Promise<void> = async () => undefined,
): Promise<number> {
  if (!files.length) return 0;
  const o = tr.options;
  const folderId =
    o.hubFolderId && (await ctx.db.getRepository(HubFolder).existsBy({ id: o.hubFolderId }))
      ? o.hubFolderId
      : HUB_ROOT_FOLDER_ID;
  if (o.hubFolderId && folderId !== o.hubFolderId)
    log(`The hub folder of “${report.name}” no longer exists: its files go to the hub's root`);
  const userVariable = o.hubAuthorizedUserVariable?.trim() || null;
  // A file published before keeps its id (and its created date: the upsert leaves it).
  const known = await sql<{ id: string; iterationKey: string; extension: string }>(
    ctx.db,
    'SELECT id, "iterationKey", extension FROM hub_files WHERE "taskReportId" = ?',
    [tr.id],
  );
  const existing = new Map(known.map((f) => [`${f.iterationKey}${KEY_SEPARATOR}${f.extension}`, f.id]));
  const now = ctx.now();
  const hubFiles: HubFileRow[] = [];
  const occurrences: HubOccurrenceRow[] = [];
  const wanted = new Map<string, string[]>();
  for (const f of files) {
    const format = parseFormat(f.format);
    const extension = (format ? FILE_TYPES[format].extension : extname(f.name).slice(1).toLowerCase()) || 'bin';
    const typeMime = format ? FILE_TYPES[format].mime : 'application/octet-stream';
    const iterationKey = f.iteration.join(KEY_SEPARATOR);
    const kind: HubFileKind = userVariable ? 'dedicated' : f.iteration.length ? 'iteration' : 'single';
    const knownId = existing.get(`${iterationKey}${KEY_SEPARATOR}${extension}`);
    const file: HubFileRow = {
      // A known file keeps its id: no new one is drawn for it (each costs the random source).
      id: knownId ?? randomUUID(),
      createdDate: now,
      taskId: task.id,
      taskReportId: tr.id,
      reportId: report.id,
      reportName: report.name,
      hubFolderId: folderId,
      kind,
      iterationKey,
      name: f.name,
      extension,
      typeMime,
      size: f.size,
      latestOccurrenceId: null,
      modifiedDate: now,
    };
    const occurrence: HubOccurrenceRow = {
      id: randomUUID(),
      createdDate: now,
      modifiedDate: now,
      fileId: file.id,
      requestId,
      name: f.name,
      extension,
      typeMime,
      size: f.size,
    };
    file.latestOccurrenceId = occurrence.id;
    hubFiles.push(file);
    occurrences.push(occurrence);
    if (userVariable)
      wanted.set(
        file.id,
        listEntries(f.variables?.[userVariable]).map((n) => n.toLowerCase()),
      );
  }
  // The files first, several at a time (each link waits on the disk), then the rows that name them.
  await eachAtOnce(occurrences, FILES_AT_ONCE, (o) =>
    placeOccurrence(ctx.files, requestFileKey(requestId, o.name), o.fileId, o.id, o.extension),
  );
  const authorized = await authorizedUsers(ctx, [...new Set([...wanted.values()].flat())]);
  const pruned: Pick<HubOccurrenceRow, 'id' | 'fileId' | 'extension'>[] = [];
  await ctx.write(() =>
    ctx.db.transaction(async (m) => {
      await stillHeld(m);
      // An earlier attempt at this run (cut off, then started again) published these files once
      // already: this attempt's occurrences replace its, never add to them.
      const earlier = await deleteReturning<Pick<HubOccurrenceRow, 'id' | 'fileId' | 'extension'>>(
        m,
        // Found by the run (its index; usually none), then kept to this task report's files.
        `WITH mine AS (SELECT o.id FROM hub_file_occurrences o WHERE o."requestId" = ? AND EXISTS (SELECT 1 FROM hub_files f WHERE f.id = o."fileId" AND f."taskReportId" = ?))
         DELETE FROM hub_file_occurrences WHERE id IN (SELECT id FROM mine) RETURNING id, "fileId", extension`,
        [requestId, tr.id],
      );
      pruned.push(...earlier);
      // A task report pointed at another report since: its files follow (no row changes otherwise).
      await sql(
        m,
        'UPDATE hub_files SET "reportId" = ?, "reportName" = ? WHERE "taskReportId" = ? AND "reportId" <> ?',
        [report.id, report.name, tr.id, report.id],
      );
      await insertRows(m, 'hub_files', FILE_COLUMNS, hubFiles, UPSERT_FILE);
      await insertRows(m, 'hub_file_occurrences', OCCURRENCE_COLUMNS, occurrences);
      await insertRows(
        m,
        'hub_file_events',
        EVENT_COLUMNS,
        hubFiles.map((f) => ({ id: randomUUID(), fileId: f.id, userId: null, type: 'added' as const, date: now })),
      );
      if (userVariable) {
        // Who a dedicated file is for is what this run's variable says, replacing the last run's answer.
        await m.getRepository(HubFileUser).delete({ fileId: In(hubFiles.map((f) => f.id)) });
        const links = [...wanted].flatMap(([fileId, names]) =>
          [...new Set(names.map((n) => authorized.get(n)).filter((u): u is string => !!u))].map((userId) => ({
            fileId,
            userId,
          })),
        );
        if (links.length) await m.getRepository(HubFileUser).insert(links);
      }
      if (o.maxFileOccurrences > 0) {
        // Each file's occurrences past the newest `maxFileOccurrences`, removed in the statement that finds them.
        const over = await deleteReturning<Pick<HubOccurrenceRow, 'id' | 'fileId' | 'extension'>>(
          m,
          `WITH ranked AS (SELECT o.id, ROW_NUMBER() OVER (PARTITION BY o."fileId" ORDER BY o."createdDate" DESC, ${insertionOrder(m, 'o')} DESC) AS n FROM hub_file_occurrences o
         WHERE o."fileId" IN (SELECT id FROM hub_files WHERE "taskReportId" = ?))
         DELETE FROM hub_file_occurrences WHERE id IN (SELECT id FROM ranked WHERE n > ?) RETURNING id, "fileId", extension`,
          [tr.id, o.maxFileOccurrences],
        );
        pruned.push(...over);
      }
    }),
  );
  // The rows went first: a crash here leaves only unreferenced bytes, never a row without its file.
  await eachAtOnce(pruned, FILES_AT_ONCE, (x) => removeOccurrence(ctx.files, x.fileId, x.id, x.extension));
  const unmatched = [...new Set([...wanted.values()].flat())].filter((n) => !authorized.has(n));
  if (unmatched.length)
    log(
      `Hub: no active user for ${unmatched.slice(0, 5).join(', ')}${unmatched.length > 5 ? ` and ${unmatched.length - 5} more` : ''}; those files are seen by the others named`,
    );
  log(
    `${hubFiles.length} file${hubFiles.length === 1 ? '' : 's'} of “${report.name}” published to the hub${pruned.length ? `, ${pruned.length} older occurrence${pruned.length === 1 ? '' : 's'} removed` : ''}`,
  );
  return hubFiles.length;
}

/** Active users by lower-cased e-mail or account name. */
async function authorizedUsers(ctx: OpContext, names: string[]) {
  const out = new Map<string, string>();
  if (!names.length) return out;
  for (let i = 0; i < names.length; i += 400) {
    const part = names.slice(i, i + 400);
    const rows: { id: string; email: string | null; domainAccount: string | null }[] = await ctx.db
      .getRepository(User)
      .createQueryBuilder('u')
      .select(['u.id AS id', 'u.email AS email', 'u."domainAccount" AS "domainAccount"'])
      .where('u."isActive" = TRUE AND (LOWER(u.email) IN (:...part) OR LOWER(u."domainAccount") IN (:...part))', {
        part,
      })
      .getRawMany();
    for (const r of rows) {
      if (r.email) out.set(r.email.toLowerCase(), r.id);
      if (r.domainAccount) out.set(r.domainAccount.toLowerCase(), r.id);
    }
  }
  return out;
}

const FILE_COLUMNS = [
  'id',
  'createdDate',
  'modifiedDate',
  'taskId',
  'taskReportId',
  'reportId',
  'reportName',
  'hubFolderId',
  'kind',
  'iterationKey',
  'name',
  'extension',
  'typeMime',
  'size',
  'latestOccurrenceId',
] as const;

/**
 * The run's hub files: new ones inserted, known ones (same task report, iteration value and
 * extension) given their latest occurrence, in one statement a few hundred files (a row-by-row save
 * measured 8x the bare inserts for 500 files). A task report stays in its task, and a change of its
 * report is written apart, only where it happened: an indexed column in the SET list rewrites its
 * index entry on every row, and a publish of 500 known files took half again as long.
 */
const UPSERT_FILE = `ON CONFLICT ("taskReportId", "iterationKey", "extension") DO UPDATE SET "modifiedDate" = excluded."modifiedDate", "reportName" = excluded."reportName",
  "hubFolderId" = excluded."hubFolderId", "kind" = excluded."kind", "name" = excluded."name", "typeMime" = excluded."typeMime", "size" = excluded."size",
  "latestOccurrenceId" = excluded."latestOccurrenceId"`;
const OCCURRENCE_COLUMNS = [
  'id',
  'createdDate',
  'modifiedDate',
  'fileId',
  'requestId',
  'name',
  'extension',
  'typeMime',
  'size',
] as const;
const EVENT_COLUMNS = ['id', 'fileId', 'userId', 'type', 'date'] as const;

/** The hub as a delivery: the files as made (never the folders' zip); a task in test mode publishes nothing. */
export const toHub: Deliver = async (d) => {
  if (!d.from?.taskReport.options.publishToServiceHub) return [];
  if (d.task.testMode) {
    d.log(`Test mode: “${d.from.report.name}” not published to the hub`);
    return [];
  }
  await publishToHub(d.ctx, d.task, d.from.taskReport, d.from.report, d.requestId, d.files, d.log, d.stillHeld);
  return [];
};
