// A cloud drive's account, whichever the provider: connecting it through the person's browser
// (OAuth 2.0 authorization code with PKCE, RFC 7636), its tokens sealed on the storage service,
// renewed before they expire and once on a 401, and said in words when the provider revoked them.
// Each provider (microsoft.ts, google.ts, dropbox.ts) says where its endpoints are and what it asks
// for; the flow is this one.
import { createHash, randomBytes } from 'node:crypto';
import type { EngineServices, OpContext } from '../../../ops/context.js';
import { badInput } from '../../../core/errors.js';
import { retryAfterMs, withRetries, type RetryHint, type RetryOptions } from '../../../core/jobs/retry-after.js';
import { StorageService, type StorageServiceRow } from '../../../model/storage.entity.js';
import { readSetting } from '../../settings/settings.rules.js';
import { issueTicket } from '../../tickets/one-time-tickets.js';

export type CloudServices = Pick<EngineServices, 'db' | 'secrets' | 'now' | 'cloud' | 'write' | 'log'>;

/** The access token is renewed this long before it expires, so no call is made with a dying one. */
const RENEW_BEFORE_MS = 2 * 60_000;
export const CALLBACK_PATH = '/api/app/storage/oauth/callback';

export interface Tokens {
  accessToken: string;
  refreshToken: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

/** A refusal from a provider: its status and what it said, with the wait it asked for. */
export class CloudError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly retryAfter: number | null = null,
    /** Google says "slow down" with a 403 whose reason is a rate limit: worth another try like a 429. */
    readonly busy = false,
    /** The body as the provider sent it (Dropbox names the offset an upload session expects in it). */
    readonly detail: unknown = null,
  ) {
    super(message);
  }
}

export const hintOf = (e: unknown): RetryHint =>
  e instanceof CloudError
    ? { status: e.busy ? 429 : e.status, retryAfterMs: e.retryAfter }
    : { status: null, retryAfterMs: null };

/** What a provider said when it refused: OAuth's `error_description`, Graph's and Google's `error.message`, Dropbox's `error_summary`. */
export async function refusal(res: Response): Promise<CloudError> {
  const text = await res.text().catch(() => '');
  let body: {
    error?: string | { code?: string | number; message?: string; errors?: { reason?: string }[] };
    error_description?: string;
    error_summary?: string;
  } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // Dropbox answers a malformed call in plain text.
  }
  const said =
    body.error_summary ??
    (typeof body.error === 'string'
      ? `${body.error}${body.error_description ? `: ${body.error_description.split('\n')[0]}` : ''}`
      : (body.error?.message ?? (body.error?.code ? String(body.error.code) : null) ?? (text || res.statusText)));
  const reason = typeof body.error === 'object' ? body.error?.errors?.[0]?.reason : undefined;
  return new CloudError(
    res.status,
    `${res.status} ${said}`.replace(/[\r\n]+/g, ' ').slice(0, 300),
    retryAfterMs(res.headers.get('retry-after')),
    res.status === 403 && /ratelimitexceeded/i.test(reason ?? ''),
    body,
  );
}

/** An app registration as a provider's flow uses it: the secret opened. */
export interface CloudApp {
  clientId: string;
  clientSecret: string | null;
  tenant?: string;
}

/** What differs between providers in connecting an account. */
export interface OAuthProvider {
  /** The provider's name, in messages: "Microsoft". */
  name: string;
  /** The setting its app registration is kept in. */
  setting: 'microsoftApp' | 'googleApp' | 'dropboxApp';
  authorizeUrl(s: CloudServices, app: CloudApp): string;
  /** What the sign-in page is asked besides the code flow's own parameters: scopes, offline access. */
  authorizeParams: Record<string, string>;
  tokenUrl(s: CloudServices, app: CloudApp): string;
  /** Sent with every token request besides the grant (Microsoft wants the scopes again). */
  tokenParams: Record<string, string>;
  /** The connected account's name as the person knows it (an e-mail address), read with a fresh token. */
  account(s: CloudServices, accessToken: string): Promise<string>;
}

/** The administrator's app registration at the provider, or a refusal saying where to enter it. */
export async function cloudApp(s: CloudServices, p: OAuthProvider): Promise<CloudApp> {
  const app = await readSetting(s as EngineServices, p.setting);
  if (!app?.clientId)
    throw badInput(`No ${p.name} app registration is set up: an administrator enters it under Settings first`, [
      { field: 'type', message: `needs the ${p.name} app registration (Settings › Cloud drives)` },
    ]);
  return { ...app, clientSecret: app.clientSecret ? s.secrets.open(app.clientSecret) : null };
}

/** What the one-time ticket keeps between sending the person to the provider and their return. */
export interface ConnectTicket {
  serviceId: string;
  verifier: string;
  redirectUri: string;
}

/**
 * Starts connecting a storage service to an account: a PKCE verifier and the service kept in a
 * one-time ticket whose key is the `state`, and the address of the provider's sign-in page to send
 * the person's browser to, which comes back to `redirectUri`.
 */
export async function authorizationUrl(
  ctx: OpContext,
  row: StorageServiceRow,
  p: OAuthProvider,
  redirectUri: string,
): Promise<string> {
  const app = await cloudApp(ctx, p);
  const verifier = randomBytes(32).toString('base64url');
  const ticket: ConnectTicket = { serviceId: row.id, verifier, redirectUri };
  const state = await issueTicket(ctx, 'cloud', ticket);
  const url = new URL(p.authorizeUrl(ctx, app));
  url.search = new URLSearchParams({
    client_id: app.clientId,
    response_type: 'code',
    redirect_uri: redirectUri,
    state,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    ...p.authorizeParams,
  }).toString();
  return url.href;
}

async function tokenRequest(s: CloudServices, p: OAuthProvider, grant: Record<string, string>): Promise<Tokens> {
  const app = await cloudApp(s, p);
  const res = await fetch(p.tokenUrl(s, app), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: app.clientId,
      ...(app.clientSecret ? { client_secret: app.clientSecret } : {}),
      ...p.tokenParams,
      ...grant,
    }),
  });
  if (!res.ok) throw await refusal(res);
  const t = (await res.json()) as { access_token: string; refresh_token?: string; expires_in: number };
  return {
    accessToken: t.access_token,
    // Google and Dropbox keep the refresh token they gave; Microsoft rotates it on each use.
    refreshToken: t.refresh_token ?? grant.refresh_token ?? '',
    expiresAt: s.now().getTime() + t.expires_in * 1000,
  };
}

const saveTokens = (s: CloudServices, id: string, tokens: Tokens | null, account?: string) =>
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

/** Finishes a connection: the code exchanged with its verifier, the account's name read, the tokens sealed on the service. */
export async function redeemCode(
  s: CloudServices,
  p: OAuthProvider,
  ticket: ConnectTicket,
  code: string,
): Promise<void> {
  const tokens = await tokenRequest(s, p, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: ticket.redirectUri,
    code_verifier: ticket.verifier,
  });
  await saveTokens(s, ticket.serviceId, tokens, (await p.account(s, tokens.accessToken)) || 'connected');
}

/** One call to a provider's API as the connected account: `what` names it in the run's log. */
export type CloudCall = (
  what: string,
  method: string,
  url: string,
  init?: { body?: BodyInit; headers?: Record<string, string> },
) => Promise<Response>;

/**
 * The calls of one storage service, signed in as its connected account: the access token renewed
 * before it expires and once on a 401, a revoked connection cleared and said with "reconnect", and
 * 429/503 waited out as Retry-After says.
 */
export function signedIn(s: CloudServices, row: StorageServiceRow, p: OAuthProvider, retry: RetryOptions): CloudCall {
  if (!row.oauth)
    throw new Error(`“${row.name}” is not connected to an account: connect it on the Storage services screen`);
  let tokens = JSON.parse(s.secrets.open(row.oauth)) as Tokens;
  const account = row.account ?? 'the account';

  const renew = async () => {
    try {
      tokens = await tokenRequest(s, p, { grant_type: 'refresh_token', refresh_token: tokens.refreshToken });
    } catch (e) {
      if (e instanceof CloudError && e.status >= 400 && e.status < 500) {
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

  return (what, method, url, init = {}) =>
    withRetries(
      what,
      async () => {
        if (tokens.expiresAt - RENEW_BEFORE_MS <= s.now().getTime()) await renew();
        const send = () =>
          fetch(url, {
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
}

/** A cloud drive as deliveries and the connection test use it. */
export interface CloudDrive {
  /** Puts a local file at `path` under the service's base folder, replacing (or versioning) what is there. */
  put(localPath: string, path: string): Promise<void>;
  remove(path: string): Promise<void>;
  /** Where files go, in words: "OneDrive of olga@contoso.com". */
  where: string;
}
