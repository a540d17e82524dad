import type { OpContext } from '../../../ops/context.js';
import type { StorageServiceRow } from '../../../model/storage.entity.js';
import type { TaskReportOptions } from '../../../model/tasks.entity.js';
import { confinedRelative } from '../storage-paths.js';

// One kind of destination (a folder, FTP, SFTP, WebDAV, a cloud drive) as saving, testing and
// delivering use it. A new kind is a file beside these and a line in the table (`index.ts`): the
// save's checks, the test button and the delivery ask the table, never the kind's name.

/** A field the save refuses, and why. */
export interface FieldProblem {
  field: string;
  message: string;
}

/** The fields of a save a kind reads (the storage service's input). */
export interface StorageFields {
  type: StorageServiceRow['type'];
  host?: string | null;
  port?: number | null;
  sftpPort?: number | null;
  rootPath?: string | null;
  ftpTestDirectoryPath?: string | null;
  siteUrl?: string | null;
}

/** Where a saved service points (its host, port and root), or what the save refuses. */
export interface Destination {
  host: string | null;
  port: number | null;
  rootPath: string | null;
  errors: FieldProblem[];
}

/** A file to put: its name there, and where it is here. */
export interface FileToPut {
  name: string;
  localPath: string;
}

export interface StorageKind {
  /** The save's checks of this kind's fields, and where the service points. */
  destination(ctx: Pick<OpContext, 'houseFolders'>, f: StorageFields): Promise<Destination>;
  /** Whether its host is on the network: a host this installation may not reach is refused at save. */
  readonly networkHost: boolean;
  /** "Test connection": the destination is there and may be written to, said in words (or refused, naming the field). */
  test(ctx: OpContext, x: StorageServiceRow): Promise<{ ok: boolean; message: string }>;
  /** Puts each group of files in its subfolder (under `rel`, under the service's root). */
  put(
    ctx: OpContext,
    x: StorageServiceRow,
    rel: string,
    groups: Map<string, FileToPut[]>,
    log: (line: string) => void,
  ): Promise<void>;
  /** Set A's task-report variable naming each iteration value's subfolder here (null: the folder variable alone). */
  variable(o: TaskReportOptions, x: StorageServiceRow): string | null;
  /** A failure said in this kind's own words (a folder's root not mounted), or null for the usual words. */
  problem?(x: StorageServiceRow, err: unknown): Promise<{ words: string; transient: boolean } | null>;
}

/** A server's or a drive's base folder as saved (its test directory). */
export const serverRoot = (f: StorageFields): string => f.ftpTestDirectoryPath?.trim() || '/';

/** Refuses a base folder that would climb out with "..". */
export function confinedRoot(rootPath: string, errors: FieldProblem[]) {
  if (confinedRelative(rootPath) === null)
    errors.push({ field: 'body.ftpTestDirectoryPath', message: 'must not contain ".."' });
}

/** An error's message on one line, short enough to show. */
export const oneLine = (e: unknown) => (e as Error).message.replace(/[\r\n]+/g, ' ').slice(0, 300);
