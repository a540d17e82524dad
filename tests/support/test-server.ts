import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createEngine, type Engine, type EngineOptions } from '../../engine/engine.js';
import { startHttpServer, type HttpServer } from '../../engine/http/server.js';
import type { SecretKeyStore } from '../../engine/core/secrets.js';
import { consoleLogger } from '../../engine/core/console-logger.js';
import { checkAnswer } from './answer-check.js';
import { testDatabase, type TestDatabase } from './test-database.js';
import { TEST_PASSWORD_WORK } from './password-work.js';

export function memoryKeyStore(): SecretKeyStore {
  let key: Buffer | null = randomBytes(32);
  return { load: async () => key, save: async (k) => void (key = k) };
}

export interface ApiResponse<T = any> {
  status: number;
  body: {
    data: T;
    isSuccess: boolean;
    error: string | null;
    errorDetails: { field: string; message: string }[] | null;
    page?: number;
    pageSize?: number;
    totalItems?: number;
    totalPages?: number;
  };
  headers: Headers;
}

export interface CallOptions {
  token?: string | null;
  body?: unknown;
  query?: Record<string, string | number | boolean>;
  headers?: Record<string, string>;
  rawBody?: string;
}

/** A real engine on a SQLite file in a fresh folder, behind the real HTTP server on a loopback port. */
export interface FileAnswer {
  status: number;
  contentType: string;
  disposition: string;
  data: Buffer;
  json: any;
}

export interface TestServer {
  engine: Engine;
  http: HttpServer;
  dataDir: string;
  /** The PostgreSQL database when the suite runs there (pass it on to a restart with `keepDataDir`). */
  database?: TestDatabase;
  ownerKey: string;
  url: string;
  call<T = any>(method: string, path: string, options?: CallOptions): Promise<ApiResponse<T>>;
  /** Same as call with the owner's key, failing the test on anything but success. */
  ok<T = any>(method: string, path: string, body?: unknown, query?: CallOptions['query']): Promise<T>;
  /** A call that may answer a file (generate, export): the bytes, or the envelope when it fails. */
  file(method: string, path: string, options?: CallOptions): Promise<FileAnswer>;
  stop(): Promise<void>;
}

export async function startTestServer(
  opts: {
    rendererDir?: string;
    now?: () => Date;
    demo?: boolean;
    importLimits?: EngineOptions['importLimits'];
    schedulerTimers?: boolean;
    dataDir?: string;
    secretKeys?: SecretKeyStore;
    concurrentRequests?: number;
    keepDataDir?: boolean;
    mail?: EngineOptions['mail'];
    deliveries?: EngineOptions['deliveries'];
    nodeId?: string;
    leaseMs?: number;
    /** A database to use (another engine's, for engines sharing one); by default the suite's own. */
    database?: TestDatabase;
    storageRetry?: EngineOptions['storageRetry'];
    cloudEndpoints?: EngineOptions['cloudEndpoints'];
    backupStallMs?: number;
    /** Hears what the engine logs (by default nothing, or the console with BROADSHEET_TEST_LOG=1). */
    logger?: EngineOptions['logger'];
  } = {},
): Promise<TestServer> {
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'broadsheet-test-')));
  const database = opts.database ?? (await testDatabase(dataDir));
  // The demo app (110,000 rows) is made only where a test asks for it.
  const engine = await createEngine({
    dataDir,
    passwordWork: TEST_PASSWORD_WORK,
    database: database?.url,
    // BROADSHEET_TEST_LOG=1 shows what the engine logs (an internal error's cause) while a test is looked into.
    logger: opts.logger ?? (process.env.BROADSHEET_TEST_LOG ? consoleLogger : undefined),
    secretKeys: opts.secretKeys ?? memoryKeyStore(),
    now: opts.now,
    demo: opts.demo ?? false,
    importLimits: opts.importLimits,
    schedulerTimers: opts.schedulerTimers,
    concurrentRequests: opts.concurrentRequests,
    mail: opts.mail,
    deliveries: opts.deliveries,
    nodeId: opts.nodeId,
    leaseMs: opts.leaseMs,
    storageRetry: opts.storageRetry,
    cloudEndpoints: opts.cloudEndpoints,
    backupStallMs: opts.backupStallMs,
  });
  await engine.demoReady;
  const ownerKey = await engine.issueOwnerKey();
  const http = await startHttpServer(engine, { port: 0, rendererDir: opts.rendererDir });
  const call = async <T>(method: string, path: string, o: CallOptions = {}): Promise<ApiResponse<T>> => {
    const qs = o.query
      ? '?' + new URLSearchParams(Object.entries(o.query).map(([k, v]): [string, string] => [k, String(v)])).toString()
      : '';
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    const token = o.token === undefined ? ownerKey : o.token;
    if (token) headers.authorization = `Bearer ${token}`;
    let payload: string | undefined;
    if (o.rawBody !== undefined) payload = o.rawBody;
    else if (o.body !== undefined) payload = JSON.stringify(o.body);
    if (payload !== undefined) headers['content-type'] ??= 'application/json';
    const res = await fetch(http.url + path + qs, { method, headers, body: payload });
    const text = await res.text();
    // File answers (generate, export) are not JSON: keep their text as the data.
    const json = (res.headers.get('content-type') ?? '').includes('application/json');
    const body = json
      ? text
        ? JSON.parse(text)
        : null
      : { data: text, isSuccess: res.ok, error: null, errorDetails: null };
    if (json) checkAnswer(method, path, res.status, body);
    return { status: res.status, body, headers: res.headers };
  };
  return {
    engine,
    http,
    dataDir,
    database,
    ownerKey,
    url: http.url,
    call,
    async ok(method, path, body, query) {
      const r = await call(method, path, { body, query });
      if (r.status !== 200) throw new Error(`${method} ${path} answered ${r.status}: ${JSON.stringify(r.body)}`);
      return r.body.data as never;
    },
    async file(method, path, o = {}) {
      const qs = o.query
        ? '?' +
          new URLSearchParams(Object.entries(o.query).map(([k, v]): [string, string] => [k, String(v)])).toString()
        : '';
      const headers: Record<string, string> = { authorization: `Bearer ${o.token === undefined ? ownerKey : o.token}` };
      if (o.body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(http.url + path + qs, {
        method,
        headers,
        body: o.body === undefined ? undefined : JSON.stringify(o.body),
      });
      const data = Buffer.from(await res.arrayBuffer());
      const contentType = res.headers.get('content-type') ?? '';
      return {
        status: res.status,
        contentType,
        disposition: res.headers.get('content-disposition') ?? '',
        data,
        json: contentType.includes('json') ? JSON.parse(data.toString()) : null,
      };
    },
    async stop() {
      await http.close();
      await engine.close();
      if (!opts.keepDataDir) await rm(dataDir, { recursive: true, force: true });
      // A folder kept for a later engine keeps its database too (dropped with that engine's stop).
      if (!opts.database) await database?.drop(opts.keepDataDir);
    },
  };
}

export const DEFAULT_THEME = '00000000-0000-0000-0000-000000000001';
export const MISSING_ID = '7b1e0a4e-1111-4222-8333-944455556666';

/** Ids of the first-start records every server has. */
export async function defaults(s: TestServer) {
  const orgs = await s.ok('GET', '/api/v1/organizations', undefined, { get_all: true });
  const roles = await s.ok('GET', '/api/v1/roles', undefined, { get_all: true });
  const groups = await s.ok('GET', '/api/v1/groups', undefined, { get_all: true });
  return {
    orgId: orgs.find((o: any) => o.displayName === 'Default').id as string,
    adminRoleId: roles.find((r: any) => r.name === 'Administrator').id as string,
    hubRoleId: roles.find((r: any) => r.name === 'Hub users').id as string,
    allUsersGroupId: groups.find((g: any) => g.name === 'All users').id as string,
    ownerId: s.engine.firstStart.ownerId,
  };
}

/** A user with a password and only the given role permissions, signed in; answers the session token. */
export async function signedInUserWith(
  s: TestServer,
  permissions: Record<string, boolean>,
  label = 'limited',
): Promise<{ token: string; userId: string; roleId: string }> {
  const { orgId } = await defaults(s);
  const suffix = randomBytes(4).toString('hex');
  const role = await s.ok('POST', '/api/v1/roles', {
    name: `${label} ${suffix}`,
    permissions,
    isActive: true,
    allProjects: true,
  });
  const email = `${label}-${suffix}@example.com`;
  const user = await s.ok('POST', '/api/v1/users', {
    firstName: 'Test',
    lastName: label,
    email,
    password: 'correct horse battery',
    isActive: true,
    roles: [{ id: role.id }],
    organizations: [{ id: orgId }],
  });
  const login = await s.call('POST', '/api/app/auth/login', {
    token: null,
    body: { email, password: 'correct horse battery' },
  });
  if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
  return { token: login.body.data.token, userId: user.id, roleId: role.id };
}

/**
 * A user with the built-in Administrator role (every permission, no tenant administration) in these
 * organizations, signed in: what stops them at another organization's door is the wall, not a right.
 */
export async function signedInAdministrator(
  s: TestServer,
  organizations: string[],
  label: string,
): Promise<{ token: string; userId: string }> {
  const { adminRoleId } = await defaults(s);
  const email = `${label}-${randomBytes(3).toString('hex')}@example.com`;
  const user = await s.ok('POST', '/api/v1/users', {
    firstName: 'Admin',
    lastName: label,
    email,
    password: 'correct horse battery',
    isActive: true,
    roles: [{ id: adminRoleId }],
    organizations: organizations.map((id) => ({ id })),
  });
  const login = await s.call('POST', '/api/app/auth/login', {
    token: null,
    body: { email, password: 'correct horse battery' },
  });
  if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
  return { token: login.body.data.token, userId: user.id };
}
