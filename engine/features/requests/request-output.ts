import { appendFile, mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { safeFileName } from '../../core/file-result.js';
import { zipFiles } from '../../core/zip.js';
import type { GeneratedFile } from '../reports/generate.js';

/** A file a run keeps: a generated one, or one the run makes of them (a zip). */
export type KeptFile = Pick<GeneratedFile, 'name' | 'data' | 'iteration' | 'variables'> & { format: string };

// Where a request keeps what it makes: its files under `files/requests/<id>/`, its log at
// `logs/requests/<id>.log`. Ids are UUIDs checked by the operations, so paths stay in their roots.

export const requestDir = (dataDir: string, id: string) => join(dataDir, 'files', 'requests', id);
export const requestLogPath = (dataDir: string, id: string) => join(dataDir, 'logs', 'requests', `${id}.log`);
const PART = '.part';

/**
 * Writes one file of a request: to a `.part` name first, then renamed, so a file with its final
 * name is always whole (a crash or a stop leaves only `.part` files, which are removed).
 */
export async function writeRequestFile(dataDir: string, id: string, name: string, data: Buffer): Promise<void> {
  const dir = requestDir(dataDir, id);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const final = join(dir, name);
  const part = final + PART;
  const handle = await open(part, 'w', 0o600);
  try {
    await handle.writeFile(data);
  } finally {
    await handle.close();
  }
  await rename(part, final);
}

export async function readRequestFile(dataDir: string, id: string, name: string): Promise<Buffer> {
  return readFile(join(requestDir(dataDir, id), safeFileName(name)));
}

/** Removes a request's files; answers how many there were. */
export async function removeRequestFiles(dataDir: string, id: string): Promise<number> {
  const names = await readdir(requestDir(dataDir, id)).catch(emptyIfMissing);
  await rm(requestDir(dataDir, id), { recursive: true, force: true });
  return names.length;
}

/** A folder not made yet holds nothing; any other failure to read it is a fault to report. */
function emptyIfMissing(e: NodeJS.ErrnoException): string[] {
  if (e.code === 'ENOENT') return [];
  throw e;
}

/** Removes what a crash left half-written (`.part` files); whole files stay. */
export async function removePartialFiles(dataDir: string, id: string): Promise<number> {
  const dir = requestDir(dataDir, id);
  const names = await readdir(dir).catch(emptyIfMissing);
  const parts = names.filter((n) => n.endsWith(PART));
  await Promise.all(parts.map((n) => rm(join(dir, n), { force: true })));
  return parts.length;
}

/** Bytes a request's folder holds (tests and the monitoring screen). */
export async function requestFilesSize(dataDir: string, id: string): Promise<number> {
  const dir = requestDir(dataDir, id);
  const names = await readdir(dir).catch(emptyIfMissing);
  let total = 0;
  for (const n of names) total += (await stat(join(dir, n))).size;
  return total;
}

/**
 * A request's log: one line per event, appended in order (a chain per request, so lines written
 * from concurrent files never interleave). Lines are the runner's own words: never inputs that
 * could carry secrets.
 */
export class RequestLog {
  private tail: Promise<void> = Promise.resolve();
  private ready: Promise<unknown>;

  /** `failed` hears of a line that could not be written (a full disk): the log goes on, the fault is reported. */
  constructor(
    private readonly path: string,
    private readonly now: () => Date,
    private readonly failed: (e: Error) => void = () => undefined,
  ) {
    this.ready = mkdir(join(path, '..'), { recursive: true, mode: 0o700 });
  }

  line(text: string): Promise<void> {
    const entry = `${this.now().toISOString()} ${text.replace(/[\r\n]+/g, ' ')}\n`;
    this.tail = this.tail
      .then(() => this.ready)
      .then(() => appendFile(this.path, entry, { mode: 0o600 }))
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
export function zipRequestFiles(dataDir: string, id: string, files: { name: string }[]): Promise<Buffer> {
  return zipFiles(files.map((f) => ({ name: f.name, read: () => readRequestFile(dataDir, id, f.name) })));
}
