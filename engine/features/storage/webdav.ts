// WebDAV (Nextcloud, ownCloud, SharePoint's classic DAV, many NAS boxes) through the `webdav`
// client: the service's URL in `host`, its user and password, a base folder under the URL. Every
// request is retried on 429/503 and dropped connections as other deliveries are (retry-after.ts).
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { posix } from 'node:path';
import type { WebDAVClient } from 'webdav';
import type { OpContext } from '../../ops/context.js';
import type { StorageServiceRow } from '../../model/storage.entity.js';
import { retryAfterMs, withRetries, type RetryHint, type RetryOptions } from '../../core/jobs/retry-after.js';

/** A WebDAV error's status and Retry-After, as the client reports them. */
function hintOf(e: unknown): RetryHint {
  const r = (e as { response?: { status?: number; headers?: { get?(n: string): string | null } } }).response;
  const status = (e as { status?: number }).status ?? r?.status ?? null;
  return { status, retryAfterMs: retryAfterMs(r?.headers?.get?.('retry-after')) };
}

/** A failure in words: "401 Unauthorized" reads as a wrong user name or password. */
export function webdavProblem(e: unknown): string {
  const { status } = hintOf(e);
  if (status === 401) return 'the server refused the user name or password (401)';
  if (status === 403) return 'the user may not write there (403)';
  if (status === 404) return 'the address was not found on the server (404): check the URL';
  if (status === 405) return 'the server does not take WebDAV at this address (405): check the URL';
  if (status === 507) return 'the server has no room left (507)';
  // Another service's answer is not repeated: the address simply is no WebDAV server.
  if (status !== null) return 'no WebDAV server answered at this address: check the URL';
  const msg = (e as Error).message ?? String(e);
  return msg.replace(/[\r\n]+/g, ' ').slice(0, 300);
}

export interface WebDav {
  /** Makes a folder (and those above it) under the base folder. */
  ensureFolder(path: string): Promise<void>;
  /** Puts a local file at `path` (replacing one there), streamed. */
  put(localPath: string, path: string): Promise<void>;
  remove(path: string): Promise<void>;
  /** The base folder, absolute on the server. */
  base: string;
}

export async function webdavClient(
  ctx: Pick<OpContext, 'secrets'>,
  x: StorageServiceRow,
  retry: RetryOptions = {},
): Promise<WebDav> {
  const { createClient } = await import('webdav');
  const client: WebDAVClient = createClient(x.host ?? '', {
    username: x.username ?? undefined,
    password: x.password ? ctx.secrets.open(x.password) : undefined,
  });
  const base = posix.join('/', x.rootPath ?? '/');
  const again = <T>(what: string, fn: () => Promise<T>) => withRetries(what, fn, hintOf, retry);
  const ensureFolder = async (path: string) => {
    // MKCOL makes one level at a time: each missing level from the top, as the client's recursive mode does.
    const target = posix.join(base, path);
    if (target === '/') return;
    await again(`Making ${target}`, () => client.createDirectory(target, { recursive: true }));
  };
  await ensureFolder('');
  return {
    base,
    ensureFolder,
    async put(localPath, path) {
      const target = posix.join(base, path);
      const { size } = await stat(localPath);
      // A fresh stream per attempt: a retried upload starts the file again.
      await again(`Uploading ${posix.basename(target)}`, async () => {
        const done = await client.putFileContents(target, createReadStream(localPath), {
          overwrite: true,
          contentLength: size,
        });
        if (done === false) throw new Error(`the server did not take ${target}`);
      });
    },
    async remove(path) {
      await again(`Removing ${path}`, () => client.deleteFile(posix.join(base, path)));
    },
  };
}
