import { In } from 'typeorm';
import type { OpContext } from '../../../ops/context.js';
import { safeFileName } from '../../../core/file-result.js';
import type { TaskReportRow } from '../../../model/tasks.entity.js';
import { StorageService, type StorageServiceRow } from '../../../model/storage.entity.js';
import { confinedRelative } from '../../storage/storage-paths.js';
import { storageKindOf } from '../../storage/kinds/index.js';
import { retryDelay } from '../../../core/jobs/backoff.js';
import { abortableDelay } from '../../../core/jobs/retry-while.js';
import { deliveryProblem, type DeliveryProblem } from './delivery-problem.js';
import { requestFileKey } from '../../requests/request-output.js';
import type { Deliver } from './delivery.js';
import type { LaterDelivery } from '../../../model/deliveries.entity.js';

/** A file of a run, on disk under the data folder. */
export interface RunFile {
  name: string;
  localPath: string;
  /** The task report's variables under this file's selections (the folder variable among them). */
  variables?: Record<string, string | null>;
}

/**
 * The files in groups by the subfolder their folder variable names (one path segment, made safe),
 * so each iteration value's file can go to its own folder; without the variable, one group.
 */
export function bySubfolder(files: RunFile[], variable: string | null): Map<string, RunFile[]> {
  const groups = new Map<string, RunFile[]>();
  for (const f of files) {
    const value = variable ? f.variables?.[variable]?.trim() : '';
    const sub = value ? safeFileName(value, '') : '';
    groups.set(sub, [...(groups.get(sub) ?? []), f]);
  }
  return groups;
}

/** Puts each group of files in its subfolder of one destination (a folder, a cloud drive, WebDAV, SFTP or FTP). */
export async function putGroups(
  ctx: OpContext,
  x: StorageServiceRow,
  rel: string,
  groups: Map<string, RunFile[]>,
  log: (line: string) => void,
): Promise<void> {
  await storageKindOf(x.type).put(ctx, x, rel, groups, log);
}

/**
 * A destination's failure in words. A folder whose root is not there is said so (a disk or a share
 * not mounted: it may come back), not as the "no such file" of the subfolder being made.
 */
export async function describe(x: StorageServiceRow, err: unknown): Promise<DeliveryProblem> {
  const own = await storageKindOf(x.type).problem?.(x, err);
  if (own) return own;
  return deliveryProblem(x.type, err);
}

/**
 * Puts a task report's files where it says: each storage service entry's path, under that
 * service's root (a folder here, or an FTP base directory), names made safe. Answers the problems
 * (the run ends `warning` with them); one destination failing does not stop the others. A
 * destination still failing for a passing cause after the run's own tries is handed to `later`
 * (the delivery queue tries it again after the run) where one is given.
 */
export async function deliverToStorage(
  ctx: OpContext,
  tr: TaskReportRow,
  files: RunFile[],
  log: (line: string) => void,
  signal: AbortSignal = new AbortController().signal,
  later?: (delivery: LaterDelivery) => string,
): Promise<string[]> {
  const entries = [...tr.options.storageServices].sort((a, b) => a.order - b.order);
  if (!entries.length || !files.length) return [];
  const services = await ctx.db
    .getRepository(StorageService)
    .findBy({ id: In(entries.map((e) => e.fileStorageServiceId)) });
  const problems: string[] = [];
  for (const e of entries) {
    const x = services.find((s) => s.id === e.fileStorageServiceId);
    const rel = confinedRelative(e.path);
    if (!x) {
      problems.push('a storage service of the task no longer exists');
      continue;
    }
    if (rel === null) {
      problems.push(`the path "${e.path}" would leave the root of “${x.name}”`);
      continue;
    }
    // The subfolder per iteration value: set A's variable of the kind (FTP's, OneDrive's, Dropbox's…), else the folder's.
    const own = storageKindOf(x.type).variable(tr.options, x);
    const variable = (own || tr.options.folderVariable)?.trim() || null;
    const groups = bySubfolder(files, variable);
    const put = () => putGroups(ctx, x, rel, groups, log);
    const retry = ctx.deliveryRetry;
    for (let attempt = 1; ; attempt++) {
      try {
        await put();
        log(
          `${files.length} file${files.length === 1 ? '' : 's'} put in “${x.name}”${rel ? ` under ${rel}` : ''}${variable ? ` in ${groups.size} folder${groups.size === 1 ? '' : 's'} named by ${variable}` : ''}${attempt > 1 ? ` (try ${attempt})` : ''}`,
        );
        break;
      } catch (err) {
        const problem = await describe(x, err);
        if (problem.transient && attempt < retry.tries) {
          const wait = retryDelay(attempt, retry);
          log(
            `Files not put in “${x.name}”: ${problem.words}; trying again in ${Math.ceil(wait / 1000)} s (try ${attempt} of ${retry.tries})`,
          );
          await abortableDelay(wait, signal);
          continue;
        }
        const tried = problem.transient ? ` (tried ${attempt} time${attempt === 1 ? '' : 's'})` : '';
        const after =
          problem.transient && later
            ? `; ${later({
                storageServiceId: x.id,
                destination: x.name,
                path: rel,
                variable,
                files: files.map((f) => ({ name: f.name, ...(f.variables ? { variables: f.variables } : {}) })),
                lastError: problem.words,
              })}`
            : '';
        log(`Files not put in “${x.name}”: ${problem.words}${tried}${after}`);
        problems.push(`“${x.name}”: ${problem.words}${tried}${after}`);
        break;
      }
    }
  }
  return problems;
}

/** Folders and FTP as a delivery: the zip alone when the task report asks for one, else every file. */
export const toFolders: Deliver = async (d) => {
  if (!d.from || !d.from.taskReport.options.storageServices.length) return [];
  // Files that leave for another machine cannot be taken back: only an attempt still holding its run sends them.
  await d.stillHeld();
  const files = d.zip ? [d.zip] : d.files;
  return deliverToStorage(
    d.ctx,
    d.from.taskReport,
    await Promise.all(
      files.map(async (f) => ({
        name: f.name,
        localPath: await d.ctx.files.localPath(requestFileKey(d.requestId, f.name)),
        variables: f.variables,
      })),
    ),
    d.log,
    d.signal,
    d.later,
  );
};
