// A fake of the two Google services a Google Drive storage service talks to, on loopback: Google's
// OAuth 2.0 endpoints (the sign-in page, the token endpoint: authorization code with PKCE S256 and the
// client's secret; a refresh answers no new refresh token) and the part of the Drive v3 API deliveries
// use: `about`, `files.list` with its query language (`'<id>' in parents and name = '<name>' and
// trashed = false and mimeType = …`), folders made with `files.create`, `files.delete`, and resumable
// uploads (a session opened with metadata, a new revision for PATCH, chunks of 256 KiB multiples with
// Content-Range, `308 Resume Incomplete` with `Range: bytes=0-N`, the status asked with `bytes */size`,
// 404 once a session expired). Each request is checked as the reference describes it. Failures are
// asked for by the test: an expired access token, revoked refresh tokens, a rate limit (403
// userRateLimitExceeded), a dropped connection mid-upload, an expired session.
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { bodyOf, fakeServer, json, oauthFake, providerFace, type FakeProvider } from './fake-oauth.js';

export interface FakeGoogle extends FakeProvider {
  /** The base of every Google endpoint (as googleAccounts, googleOAuth and googleApis). */
  base: string;
  /** A file's bytes by its path from My Drive (`Reports/EMEA/x.pdf`), or undefined. */
  read(path: string): Buffer | undefined;
  /** How many revisions a file has (1 when written once). */
  revisions(path: string): number;
  /** Every path of a file (not a folder). */
  paths(): string[];
  /** The next Drive call answers 403 userRateLimitExceeded (Google's "slow down"). */
  rateLimitNext(): void;
  /** The upload drops the connection on its `n`th chunk, after taking half of it. */
  dropChunk(n: number): void;
  /** The upload session expires on its `n`th chunk (answered 404, as Drive answers an expired session). */
  expireOnChunk(n: number): void;
}

const FOLDER = 'application/vnd.google-apps.folder';
const driveError = (res: ServerResponse, status: number, message: string, reason: string) =>
  json(res, status, { error: { code: status, message, errors: [{ reason, message }] } });

interface Item {
  id: string;
  name: string;
  parent: string;
  mimeType: string;
  data: Buffer;
  revisions: number;
}

/** Reads a Drive query as deliveries write it; anything else is refused as Drive refuses a bad query. */
function parseQuery(q: string) {
  const value = `'((?:[^'\\\\]|\\\\.)*)'`;
  const m = new RegExp(
    `^${value} in parents and name = ${value} and trashed = false and mimeType (=|!=) '${FOLDER.replace(/\./g, '\\.')}'$`,
  ).exec(q);
  const un = (s: string) => s.replace(/\\(.)/g, '$1');
  return m ? { parent: un(m[1]), name: un(m[2]), folder: m[3] === '=' } : null;
}

export async function startFakeGoogle(): Promise<FakeGoogle> {
  const clientId = '1234567890-broadsheet.apps.googleusercontent.com';
  const clientSecret = `GOCSPX-${randomBytes(8).toString('hex')}`;
  const oauth = oauthFake({
    clientId,
    clientSecret,
    secretRequired: true,
    rotates: false,
    revokedSays: 'Token has been expired or revoked.',
    requires: [
      ['scope', 'https://www.googleapis.com/auth/drive'],
      ['access_type', 'offline'],
    ],
  });
  const items = new Map<string, Item>();
  const sessions = new Map<
    string,
    { item: Item | null; meta: { name: string; parent: string }; size: number; received: Buffer; expired: boolean }
  >();
  const requests: string[] = [];
  let rateLimit = false;
  let dropOn: number | null = null;
  let expireOn: number | null = null;
  let chunks = 0;
  const children = (parent: string) => [...items.values()].filter((i) => i.parent === parent);
  const at = (path: string): Item | undefined => {
    let parent = 'root';
    let found: Item | undefined;
    for (const name of path.split('/').filter(Boolean)) {
      found = children(parent).find((i) => i.name === name);
      if (!found) return undefined;
      parent = found.id;
    }
    return found;
  };
  const pathOf = (i: Item): string => (i.parent === 'root' ? i.name : `${pathOf(items.get(i.parent)!)}/${i.name}`);

  const server = await fakeServer(async (req, res, base) => {
    const url = new URL(req.url ?? '/', base);
    requests.push(`${req.method} ${url.pathname}`);
    if (url.pathname === '/o/oauth2/v2/auth' && req.method === 'GET') return oauth.authorize(url, res);
    if (url.pathname === '/token' && req.method === 'POST') return oauth.token(req, res);

    // A resumable session's URL: it is its own authorization (no bearer token needed).
    const upload = /^\/upload\/session\/(\w+)$/.exec(url.pathname);
    if (upload) {
      const s = sessions.get(upload[1]);
      if (!s || s.expired) return driveError(res, 404, 'The upload session has expired.', 'notFound');
      if (req.method !== 'PUT') return driveError(res, 405, 'PUT', 'badRequest');
      const body = await bodyOf(req);
      const range = String(req.headers['content-range']);
      const incomplete = () => {
        res.writeHead(308, s.received.length ? { range: `bytes=0-${s.received.length - 1}` } : {});
        res.end();
      };
      const complete = () => {
        const item: Item = s.item ?? {
          id: randomBytes(6).toString('hex'),
          name: s.meta.name,
          parent: s.meta.parent,
          mimeType: 'application/octet-stream',
          data: Buffer.alloc(0),
          revisions: 0,
        };
        item.data = s.received;
        item.revisions++;
        items.set(item.id, item);
        sessions.delete(upload[1]);
        return json(res, s.item ? 200 : 201, { kind: 'drive#file', id: item.id, name: item.name });
      };
      const status = /^bytes \*\/(\d+)$/.exec(range);
      if (status) {
        if (Number(status[1]) !== s.size || body.length) return driveError(res, 400, 'Content-Range', 'badContent');
        return s.received.length === s.size && s.size > 0 ? complete() : s.size === 0 ? complete() : incomplete();
      }
      const r = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(range);
      if (!r || Number(r[3]) !== s.size) return driveError(res, 400, 'Invalid Content-Range', 'badContent');
      const [start, end] = [Number(r[1]), Number(r[2])];
      if (start !== s.received.length || end - start + 1 !== body.length)
        return driveError(res, 400, `Expected the range to start at ${s.received.length}`, 'badContent');
      if (end !== s.size - 1 && body.length % (256 * 1024) !== 0)
        return driveError(res, 400, 'Chunks must be multiples of 256 KiB', 'badContent');
      chunks++;
      if (expireOn === chunks) {
        expireOn = null;
        s.expired = true;
        return driveError(res, 404, 'The upload session has expired.', 'notFound');
      }
      if (dropOn === chunks) {
        dropOn = null;
        s.received = Buffer.concat([s.received, body.subarray(0, Math.floor(body.length / 2))]);
        return req.socket.destroy();
      }
      s.received = Buffer.concat([s.received, body]);
      return s.received.length < s.size ? incomplete() : complete();
    }

    if (!oauth.bearerValid(req))
      return json(res, 401, {
        error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' },
      });
    if (rateLimit) {
      rateLimit = false;
      return driveError(res, 403, 'User rate limit exceeded.', 'userRateLimitExceeded');
    }
    if (url.pathname === '/drive/v3/about' && req.method === 'GET') {
      if (url.searchParams.get('fields') !== 'user') return driveError(res, 400, 'fields is required', 'required');
      return json(res, 200, { user: { displayName: 'Gita Grant', emailAddress: 'gita@example.org' } });
    }
    if (url.pathname === '/drive/v3/files' && req.method === 'GET') {
      const q = parseQuery(url.searchParams.get('q') ?? '');
      if (!q) return driveError(res, 400, `Invalid Value: ${url.searchParams.get('q')}`, 'invalid');
      const found = children(q.parent).filter((i) => i.name === q.name && (i.mimeType === FOLDER) === q.folder);
      return json(res, 200, {
        files: found.slice(0, Number(url.searchParams.get('pageSize') ?? 100)).map((i) => ({ id: i.id })),
      });
    }
    if (url.pathname === '/drive/v3/files' && req.method === 'POST') {
      const meta = JSON.parse((await bodyOf(req)).toString()) as { name: string; mimeType: string; parents: string[] };
      if (meta.mimeType !== FOLDER || meta.parents?.length !== 1)
        return driveError(res, 400, 'folders only here', 'badRequest');
      const id = randomBytes(6).toString('hex');
      items.set(id, {
        id,
        name: meta.name,
        parent: meta.parents[0],
        mimeType: FOLDER,
        data: Buffer.alloc(0),
        revisions: 1,
      });
      return json(res, 200, { id });
    }
    const one = /^\/drive\/v3\/files\/(\w+)$/.exec(url.pathname);
    if (one && req.method === 'DELETE') {
      if (!items.delete(one[1])) return driveError(res, 404, `File not found: ${one[1]}.`, 'notFound');
      res.writeHead(204);
      return res.end();
    }
    const start = /^\/upload\/drive\/v3\/files(?:\/(\w+))?$/.exec(url.pathname);
    if (start && url.searchParams.get('uploadType') === 'resumable' && req.method === (start[1] ? 'PATCH' : 'POST')) {
      const size = Number(req.headers['x-upload-content-length']);
      if (!String(req.headers['content-type']).startsWith('application/json') || !Number.isInteger(size))
        return driveError(res, 400, 'metadata as JSON, X-Upload-Content-Length', 'badRequest');
      const meta = JSON.parse((await bodyOf(req)).toString() || '{}') as { name?: string; parents?: string[] };
      const item = start[1] ? items.get(start[1]) : null;
      if (start[1] && !item) return driveError(res, 404, `File not found: ${start[1]}.`, 'notFound');
      if (!item && (!meta.name || meta.parents?.length !== 1))
        return driveError(res, 400, 'name and parents', 'required');
      const id = randomBytes(8).toString('hex');
      sessions.set(id, {
        item: item ?? null,
        meta: { name: meta.name ?? '', parent: meta.parents?.[0] ?? '' },
        size,
        received: Buffer.alloc(0),
        expired: false,
      });
      res.writeHead(200, { location: `${base}/upload/session/${id}` });
      return res.end();
    }
    return driveError(res, 404, `No route ${req.method} ${url.pathname}`, 'notFound');
  });
  return {
    ...providerFace({ clientId, clientSecret }, oauth, server, requests),
    base: server.base,
    read: (path) => at(path)?.data,
    revisions: (path) => at(path)?.revisions ?? 0,
    paths: () => [...items.values()].filter((i) => i.mimeType !== FOLDER).map(pathOf),
    rateLimitNext: () => void (rateLimit = true),
    dropChunk: (n) => {
      chunks = 0;
      dropOn = n;
    },
    expireOnChunk: (n) => {
      chunks = 0;
      expireOn = n;
    },
  };
}
