// A fake of the two Microsoft services a OneDrive or SharePoint storage service talks to, on
// loopback: the identity platform's OAuth 2.0 endpoints (authorize, token; authorization code with
// PKCE S256, refresh tokens rotated on use) and the part of Microsoft Graph v1.0 deliveries use
// (/me, /me/drive, a SharePoint site by its address and its drives, PUT …/content, upload sessions
// with Content-Range and nextExpectedRanges, DELETE). Each request is checked as the published
// reference describes it; what it cannot take is refused as the service would. Failures are asked
// for by the test: an expired access token, revoked refresh tokens, a 429 with Retry-After, a
// connection dropped mid-upload.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bodyOf, fakeServer, json, oauthFake, providerFace, type FakeProvider } from './fake-oauth.js';

export interface FakeMicrosoft extends FakeProvider {
  /** The identity platform's base (as `microsoftLogin`). */
  login: string;
  /** Graph's base, with /v1.0 (as `graph`). */
  graph: string;
  /** Files by drive and path: `me/Reports/x.pdf`, `drive-reports/Pack/x.pdf`. */
  files: Map<string, Buffer>;
  /** The next Graph call answers 429 with this Retry-After (seconds). */
  throttleNext(seconds: number): void;
  /** The upload session drops the connection (no answer) on its `n`th chunk, after taking half of it. */
  dropChunk(n: number): void;
}

const graphError = (res: ServerResponse, status: number, code: string, message: string, headers = {}) =>
  json(res, status, { error: { code, message } }, headers);

export async function startFakeMicrosoft(): Promise<FakeMicrosoft> {
  const clientId = '2f1d7c8e-5a43-4c3e-9d0a-8b7e6f5a4c3b';
  const clientSecret = `secret-${randomBytes(8).toString('hex')}`;
  const oauth = oauthFake({
    clientId,
    clientSecret,
    secretRequired: true,
    rotates: true,
    revokedSays: 'AADSTS700082: refresh token revoked',
    requires: [['scope', 'offline_access']],
  });
  const sessions = new Map<string, { key: string; size: number; received: Buffer }>();
  const files = new Map<string, Buffer>();
  const requests: string[] = [];
  let throttle: number | null = null;
  let dropOn: number | null = null;
  let chunks = 0;
  const ACCOUNT = {
    userPrincipalName: 'olga@contoso.example',
    mail: 'olga@contoso.example',
    displayName: 'Olga Owner',
  };
  const SITE = { host: 'contoso.sharepoint.com', path: '/sites/Finance', id: 'contoso.sharepoint.com,site-1,web-1' };
  const DRIVES = [
    { id: 'drive-documents', name: 'Documents' },
    { id: 'drive-reports', name: 'Monthly reports' },
  ];

  const server = await fakeServer(async (req: IncomingMessage, res: ServerResponse, base: string) => {
    const url = new URL(req.url ?? '/', base);
    const path = decodeURIComponent(url.pathname);
    requests.push(`${req.method} ${url.pathname}`);
    // The identity platform.
    const idp = /^\/([^/]+)\/oauth2\/v2\.0\/(authorize|token)$/.exec(url.pathname);
    if (idp && idp[2] === 'authorize' && req.method === 'GET') return oauth.authorize(url, res);
    if (idp && idp[2] === 'token' && req.method === 'POST') return oauth.token(req, res);
    // An upload session's URL: pre-authorized, no bearer token (Graph refuses one there).
    const upload = /^\/upload\/([\w-]+)$/.exec(url.pathname);
    if (upload) {
      const s = sessions.get(upload[1]);
      if (!s) return graphError(res, 404, 'itemNotFound', 'The upload session was not found');
      const next = () => ({ nextExpectedRanges: [`${s.received.length}-${s.size - 1}`] });
      if (req.method === 'GET') return json(res, 200, next());
      if (req.method !== 'PUT') return graphError(res, 405, 'invalidRequest', 'PUT or GET');
      if (req.headers.authorization) return graphError(res, 401, 'invalidRequest', 'No Authorization on an upload URL');
      const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(String(req.headers['content-range']));
      const body = await bodyOf(req);
      // A session learns the file's size from its first chunk's Content-Range, as Graph does.
      if (range && s.size < 0) s.size = Number(range[3]);
      if (!range || Number(range[3]) !== s.size) return graphError(res, 400, 'invalidRange', 'Content-Range');
      const [start, end] = [Number(range[1]), Number(range[2])];
      if (start !== s.received.length || end - start + 1 !== body.length)
        return graphError(res, 416, 'invalidRange', `Expected ${s.received.length}-`);
      if (end !== s.size - 1 && body.length % (320 * 1024) !== 0)
        return graphError(res, 400, 'invalidRange', 'Chunks must be multiples of 320 KiB');
      chunks++;
      if (dropOn === chunks) {
        dropOn = null;
        // Half the chunk arrived before the line dropped: the session keeps what it got.
        s.received = Buffer.concat([s.received, body.subarray(0, Math.floor(body.length / 2))]);
        return req.socket.destroy();
      }
      s.received = Buffer.concat([s.received, body]);
      if (s.received.length < s.size) return json(res, 202, next());
      files.set(s.key, s.received);
      sessions.delete(upload[1]);
      return json(res, 201, { id: s.key, size: s.size });
    }
    // Graph.
    if (!url.pathname.startsWith('/v1.0/')) return graphError(res, 404, 'notFound', 'Unknown path');
    if (!oauth.bearerValid(req))
      return graphError(res, 401, 'InvalidAuthenticationToken', 'Access token has expired or is not yet valid.');
    if (throttle !== null) {
      const wait = throttle;
      throttle = null;
      return graphError(res, 429, 'TooManyRequests', 'Please retry later', { 'retry-after': String(wait) });
    }
    const g = path.slice('/v1.0'.length);
    if (g === '/me' && req.method === 'GET') return json(res, 200, ACCOUNT);
    if (g === `/sites/${SITE.host}:${SITE.path}` && req.method === 'GET') return json(res, 200, { id: SITE.id });
    if (g === `/sites/${SITE.id}/drives`) return json(res, 200, { value: DRIVES });
    if (g === `/sites/${SITE.id}/drive`) return json(res, 200, DRIVES[0]);
    const item =
      /^(?:\/me\/drive|\/drives\/([\w-]+)|\/sites\/([^/]+)\/drive)\/root:\/(.+?):?(\/content|\/createUploadSession)?$/.exec(
        g,
      );
    if (!item) return graphError(res, 404, 'itemNotFound', `No route ${g}`);
    const driveKey = item[1] ?? (item[2] ? DRIVES[0].id : 'me');
    if (item[1] && !DRIVES.some((d) => d.id === item[1])) return graphError(res, 404, 'itemNotFound', 'No such drive');
    const key = `${driveKey}/${item[3]}`;
    if (item[4] === '/content' && req.method === 'PUT') {
      const body = await bodyOf(req);
      if (body.length > 4 * 1024 * 1024) return graphError(res, 413, 'requestTooLarge', 'Use an upload session');
      files.set(key, body);
      return json(res, 201, { id: key, size: body.length });
    }
    if (item[4] === '/createUploadSession' && req.method === 'POST') {
      const body = JSON.parse((await bodyOf(req)).toString() || '{}') as { item?: Record<string, string> };
      if (body.item?.['@microsoft.graph.conflictBehavior'] !== 'replace')
        return graphError(res, 409, 'nameAlreadyExists', 'conflictBehavior');
      const id = randomBytes(8).toString('hex');
      sessions.set(id, { key, size: -1, received: Buffer.alloc(0) });
      return json(res, 200, {
        uploadUrl: `${base}/upload/${id}`,
        expirationDateTime: new Date(Date.now() + 3600_000),
      });
    }
    if (!item[4] && req.method === 'DELETE') {
      if (!files.delete(key)) return graphError(res, 404, 'itemNotFound', 'The resource could not be found.');
      res.writeHead(204);
      return res.end();
    }
    return graphError(res, 405, 'invalidRequest', `${req.method} ${g}`);
  });
  return {
    ...providerFace({ clientId, clientSecret }, oauth, server, requests),
    login: server.base,
    graph: `${server.base}/v1.0`,
    files,
    throttleNext: (s) => void (throttle = s),
    dropChunk: (n) => {
      chunks = 0;
      dropOn = n;
    },
  };
}
