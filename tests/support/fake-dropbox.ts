// A fake of the Dropbox API v2 a Dropbox storage service talks to, on loopback: the OAuth 2.0
// endpoints (`/oauth2/authorize` with `token_access_type=offline`, `/oauth2/token`: authorization
// code with PKCE S256, a refresh answering no new refresh token), `users/get_current_account` (an RPC
// call without arguments: no body, no content type), `files/upload`, upload sessions (`start`,
// `append_v2`, `finish`; offsets checked, `incorrect_offset` answered with the `correct_offset`;
// chunks of 4 MiB multiples but the last) and `files/delete_v2`. The Dropbox-API-Arg header must be
// JSON with every character beyond ASCII escaped, as Dropbox requires. Failures are asked for by the
// test: an expired access token, revoked refresh tokens, a 429 with Retry-After, a connection dropped
// after a chunk arrived (the answer lost).
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bodyOf, fakeServer, json, oauthFake, providerFace, type FakeProvider } from './fake-oauth.js';

export interface FakeDropbox extends FakeProvider {
  /** The base of every Dropbox endpoint (as dropboxWeb, dropboxApi and dropboxContent). */
  base: string;
  /** Files by path as Dropbox keeps them: `/Reports/EMEA/x.pdf`. */
  files: Map<string, Buffer>;
  /** The next API call answers 429 with this Retry-After (seconds). */
  throttleNext(seconds: number): void;
  /** The `n`th appended chunk arrives whole, but the connection drops before the answer. */
  dropChunk(n: number): void;
}

const apiError = (res: ServerResponse, status: number, summary: string, error: unknown, headers = {}) =>
  json(res, status, { error_summary: summary, error }, headers);

/** The Dropbox-API-Arg header as Dropbox reads it: ASCII only, JSON. */
function argOf(req: IncomingMessage): unknown {
  const raw = req.headers['dropbox-api-arg'];
  if (typeof raw !== 'string' || /[^\x20-\x7e]/.test(raw))
    throw new Error('Dropbox-API-Arg must be ASCII-escaped JSON');
  return JSON.parse(raw);
}

export async function startFakeDropbox(): Promise<FakeDropbox> {
  const clientId = 'k3y8broadsheet1';
  const clientSecret = `s3cr3t${randomBytes(6).toString('hex')}`;
  const oauth = oauthFake({
    clientId,
    clientSecret,
    secretRequired: false,
    rotates: false,
    revokedSays: 'refresh token is invalid or revoked',
    requires: [['token_access_type', 'offline']],
  });
  const files = new Map<string, Buffer>();
  const sessions = new Map<string, Buffer>();
  const requests: string[] = [];
  let throttle: number | null = null;
  let dropOn: number | null = null;
  let chunks = 0;
  const validPath = (p: unknown): p is string => typeof p === 'string' && p.startsWith('/') && !p.endsWith('/');

  const server = await fakeServer(async (req, res, base) => {
    const url = new URL(req.url ?? '/', base);
    requests.push(`${req.method} ${url.pathname}`);
    if (url.pathname === '/oauth2/authorize' && req.method === 'GET') return oauth.authorize(url, res);
    if (url.pathname === '/oauth2/token' && req.method === 'POST') return oauth.token(req, res);
    if (req.method !== 'POST' || !url.pathname.startsWith('/2/')) return res.writeHead(404).end();
    if (!oauth.bearerValid(req)) return apiError(res, 401, 'expired_access_token/', { '.tag': 'expired_access_token' });
    if (throttle !== null) {
      const wait = throttle;
      throttle = null;
      return apiError(
        res,
        429,
        'too_many_requests/',
        { reason: { '.tag': 'too_many_requests' }, retry_after: wait },
        { 'retry-after': String(wait) },
      );
    }
    const body = await bodyOf(req);
    if (url.pathname === '/2/users/get_current_account') {
      if (req.headers['content-type'] || (body.length && body.toString() !== 'null'))
        return res
          .writeHead(400)
          .end(
            'Error in call to API function "users/get_current_account": This function requires its argument in the HTTP request body, but your request body is empty.',
          );
      return json(res, 200, {
        account_id: 'dbid:AAH4f99',
        email: 'dara@example.net',
        name: { display_name: 'Dara Doyle' },
      });
    }
    if (url.pathname === '/2/files/delete_v2') {
      const { path } = JSON.parse(body.toString()) as { path: string };
      if (!files.delete(path)) return apiError(res, 409, 'path_lookup/not_found/', { '.tag': 'path_lookup' });
      return json(res, 200, { metadata: { '.tag': 'file', path_display: path } });
    }
    let arg: Record<string, unknown>;
    try {
      arg = argOf(req) as Record<string, unknown>;
    } catch (e) {
      return res.writeHead(400).end((e as Error).message);
    }
    if (req.headers['content-type'] !== 'application/octet-stream') return res.writeHead(400).end('content-type');
    const commit = (c: Record<string, unknown>, data: Buffer) => {
      if (!validPath(c.path) || c.mode !== 'overwrite') return apiError(res, 400, 'bad commit', {});
      files.set(c.path, data);
      return json(res, 200, { name: c.path.split('/').pop(), path_display: c.path, size: data.length });
    };
    if (url.pathname === '/2/files/upload') {
      if (body.length > 150 * 1024 * 1024) return apiError(res, 413, 'payload_too_large/', {});
      return commit(arg, body);
    }
    if (url.pathname === '/2/files/upload_session/start') {
      const id = `pid_upload_session:${randomBytes(8).toString('hex')}`;
      sessions.set(id, body);
      return json(res, 200, { session_id: id });
    }
    const cursor = arg.cursor as { session_id: string; offset: number } | undefined;
    const s = cursor && sessions.get(cursor.session_id);
    if (!cursor || !s) return apiError(res, 409, 'lookup_failed/not_found/', { '.tag': 'lookup_failed' });
    if (cursor.offset !== s.length)
      return apiError(res, 409, 'incorrect_offset/', { '.tag': 'incorrect_offset', correct_offset: s.length });
    if (url.pathname === '/2/files/upload_session/append_v2') {
      if (body.length % (4 * 1024 * 1024) !== 0) return apiError(res, 400, 'chunks are 4 MiB multiples', {});
      sessions.set(cursor.session_id, Buffer.concat([s, body]));
      if (dropOn === ++chunks) {
        dropOn = null;
        // The chunk arrived whole; the answer is lost with the connection.
        return req.socket.destroy();
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end('null');
    }
    if (url.pathname === '/2/files/upload_session/finish') {
      sessions.delete(cursor.session_id);
      return commit(arg.commit as Record<string, unknown>, Buffer.concat([s, body]));
    }
    return res.writeHead(404).end();
  });
  return {
    ...providerFace({ clientId, clientSecret }, oauth, server, requests),
    base: server.base,
    files,
    throttleNext: (s) => void (throttle = s),
    dropChunk: (n) => {
      chunks = 0;
      dropOn = n;
    },
  };
}
