import type { FileStore } from '../../core/file-store.js';

// Where the hub keeps published files: the file store's `hub/<fileId>/<occurrenceId>.<extension>`.
// Ids are UUIDs made here and extensions come from the format table, so keys stay under the root.

const hubFiles = (fileId: string) => `hub/${fileId}`;
export const occurrenceKey = (fileId: string, occurrenceId: string, extension: string) =>
  `${hubFiles(fileId)}/${occurrenceId}.${extension}`;

/**
 * Puts a run's file in the hub: a link where the store can (the run's files and the hub share the
 * store, so publishing costs no copy and deleting the run keeps the hub's), a copy otherwise.
 */
export function placeOccurrence(
  files: FileStore,
  source: string,
  fileId: string,
  occurrenceId: string,
  extension: string,
) {
  return files.copy(source, occurrenceKey(fileId, occurrenceId, extension));
}

export const readOccurrence = (files: FileStore, fileId: string, occurrenceId: string, extension: string) =>
  files.read(occurrenceKey(fileId, occurrenceId, extension));

export const removeOccurrence = (files: FileStore, fileId: string, occurrenceId: string, extension: string) =>
  files.remove(occurrenceKey(fileId, occurrenceId, extension));

export async function removeHubFileDir(files: FileStore, fileId: string): Promise<void> {
  await files.removeAll(hubFiles(fileId));
}
