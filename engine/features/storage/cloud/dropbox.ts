// Dropbox through its v2 API over plain HTTPS: a small file in one upload, a large one through an
// upload session (start, append in 4 MiB chunks, finish with the commit). After a dropped connection
// the chunk is sent again with the same offset; if Dropbox had it already it answers
// `incorrect_offset` with the offset it expects, and the upload goes on from there. Files are
// overwritten; Dropbox keeps the earlier versions in the file's history.
import { stat } from 'node:fs/promises';
import { posix } from 'node:path';
import type { RetryOptions } from '../../../core/jobs/retry-after.js';
import type { StorageServiceRow } from '../../../model/storage.entity.js';
import {
  CloudError,
  refusal,
  signedIn,
  type CloudDrive,
  type CloudServices,
  type OAuthProvider,
} from './cloud-account.js';
import { readRange } from './file-range.js';

/** Dropbox takes a file up to 150 MB in one call; beyond 8 MiB a session resumes better after a drop. */
export const DROPBOX_SIMPLE_LIMIT = 8 * 1024 * 1024;
/** Appended per call: 4 MiB, the multiple Dropbox asks of every chunk but the last. */
const CHUNK = 4 * 1024 * 1024;

export const dropbox: OAuthProvider = {
  name: 'Dropbox',
  setting: 'dropboxApp',
  authorizeUrl: (s) => `${s.cloud.dropboxWeb}/oauth2/authorize`,
  // offline: a refresh token besides the short-lived access token.
  authorizeParams: { token_access_type: 'offline' },
  tokenUrl: (s) => `${s.cloud.dropboxApi}/oauth2/token`,
  tokenParams: {},
  async account(s, accessToken) {
    // An RPC call without arguments: no body and no content type, as Dropbox asks.
    const res = await fetch(`${s.cloud.dropboxApi}/2/users/get_current_account`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}` },
    });
    if (!res.ok) throw await refusal(res);
    const who = (await res.json()) as { email?: string; name?: { display_name?: string } };
    return who.email || who.name?.display_name || '';
  },
};

/** The Dropbox-API-Arg header: JSON, with every character beyond ASCII escaped (an HTTP header is not UTF-8). */
export const apiArg = (v: unknown) =>
  JSON.stringify(v).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** The offset an upload session expects, when Dropbox refused a chunk for its offset. */
function correctOffset(e: unknown): number | null {
  const detail =
    e instanceof CloudError ? (e.detail as { error?: { '.tag'?: string; correct_offset?: number } }) : null;
  const err = detail?.error;
  return err?.['.tag'] === 'incorrect_offset' && typeof err.correct_offset === 'number' ? err.correct_offset : null;
}

export async function dropboxDrive(
  s: CloudServices,
  row: StorageServiceRow,
  retry: RetryOptions = {},
): Promise<CloudDrive> {
  const call = signedIn(s, row, dropbox, retry);
  const full = (path: string) => posix.join('/', row.rootPath ?? '/', path);
  const content = (what: string, endpoint: string, arg: unknown, body: Uint8Array<ArrayBuffer>) =>
    call(what, 'POST', `${s.cloud.dropboxContent}/2/files/${endpoint}`, {
      body,
      headers: { 'dropbox-api-arg': apiArg(arg), 'content-type': 'application/octet-stream' },
    });

  return {
    where: `Dropbox of ${row.account ?? 'the account'}`,
    async put(localPath, path) {
      const { size } = await stat(localPath);
      const name = posix.basename(path);
      const commit = { path: full(path), mode: 'overwrite', autorename: false, mute: true };
      if (size <= DROPBOX_SIMPLE_LIMIT) {
        await content(`Uploading ${name}`, 'upload', commit, await readRange(localPath, 0, size));
        return;
      }
      const started = await content(
        `Starting the upload of ${name}`,
        'upload_session/start',
        { close: false },
        new Uint8Array(0),
      );
      const { session_id } = (await started.json()) as { session_id: string };
      let at = 0;
      let resumes = 0;
      while (at < size) {
        const chunk = await readRange(localPath, at, Math.min(CHUNK, size - at));
        const cursor = { session_id, offset: at };
        try {
          if (at + chunk.length >= size) {
            await content(`Finishing the upload of ${name}`, 'upload_session/finish', { cursor, commit }, chunk);
            return;
          }
          await content(`Uploading ${name}`, 'upload_session/append_v2', { cursor, close: false }, chunk);
          at += chunk.length;
        } catch (e) {
          const expected = correctOffset(e);
          if (expected === null || ++resumes > 5) throw e;
          retry.log?.(`Uploading ${name}: Dropbox already had the bytes up to ${expected}; going on from there`);
          at = expected;
        }
      }
    },
    async remove(path) {
      await call(`Removing ${posix.basename(path)}`, 'POST', `${s.cloud.dropboxApi}/2/files/delete_v2`, {
        body: JSON.stringify({ path: full(path) }),
        headers: { 'content-type': 'application/json' },
      });
    },
  };
}
