import { appendFile, mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { zipFiles } from '../../core/zip.js';
import type { FileStore } from '../../core/file-store.js';
import type { GeneratedFile } from '../reports/generate.js';

/** A file a run keeps: a generated one, or one the run makes of them (a zip). */
export type KeptFile = Pick<GeneratedFile, 'name' | 'data' | 'iteration' | 'variables'> & { format: string };

// Where a request keeps what it makes: its files under the file store's `requests/<id>/`, its log
// at `logs/requests/<id>.log` in the data folder. Ids are UUIDs checked by the operations, names are
// made safe when kept (`uniqueName`), and the store refuses any key that would leave its root.

export const requestLogPath = (dataDir: string, id: string) => join(dataDir, 'logs', 'requests', `${id}.log`);
const requestFiles = (id: string) => `requests/${id}`;
/** A request's file in the file store. */
export const requestFileKey = (id: string, name: string) => `${requestFiles(id)}/${name}`;

/** Writes one file of a request whole (a crash or a stop leaves only unfinished ones, which are removed). */
export function writeRequestFile(files: FileStore, id: string, name: string, data: Buffer): Promise<void> {
  return files.write(requestFileKey(id, name), data);
}

export function readRequestFile(files: FileStore, id: string, name: string): Promise<Buffer> {
  return files.read(requestFileKey(id, name));
}

/** Removes a request's files; answers how many there were. */
export function removeRequestFiles(files: FileStore, id: string): Promise<number> {
  return files.removeAll(requestFiles(id));
}

/** Removes what a crash left half-written; whole files stay. */
export function removePartialFiles(files: FileStore, id: string): Promise<number> {
  return files.removeUnfinished(requestFiles(id));
}

/**
 * A request's log: one line per event, appended in order (a chain per request, so lines written
 * from concurrent files never interleave). Lines are the runner's own words: never inputs that
 * could carry secrets.
 */
export class RequestLog {
  private tail: Promise<void> = Promise.resolve();
  private ready: Promise<unknown>;

  /**
   * `failed` hears of a line that could not be written (a full disk): the log goes on, the fault is
   * reported. `mayWrite`, when given, is asked before each line: an attempt that lost its run to
   * another server writes nothing more into that run's log.
   */
  constructor(
    private readonly path: string,
    private readonly now: () => Date,
    private readonly failed: (e: Error) => void = () => undefined,
    private readonly mayWrite: () => Promise<boolean> = async () => true,
  ) {
    this.ready = mkdir(join(path, '..'), { recursive: true, mode: 0o700 });
  }

  line(text: string): Promise<void> {
    const entry = `${this.now().toISOString()} ${text.replace(/[\r\n]+/g, ' ')}\n`;
    this.tail = this.tail
      .then(() => this.ready)
      .then(() => this.mayWrite())
      .then((may) => (may ? appendFile(this.path, entry, { mode: 0o600 }) : undefined))
      .catch((e: Error) => this.failed(e));
    return this.tail;
  }

  flush(): Promise<void> {
    return this.tail;
  }
}

export async function readRequestLog(dataDir: string, id: string): Promise<string | null> {
  return readFile(requestLogPath(dataDir, id), 'utf8').catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return null;
    throw e;
  });
}

export async function removeRequestLog(dataDir: string, id: string): Promise<void> {
  await rm(requestLogPath(dataDir, id), { force: true });
}

/** Some of a request's files, read back one at a time into a zip. */
export function zipRequestFiles(store: FileStore, id: string, files: { name: string }[]): Promise<Buffer> {
  return zipFiles(files.map((f) => ({ name: f.name, read: () => readRequestFile(store, id, f.name) })));
}
