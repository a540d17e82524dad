import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { byteCap } from '../core/byte-cap.js';
import { EngineError } from '../core/errors.js';

/** A file an operation received as its request body, written to the data folder's `uploads/`. */
export interface UploadedFile {
  path: string;
  size: number;
}

/**
 * Where uploads wait while their operation runs, in the data folder; emptied at each start (a crash
 * can leave one). Servers sharing a folder each have a folder of their own in it (`uploadsDirOf`).
 */
export const UPLOADS_DIR = 'uploads';

export const uploadsDirOf = (dataDir: string, sharedBy?: string) =>
  sharedBy ? join(dataDir, UPLOADS_DIR, sharedBy) : join(dataDir, UPLOADS_DIR);

const tooLarge = (limit: number) =>
  new EngineError(413, `The file is larger than the ${Math.floor(limit / 1024 / 1024)} MiB this operation takes`, [
    { field: 'body', message: `is larger than ${Math.floor(limit / 1024 / 1024)} MiB` },
  ]);

/**
 * Writes an upload to a file of its own as it arrives (a stream from HTTP, bytes from IPC), never
 * holding it whole in memory, and refuses it past `limit` bytes. The caller removes the file.
 */
export async function receiveUpload(folder: string, source: Readable | Buffer, limit: number): Promise<UploadedFile> {
  const path = join(folder, `${randomUUID()}.upload`);
  if (Buffer.isBuffer(source)) {
    if (source.length > limit) throw tooLarge(limit);
    await writeFile(path, source, { mode: 0o600 });
    return { path, size: source.length };
  }
  const cap = byteCap(limit, () => tooLarge(limit));
  try {
    await pipeline(source, cap, createWriteStream(path, { mode: 0o600 }));
  } catch (e) {
    await rm(path, { force: true });
    // A body the HTTP door capped first (its own 413) is the same refusal.
    throw (e as { statusCode?: number }).statusCode === 413 ? tooLarge(limit) : e;
  }
  return { path, size: cap.received() };
}
