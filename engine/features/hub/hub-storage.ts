import { copyFile, link, mkdir, readFile, rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';

// Where the hub keeps published files: `files/hub/<fileId>/<occurrenceId>.<extension>`. Ids are
// UUIDs made here and extensions come from the format table, so paths stay under the root.

export const hubFileDir = (dataDir: string, fileId: string) => join(dataDir, 'files', 'hub', fileId);
export const occurrencePath = (dataDir: string, fileId: string, occurrenceId: string, extension: string) =>
  join(hubFileDir(dataDir, fileId), `${occurrenceId}.${extension}`);

/**
 * Puts a run's file in the hub: a hard link where the file system allows (the run's folder and the
 * hub share the data folder, so publishing costs no copy and deleting the run keeps the hub's), a
 * copy otherwise. The file's folder is made only when missing: a file published again has it.
 */
export async function placeOccurrence(source: string, target: string): Promise<void> {
  const place = () => link(source, target).catch(() => copyFile(source, target));
  await place().catch(async (e: NodeJS.ErrnoException) => {
    if (e.code !== 'ENOENT') throw e;
    await mkdir(join(target, '..'), { recursive: true, mode: 0o700 });
    await place();
  });
}

export const readOccurrence = (dataDir: string, fileId: string, occurrenceId: string, extension: string) =>
  readFile(occurrencePath(dataDir, fileId, occurrenceId, extension));

export async function removeOccurrence(
  dataDir: string,
  fileId: string,
  occurrenceId: string,
  extension: string,
): Promise<void> {
  await unlink(occurrencePath(dataDir, fileId, occurrenceId, extension)).catch((e: NodeJS.ErrnoException) => {
    if (e.code !== 'ENOENT') throw e;
  });
}

export async function removeHubFileDir(dataDir: string, fileId: string): Promise<void> {
  await rm(hubFileDir(dataDir, fileId), { recursive: true, force: true });
}
