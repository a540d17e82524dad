// OneDrive and SharePoint through Microsoft Graph, over plain HTTPS (fetch): the identity platform's
// authorization code flow with PKCE (cloud-account.ts) and Graph's uploads: a small file in one PUT,
// a large one through an upload session in 320 KiB-aligned chunks, resumed from the range the
// service says it still expects after a dropped connection.
import { stat } from 'node:fs/promises';
import { posix } from 'node:path';
import type { RetryOptions } from '../../../core/jobs/retry-after.js';
import { withRetries } from '../../../core/jobs/retry-after.js';
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

/** What may be done with the account: files anywhere the person may write, on OneDrive and SharePoint. */
const SCOPES = 'offline_access User.Read Files.ReadWrite.All Sites.ReadWrite.All';
/** Graph takes a file up to 4 MiB in one PUT; larger ones go through an upload session. */
export const SIMPLE_UPLOAD_LIMIT = 4 * 1024 * 1024;
/** Upload session chunks must be multiples of 320 KiB; 10 of them per request. */
const CHUNK = 10 * 320 * 1024;

const tenantOf = (app: { tenant?: string }) => encodeURIComponent(app.tenant || 'common');

export const microsoft: OAuthProvider = {
  name: 'Microsoft',
  setting: 'microsoftApp',
  authorizeUrl: (s, app) => `${s.cloud.microsoftLogin}/${tenantOf(app)}/oauth2/v2.0/authorize`,
  authorizeParams: { response_mode: 'query', scope: SCOPES, prompt: 'select_account' },
  tokenUrl: (s, app) => `${s.cloud.microsoftLogin}/${tenantOf(app)}/oauth2/v2.0/token`,
  tokenParams: { scope: SCOPES },
  async account(s, accessToken) {
    const me = await fetch(`${s.cloud.graph}/me`, { headers: { authorization: `Bearer ${accessToken}` } });
    if (!me.ok) throw await refusal(me);
    const who = (await me.json()) as { mail?: string | null; userPrincipalName?: string; displayName?: string };
    return who.mail || who.userPrincipalName || who.displayName || '';
  },
};

export async function graphDrive(
  s: CloudServices,
  row: StorageServiceRow,
  retry: RetryOptions = {},
): Promise<CloudDrive> {
  const signed = signedIn(s, row, microsoft, retry);
  const call: CloudCall = (what, method, path, init) =>
    signed(what, method, path.startsWith('http') ? path : `${s.cloud.graph}${path}`, init);
  const drive = await resolveDrive(row, call);
  const base = posix.join('/', row.rootPath ?? '/');
  const itemPath = (path: string) =>
    posix.join(base, path).split('/').filter(Boolean).map(encodeURIComponent).join('/');

  return {
    where:
      row.type === 'SharePoint'
        ? `${row.library || 'the default library'} of ${row.siteUrl}`
        : `OneDrive of ${row.account ?? 'the account'}`,
    async put(localPath, path) {
      const { size } = await stat(localPath);
      const target = `${drive}/root:/${itemPath(path)}:`;
      const name = posix.basename(path);
      if (size <= SIMPLE_UPLOAD_LIMIT) {
        const bytes = await readRange(localPath, 0, size);
        await call(`Uploading ${name}`, 'PUT', `${target}/content`, {
          body: bytes,
          headers: { 'content-type': 'application/octet-stream' },
        });
        return;
      }
      await uploadInSession(s, call, target, localPath, size, name, retry);
    },
    async remove(path) {
      await call(`Removing ${posix.basename(path)}`, 'DELETE', `${drive}/root:/${itemPath(path)}`);
    },
  };
}

/** The drive's path in Graph: the account's OneDrive, or a SharePoint site's library found from its address. */
async function resolveDrive(row: StorageServiceRow, call: CloudCall): Promise<string> {
  if (row.type !== 'SharePoint') return '/me/drive';
  const site = new URL(row.siteUrl ?? '');
  const found = (await (await call('Finding the site', 'GET', `/sites/${site.hostname}:${site.pathname}`)).json()) as {
    id: string;
  };
  if (!row.library) return `/sites/${found.id}/drive`;
  const drives = (await (await call('Listing the libraries', 'GET', `/sites/${found.id}/drives`)).json()) as {
    value: { id: string; name: string }[];
  };
  const library = drives.value.find((d) => d.name.toLowerCase() === row.library!.toLowerCase());
  if (!library)
    throw new Error(
      `the site has no document library “${row.library}” (it has ${drives.value.map((d) => d.name).join(', ') || 'none'})`,
    );
  return `/drives/${library.id}`;
}

/** The first byte the session still expects ("26214400-" → 26214400), or null when it expects none. */
const nextExpected = (ranges: string[] | undefined) => (ranges?.length ? Number(ranges[0].split('-')[0]) : null);

/**
 * A large file through an upload session: chunks sent in order with their Content-Range; after a
 * dropped connection or a refused chunk the session is asked which bytes it still expects and the
 * upload goes on from there (not from the start). The upload URL carries its own authorization.
 */
async function uploadInSession(
  s: CloudServices,
  call: CloudCall,
  target: string,
  localPath: string,
  size: number,
  name: string,
  retry: RetryOptions,
): Promise<void> {
  const session = (await (
    await call(`Starting the upload of ${name}`, 'POST', `${target}/createUploadSession`, {
      body: JSON.stringify({ item: { '@microsoft.graph.conflictBehavior': 'replace' } }),
      headers: { 'content-type': 'application/json' },
    })
  ).json()) as { uploadUrl: string };
  let at = 0;
  let resumes = 0;
  while (at < size) {
    const chunk = await readRange(localPath, at, Math.min(CHUNK, size - at));
    try {
      const res = await fetch(session.uploadUrl, {
        method: 'PUT',
        headers: { 'content-range': `bytes ${at}-${at + chunk.length - 1}/${size}` },
        body: chunk,
      });
      if (res.status === 200 || res.status === 201) return;
      if (res.status !== 202) throw await refusal(res);
      const next = nextExpected(((await res.json()) as { nextExpectedRanges?: string[] }).nextExpectedRanges);
      at = next ?? at + chunk.length;
    } catch (e) {
      if (e instanceof CloudError && ![429, 500, 502, 503, 504].includes(e.status)) throw e;
      if (++resumes > 5) throw e;
      // Where the session stands: the bytes it has are kept, the upload goes on from the first it lacks.
      const status = await withRetries(
        `Resuming ${name}`,
        async () => {
          const r = await fetch(session.uploadUrl);
          if (!r.ok) throw await refusal(r);
          return (await r.json()) as { nextExpectedRanges?: string[] };
        },
        hintOf,
        retry,
      );
      const resumeAt = nextExpected(status.nextExpectedRanges);
      retry.log?.(`Uploading ${name}: the connection dropped at byte ${at}; going on from byte ${resumeAt ?? size}`);
      if (resumeAt === null) return;
      at = resumeAt;
    }
  }
  s.log.warn('An upload session ended without the service saying the file was complete', { name });
}
