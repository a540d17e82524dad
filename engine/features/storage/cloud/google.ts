// Google Drive through the Drive v3 API over plain HTTPS: the folders of a path found (or made) by
// name under the account's My Drive, and every file sent through a resumable upload session in
// 256 KiB-aligned chunks, resumed after a dropped connection from the bytes the session says it has
// (and started again if the session expired). A file already there gets a new revision: Drive keeps
// the versions, as it does for any file a person replaces.
import { stat } from 'node:fs/promises';
import { posix } from 'node:path';
import { withRetries, type RetryOptions } from '../../../core/jobs/retry-after.js';
import type { StorageServiceRow } from '../../../model/storage.entity.js';
import {
  CloudError,
  hintOf,
  refusal,
  signedIn,
  type CloudCall,
  type CloudDrive,
  type CloudServices,
  type OAuthProvider,
} from './cloud-account.js';
import { readRange } from './file-range.js';

/** Files anywhere the person may write (drive.file would hide the folders they made themselves). */
const SCOPE = 'https://www.googleapis.com/auth/drive';
const FOLDER = 'application/vnd.google-apps.folder';
/** Chunks of a resumable upload must be multiples of 256 KiB; 16 of them per request. */
const CHUNK = 16 * 256 * 1024;
/** Shared drives as well as My Drive. */
const ALL_DRIVES = { supportsAllDrives: 'true' };

export const google: OAuthProvider = {
  name: 'Google',
  setting: 'googleApp',
  authorizeUrl: (s) => `${s.cloud.googleAccounts}/o/oauth2/v2/auth`,
  // offline: a refresh token; consent: given again on a reconnect, so a new refresh token comes with it.
  authorizeParams: { scope: SCOPE, access_type: 'offline', prompt: 'consent', include_granted_scopes: 'true' },
  tokenUrl: (s) => `${s.cloud.googleOAuth}/token`,
  tokenParams: {},
  async account(s, accessToken) {
    const res = await fetch(`${s.cloud.googleApis}/drive/v3/about?fields=user`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    if (!res.ok) throw await refusal(res);
    const { user } = (await res.json()) as { user?: { emailAddress?: string; displayName?: string } };
    return user?.emailAddress || user?.displayName || '';
  },
};

/** A value in a Drive query: quoted, its quotes and backslashes escaped. */
const quoted = (v: string) => `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

export async function googleDrive(
  s: CloudServices,
  row: StorageServiceRow,
  retry: RetryOptions = {},
): Promise<CloudDrive> {
  const call = signedIn(s, row, google, retry);
  const api = `${s.cloud.googleApis}/drive/v3`;
  const folders = new Map<string, string>();

  /** The id of the file (or folder) named `name` in `parent`, or null. */
  const find = async (parent: string, name: string, folder: boolean): Promise<string | null> => {
    const q = `${quoted(parent)} in parents and name = ${quoted(name)} and trashed = false and mimeType ${folder ? '=' : '!='} '${FOLDER}'`;
    const query = new URLSearchParams({
      q,
      fields: 'files(id)',
      pageSize: '1',
      includeItemsFromAllDrives: 'true',
      ...ALL_DRIVES,
    });
    const res = await call(`Finding ${name}`, 'GET', `${api}/files?${query}`);
    return ((await res.json()) as { files: { id: string }[] }).files[0]?.id ?? null;
  };

  /** The folder at `segments` under My Drive, made when `make` and missing; null when missing. */
  const folderAt = async (segments: string[], make: boolean): Promise<string | null> => {
    let id = 'root';
    let path = '';
    for (const name of segments) {
      path += `/${name}`;
      let next = folders.get(path) ?? (await find(id, name, true));
      if (!next) {
        if (!make) return null;
        const made = await call(
          `Making the folder ${name}`,
          'POST',
          `${api}/files?${new URLSearchParams({ fields: 'id', ...ALL_DRIVES })}`,
          {
            body: JSON.stringify({ name, mimeType: FOLDER, parents: [id] }),
            headers: { 'content-type': 'application/json; charset=UTF-8' },
          },
        );
        next = ((await made.json()) as { id: string }).id;
      }
      folders.set(path, next);
      id = next;
    }
    return id;
  };

  const split = (path: string) => {
    const parts = posix
      .join('/', row.rootPath ?? '/', path)
      .split('/')
      .filter(Boolean);
    return { name: parts.pop() ?? '', folders: parts };
  };

  return {
    where: `Google Drive of ${row.account ?? 'the account'}`,
    async put(localPath, path) {
      const to = split(path);
      const parent = (await folderAt(to.folders, true))!;
      const existing = await find(parent, to.name, false);
      await resumableUpload(s, call, { parent, existing, name: to.name, localPath }, retry);
    },
    async remove(path) {
      const at = split(path);
      const parent = await folderAt(at.folders, false);
      const id = parent && (await find(parent, at.name, false));
      if (!id) throw new CloudError(404, `404 ${at.name} is not there`);
      await call(
        `Removing ${at.name}`,
        'DELETE',
        `${api}/files/${encodeURIComponent(id)}?${new URLSearchParams(ALL_DRIVES)}`,
      );
    },
  };
}

/** The bytes a session has, from its `Range: bytes=0-N` (none when absent). */
const received = (range: string | null) => (range ? Number(/bytes=0-(\d+)/.exec(range)?.[1] ?? -1) + 1 : 0);

/**
 * One file through a resumable upload session: started with the file's metadata (a new file in
 * `parent`, or a new revision of `existing`), then chunks sent in order with their Content-Range.
 * After a dropped connection or a 5xx the session is asked where it stands (`bytes *\/size`) and the
 * upload goes on from there; a session that expired (404) is started again once.
 */
async function resumableUpload(
  s: CloudServices,
  call: CloudCall,
  f: { parent: string; existing: string | null; name: string; localPath: string },
  retry: RetryOptions,
): Promise<void> {
  const { size } = await stat(f.localPath);
  const start = async () => {
    const upload = `${s.cloud.googleApis}/upload/drive/v3/files${f.existing ? `/${encodeURIComponent(f.existing)}` : ''}`;
    const res = await call(
      `Starting the upload of ${f.name}`,
      f.existing ? 'PATCH' : 'POST',
      `${upload}?${new URLSearchParams({ uploadType: 'resumable', ...ALL_DRIVES })}`,
      {
        body: JSON.stringify(f.existing ? {} : { name: f.name, parents: [f.parent] }),
        headers: {
          'content-type': 'application/json; charset=UTF-8',
          'x-upload-content-type': 'application/octet-stream',
          'x-upload-content-length': String(size),
        },
      },
    );
    const session = res.headers.get('location');
    if (!session) throw new Error('Google Drive did not open an upload session');
    return session;
  };
  let session = await start();
  let at = 0;
  let resumes = 0;
  let restarted = false;
  for (;;) {
    const chunk = await readRange(f.localPath, at, Math.min(CHUNK, size - at));
    try {
      const res = await fetch(session, {
        method: 'PUT',
        headers: { 'content-range': size === 0 ? 'bytes */0' : `bytes ${at}-${at + chunk.length - 1}/${size}` },
        body: chunk,
      });
      if (res.status === 200 || res.status === 201) return;
      if (res.status !== 308) throw await refusal(res);
      at = received(res.headers.get('range'));
    } catch (e) {
      if (e instanceof CloudError && e.status === 404 && !restarted) {
        restarted = true;
        retry.log?.(`Uploading ${f.name}: the upload session expired; starting it again`);
        session = await start();
        at = 0;
        continue;
      }
      if (e instanceof CloudError && !e.busy && ![429, 500, 502, 503, 504].includes(e.status)) throw e;
      if (++resumes > 5) throw e;
      const has = await withRetries(
        `Resuming ${f.name}`,
        async () => {
          const r = await fetch(session, { method: 'PUT', headers: { 'content-range': `bytes */${size}` } });
          if (r.status === 200 || r.status === 201) return null;
          if (r.status !== 308) throw await refusal(r);
          return received(r.headers.get('range'));
        },
        hintOf,
        retry,
      );
      retry.log?.(`Uploading ${f.name}: the connection dropped at byte ${at}; going on from byte ${has ?? size}`);
      if (has === null) return;
      at = has;
    }
  }
}
