// OneDrive and SharePoint through Microsoft Graph, over plain HTTPS (fetch): the identity platform's
// authorization code flow with PKCE to connect an account, its refresh token sealed on the storage
// service and used before the access token expires, and Graph's uploads: a small file in one PUT, a
// large one through an upload session in 320 KiB-aligned chunks, resumed from the range the service
// says it still expects after a dropped connection. 429 and 503 wait as Retry-After says.
import { createHash, randomBytes } from 'node:crypto';
import { open, stat } from 'node:fs/promises';
import { posix } from 'node:path';
import type { EngineServices, OpContext } from '../../../ops/context.js';
import { badInput } from '../../../core/errors.js';
import { retryAfterMs, withRetries, type RetryHint, type RetryOptions } from '../../../core/jobs/retry-after.js';
import { StorageService, type StorageServiceRow } from '../../../model/storage.entity.js';
import { readSetting } from '../../settings/settings.rules.js';
import { issueTicket, takeTicket } from '../../tickets/one-time-tickets.js';

type Services = Pick<EngineServices, 'db' | 'secrets' | 'now' | 'cloud' | 'write' | 'log'>;

/** What may be done with the account: files anywhere the person may write, on OneDrive and SharePoint. */
const SCOPES = 'offline_access User.Read Files.ReadWrite.All Sites.ReadWrite.All';
/** Graph takes a file up to 4 MiB in one PUT; larger ones go through an upload session. */
export const SIMPLE_UPLOAD_LIMIT = 4 * 1024 * 1024;
/** Upload session chunks must be multiples of 320 KiB; 10 of them per request. */
const CHUNK = 10 * 320 * 1024;
/** The access token is renewed this long before it expires, so no call is made with a dying one. */
const RENEW_BEFORE_MS = 2 * 60_000;
export const CALLBACK_PATH = '/api/app/storage/oauth/callback';

interface Tokens {
  accessToken: string;
  refreshToken: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

/** A refusal from Microsoft or Graph: its status and what it said, with the wait it asked for. */
export class GraphError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly retryAfter: number | null = null,
  ) {
    super(message);
  }
}

const hintOf = (e: unknown): RetryHint =>
  e instanceof GraphError ? { status: e.status, retryAfterMs: e.retryAfter } : { status: null, retryAfterMs: null };

async function refusal(res: Response): Promise<GraphError> {
  const body = (await res.json().catch(() => ({}))) as {
    error?: string | { code?: string; message?: string };
    error_description?: string;
  };
  const said =
    typeof body.error === 'string'
      ? `${body.error}${body.error_description ? `: ${body.error_description.split('\n')[0]}` : ''}`
      : (body.error?.message ?? body.error?.code ?? res.statusText);
  return new GraphError(
    res.status,
    `${res.status} ${said}`.slice(0, 300),
    retryAfterMs(res.headers.get('retry-after')),
  );
}

/** The administrator's app registration at Microsoft, or a refusal saying where to enter it. */
async function microsoftApp(s: Services) {
  const app = await readSetting(s as EngineServices, 'microsoftApp');
  if (!app?.clientId)
    throw badInput('No Microsoft app registration is set up: an administrator enters it under Settings first', [
      { field: 'type', message: 'needs the Microsoft app registration (Settings › Cloud drives)' },
    ]);
  return { ...app, clientSecret: app.clientSecret ? s.secrets.open(app.clientSecret) : null };
}

const base64url = (b: Buffer) => b.toString('base64url');

/**
 * Starts connecting a storage service to an account: a PKCE verifier and the service kept in a
 * one-time ticket whose key is the `state`, and the address of Microsoft's sign-in page to send the
 * person's browser to. The redirect comes back to this installation's own address.
 */
export async function microsoftAuthorizationUrl(ctx: OpContext, row: StorageServiceRow): Promise<string> {
  if (!ctx.address.http) throw new Error('The engine has no address to come back to yet');
  const app = await microsoftApp(ctx);
  const verifier = base64url(randomBytes(32));
  const redirectUri = `${ctx.address.http}${CALLBACK_PATH}`;
  const state = await issueTicket(ctx, 'cloud', { serviceId: row.id, verifier, redirectUri });
  const url = new URL(
    `${ctx.cloud.microsoftLogin}/${encodeURIComponent(app.tenant || 'common')}/oauth2/v2.0/authorize`,
  );
  url.search = new URLSearchParams({
    client_id: app.clientId,
    response_type: 'code',
    redirect_uri: redirectUri,
    response_mode: 'query',
    scope: SCOPES,
    state,
    code_challenge: base64url(createHash('sha256').update(verifier).digest()),
    code_challenge_method: 'S256',
    prompt: 'select_account',
  }).toString();
  return url.href;
}

async function tokenRequest(s: Services, grant: Record<string, string>): Promise<Tokens> {
  const app = await microsoftApp(s);
  const res = await fetch(`${s.cloud.microsoftLogin}/${encodeURIComponent(app.tenant || 'common')}/oauth2/v2.0/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: app.clientId,
      ...(app.clientSecret ? { client_secret: app.clientSecret } : {}),
      scope: SCOPES,
      ...grant,
    }),
  });
  if (!res.ok) throw await refusal(res);
  const t = (await res.json()) as { access_token: string; refresh_token?: string; expires_in: number };
  return {
    accessToken: t.access_token,
    refreshToken: t.refresh_token ?? grant.refresh_token ?? '',
    expiresAt: s.now().getTime() + t.expires_in * 1000,
  };
}

const saveTokens = (s: Services, id: string, tokens: Tokens | null, account?: string) =>
  s.write(() =>
    s.db.getRepository(StorageService).update(
      { id },
      {
        oauth: tokens ? s.secrets.seal(JSON.stringify(tokens)) : null,
        ...(account !== undefined ? { account } : {}),
        modifiedDate: s.now(),
      },
    ),
  );

/**
 * Finishes a connection from the browser's return: the ticket taken once, the code exchanged with
 * its verifier, the account's name read, and the tokens sealed on the service. Answers the service's id.
 */
export async function finishMicrosoftConnect(s: Services, code: string, state: string): Promise<string> {
  const ticket = await takeTicket<{ serviceId: string; verifier: string; redirectUri: string }>(
    s as EngineServices,
    'cloud',
    state,
  );
  if (!ticket) throw new GraphError(400, 'the sign-in took too long or was already used: connect again');
  const tokens = await tokenRequest(s, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: ticket.redirectUri,
    code_verifier: ticket.verifier,
  });
  const me = await fetch(`${s.cloud.graph}/me`, { headers: { authorization: `Bearer ${tokens.accessToken}` } });
  if (!me.ok) throw await refusal(me);
  const who = (await me.json()) as { mail?: string | null; userPrincipalName?: string; displayName?: string };
  await saveTokens(s, ticket.serviceId, tokens, who.mail || who.userPrincipalName || who.displayName || 'connected');
  return ticket.serviceId;
}

/** A Graph client for one storage service, signed in as its connected account. */
export interface GraphDrive {
  /** Puts a local file at `path` under the service's base folder, replacing what is there. */
  put(localPath: string, path: string): Promise<void>;
  remove(path: string): Promise<void>;
  /** Where files go, in words: "OneDrive of olga@contoso.com" or the site's library. */
  where: string;
}

export async function graphDrive(s: Services, row: StorageServiceRow, retry: RetryOptions = {}): Promise<GraphDrive> {
  if (!row.oauth)
    throw new Error(`“${row.name}” is not connected to an account: connect it on the Storage services screen`);
  let tokens = JSON.parse(s.secrets.open(row.oauth)) as Tokens;
  const account = row.account ?? 'the account';

  const renew = async () => {
    try {
      tokens = await tokenRequest(s, { grant_type: 'refresh_token', refresh_token: tokens.refreshToken });
    } catch (e) {
      if (e instanceof GraphError && e.status >= 400 && e.status < 500) {
        // Revoked, expired or the password changed: only the person can connect again.
        await saveTokens(s, row.id, null);
        throw new Error(
          `the connection to ${account} was revoked or has expired (${e.message}): reconnect “${row.name}” on the Storage services screen`,
        );
      }
      throw e;
    }
    await saveTokens(s, row.id, tokens);
  };

  /** One Graph call, renewed once on a 401 and tried again as Retry-After says. */
  const call = (
    what: string,
    method: string,
    path: string,
    init: { body?: BodyInit; headers?: Record<string, string> } = {},
  ) =>
    withRetries(
      what,
      async () => {
        if (tokens.expiresAt - RENEW_BEFORE_MS <= s.now().getTime()) await renew();
        const send = () =>
          fetch(path.startsWith('http') ? path : `${s.cloud.graph}${path}`, {
            method,
            headers: { authorization: `Bearer ${tokens.accessToken}`, ...init.headers },
            body: init.body,
          });
        let res = await send();
        if (res.status === 401) {
          await renew();
          res = await send();
        }
        if (!res.ok) throw await refusal(res);
        return res;
      },
      hintOf,
      retry,
    );

  const drive = await resolveDrive(row, call);
  const base = posix.join('/', row.rootPath ?? '/');
  const itemPath = (path: string) =>
    posix.join(base, path).split('/').filter(Boolean).map(encodeURIComponent).join('/');

  return {
    where:
      row.type === 'SharePoint'
        ? `${row.library || 'the default library'} of ${row.siteUrl}`
        : `OneDrive of ${account}`,
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

type Call = (
  what: string,
  method: string,
  path: string,
  init?: { body?: BodyInit; headers?: Record<string, string> },
) => Promise<Response>;

/** The drive's path in Graph: the account's OneDrive, or a SharePoint site's library found from its address. */
async function resolveDrive(row: StorageServiceRow, call: Call): Promise<string> {
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

async function readRange(path: string, start: number, length: number): Promise<Uint8Array<ArrayBuffer>> {
  const f = await open(path, 'r');
  try {
    const buf = new Uint8Array(length);
    const { bytesRead } = await f.read(buf, 0, length, start);
    return buf.subarray(0, bytesRead);
  } finally {
    await f.close();
  }
}

/** The first byte the session still expects ("26214400-" → 26214400), or null when it expects none. */
const nextExpected = (ranges: string[] | undefined) => (ranges?.length ? Number(ranges[0].split('-')[0]) : null);

/**
 * A large file through an upload session: chunks sent in order with their Content-Range; after a
 * dropped connection or a refused chunk the session is asked which bytes it still expects and the
 * upload goes on from there (not from the start). The upload URL carries its own authorization.
 */
async function uploadInSession(
  s: Services,
  call: Call,
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
      if (e instanceof GraphError && ![429, 500, 502, 503, 504].includes(e.status)) throw e;
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
