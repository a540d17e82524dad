// The authorization server half of a cloud provider's fake (fake-microsoft.ts, fake-google.ts,
// fake-dropbox.ts): OAuth 2.0's authorization code flow with PKCE S256 (RFC 6749, RFC 7636) as each
// provider documents it — the sign-in page that sends the browser back with a code, the token
// endpoint taking the code with its verifier and a refresh token, and the bearer tokens it issued.
// Failures are asked for by the test: every access token expired, every refresh token revoked.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

export async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of req) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

/** What every provider's fake offers a test: its app registration, what it was asked, and failures to ask for. */
export interface FakeProvider {
  clientId: string;
  clientSecret: string;
  /** Every request, as `METHOD path` (query left out). */
  requests: string[];
  /** Every token grant made, by type. */
  grants: string[];
  /** Makes every access token issued so far expired (the next API call answers 401). */
  expireAccessTokens(): void;
  /** Revokes every refresh token (the next refresh answers 400 invalid_grant). */
  revokeRefreshTokens(): void;
  close(): Promise<void>;
}

export interface OAuthFakeOptions {
  clientId: string;
  clientSecret: string;
  /** Whether the token endpoint refuses a request without the client's secret (Google, Microsoft's confidential clients). */
  secretRequired: boolean;
  /** Whether a refresh answers a new refresh token (Microsoft rotates; Google and Dropbox keep theirs). */
  rotates: boolean;
  /** What the provider says about a refresh token it revoked. */
  revokedSays: string;
  /** What the sign-in page insists on besides PKCE: `[param, wanted]`, the value a substring. */
  requires: [string, string][];
}

export interface OAuthFake {
  /** Every token grant made, by type. */
  grants: string[];
  /** The sign-in page: the person consents at once, the browser goes back with a code (or an error). */
  authorize(url: URL, res: ServerResponse): void;
  token(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Whether a request carries a bearer token this server issued and has not expired. */
  bearerValid(req: IncomingMessage): boolean;
  expireAccessTokens(): void;
  revokeRefreshTokens(): void;
}

export function oauthFake(o: OAuthFakeOptions): OAuthFake {
  const codes = new Map<string, { challenge: string; redirectUri: string }>();
  const access = new Map<string, { valid: boolean }>();
  const refresh = new Set<string>();
  const grants: string[] = [];
  const issue = (withRefresh: boolean) => {
    const a = `at-${randomBytes(12).toString('hex')}`;
    access.set(a, { valid: true });
    const r = `rt-${randomBytes(12).toString('hex')}`;
    if (withRefresh) refresh.add(r);
    return { token_type: 'Bearer', access_token: a, expires_in: 3600, ...(withRefresh ? { refresh_token: r } : {}) };
  };
  return {
    grants,
    authorize(url, res) {
      const q = url.searchParams;
      if (q.get('client_id') !== o.clientId) return json(res, 400, { error: 'unauthorized_client' });
      if (q.get('response_type') !== 'code' || q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge'))
        return json(res, 400, { error: 'invalid_request', error_description: 'PKCE with S256 is required' });
      for (const [param, wanted] of o.requires)
        if (!q.get(param)?.includes(wanted))
          return json(res, 400, { error: 'invalid_request', error_description: `${param} must include ${wanted}` });
      const code = `code-${randomBytes(8).toString('hex')}`;
      codes.set(code, { challenge: q.get('code_challenge')!, redirectUri: q.get('redirect_uri')! });
      const back = new URL(q.get('redirect_uri')!);
      back.searchParams.set('code', code);
      back.searchParams.set('state', q.get('state') ?? '');
      res.writeHead(302, { location: back.href });
      res.end();
    },
    async token(req, res) {
      if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded'))
        return json(res, 400, { error: 'invalid_request' });
      const form = new URLSearchParams((await bodyOf(req)).toString());
      const secret = form.get('client_secret');
      if (
        form.get('client_id') !== o.clientId ||
        (secret ?? (o.secretRequired ? '' : o.clientSecret)) !== o.clientSecret
      )
        return json(res, 401, { error: 'invalid_client', error_description: 'The client secret is wrong.' });
      grants.push(form.get('grant_type') ?? '');
      if (form.get('grant_type') === 'authorization_code') {
        const c = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        if (!c || c.redirectUri !== form.get('redirect_uri'))
          return json(res, 400, { error: 'invalid_grant', error_description: 'code expired or redeemed' });
        if (
          createHash('sha256')
            .update(form.get('code_verifier') ?? '')
            .digest('base64url') !== c.challenge
        )
          return json(res, 400, { error: 'invalid_grant', error_description: 'code_verifier mismatch' });
        return json(res, 200, issue(true));
      }
      if (form.get('grant_type') === 'refresh_token') {
        const r = form.get('refresh_token') ?? '';
        if (!refresh.has(r)) return json(res, 400, { error: 'invalid_grant', error_description: o.revokedSays });
        if (o.rotates) refresh.delete(r);
        return json(res, 200, issue(o.rotates));
      }
      return json(res, 400, { error: 'unsupported_grant_type' });
    },
    bearerValid(req) {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      return !!token && !!access.get(token)?.valid;
    },
    expireAccessTokens: () => access.forEach((a) => (a.valid = false)),
    revokeRefreshTokens: () => refresh.clear(),
  };
}

/** The face every fake shows a test, from its authorization server, its HTTP server and its request log. */
export const providerFace = (
  o: Pick<OAuthFakeOptions, 'clientId' | 'clientSecret'>,
  oauth: OAuthFake,
  server: { close(): Promise<void> },
  requests: string[],
): FakeProvider => ({
  clientId: o.clientId,
  clientSecret: o.clientSecret,
  requests,
  grants: oauth.grants,
  expireAccessTokens: oauth.expireAccessTokens,
  revokeRefreshTokens: oauth.revokeRefreshTokens,
  close: server.close,
});

/** A fake's HTTP server on loopback: its base address, and a close that drops open connections. */
export async function fakeServer(
  handle: (req: IncomingMessage, res: ServerResponse, base: string) => Promise<unknown>,
) {
  let base = '';
  const server: Server = createServer((req, res) => {
    handle(req, res, base).catch((e: Error) => {
      if (!res.headersSent) json(res, 500, { error: { code: 500, message: e.message } });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
