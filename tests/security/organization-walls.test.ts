// Issue 55's findings, one test each, against real listeners: an analytics app of another
// organization (finding 1), stored passwords that followed a changed host (2), a data connection or
// a folder pointing into the installation or the system (3), a task recipient of another
// organization (5). The superuser connection (4) is in tests/data/live-data.test.ts, beside its
// PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { signedInAdministrator, startTestServer, type TestServer } from '../support/test-server.js';
import { fixtures, type Fixtures } from '../support/samples.js';
import { covers } from '../support/covers.js';

let s: TestServer;
let f: Fixtures;
let orgA: string;
let adminA: string;
let scratch: string;

/** An HTTP listener that records the Authorization header of every request it is sent. */
async function recordingHttp() {
  const seen: string[] = [];
  const server: Server = createHttpServer((req, res) => {
    seen.push(req.headers.authorization ?? '');
    res.writeHead(401, { 'www-authenticate': 'Basic realm="x"' }).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/dav/`, seen, close: () => new Promise((r) => server.close(r)) };
}

/**
 * A listener speaking just enough of PostgreSQL's protocol to ask for a cleartext password, as a
 * server set up to harvest one would, and to record what it is sent.
 */
async function passwordHarvester() {
  const passwords: string[] = [];
  let connections = 0;
  const server: TcpServer = createTcpServer((socket) => {
    connections++;
    let startup = true;
    socket.on('data', (data) => {
      if (startup) {
        startup = false;
        const ask = Buffer.alloc(9);
        ask.write('R', 0);
        ask.writeInt32BE(8, 1);
        ask.writeInt32BE(3, 5); // AuthenticationCleartextPassword
        socket.write(ask);
        return;
      }
      if (data[0] === 0x70) passwords.push(data.subarray(5, data.length - 1).toString());
      socket.destroy();
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { port, passwords, connections: () => connections, close: () => new Promise((r) => server.close(r)) };
}

beforeAll(async () => {
  s = await startTestServer();
  f = await fixtures(s);
  orgA = await f.make.org();
  adminA = (await signedInAdministrator(s, [orgA], 'org-a')).token;
  scratch = await mkdtemp(join(tmpdir(), 'bs-walls-'));
});
afterAll(async () => {
  await s.stop();
  await rm(scratch, { recursive: true, force: true });
});

describe(
  covers(
    "finding 1: another organization's analytics app is neither read nor written",
    'app.analytics.get',
    'app.analytics.evaluate',
    'app.analytics.fieldValues',
    'app.analytics.import',
    'app.analytics.saveVariable',
  ),
  () => {
    it("answers 404 to every read and write of B's app, and B's data stays as it was", async () => {
      const app = await f.make.app();
      await s.engine.services.db.query('UPDATE analytics_apps SET "organizationId" = ? WHERE id = ?', [f.orgId, app]);
      const sum = async () =>
        (await s.ok('POST', `/api/app/analytics/${app}/evaluate`, { expression: 'Sum(Units)', selections: {} })).value;
      const before = { sum: await sum(), meta: await s.ok('GET', `/api/app/analytics/${app}`) };
      const as = (method: string, path: string, body?: unknown) => s.call(method, path, { token: adminA, body });
      expect((await as('GET', `/api/app/analytics/${app}`)).status).toBe(404);
      expect(
        (await as('POST', `/api/app/analytics/${app}/evaluate`, { expression: 'Sum(Units)', selections: {} })).status,
      ).toBe(404);
      expect(
        (await as('POST', `/api/app/analytics/${app}/field-values`, { field: 'Region', selections: {} })).status,
      ).toBe(404);
      const replaced = await as('POST', `/api/app/analytics/${app}/import`, {
        fileName: 'theirs.csv',
        content: 'Region,Units\nNowhere,999999\n',
      });
      expect(replaced.status).toBe(404);
      expect(replaced.body.error).toBe(`Analytics app ${app} was not found`);
      expect(
        (await as('POST', `/api/app/analytics/${app}/variables`, { name: 'vPlanted', definition: '1' })).status,
      ).toBe(404);
      expect(await sum()).toBe(before.sum);
      expect(await s.ok('GET', `/api/app/analytics/${app}`)).toEqual(before.meta);
    });
  },
);

describe(
  covers(
    'finding 2: a stored password goes only where it was entered for',
    'app.storageServices.test',
    'v2.storageServices.update',
    'app.dataConnections.update',
    'app.dataConnections.test',
  ),
  () => {
    it("refuses B's WebDAV storage to A's administrator, and a changed address drops the password", async () => {
      const [first, second] = [await recordingHttp(), await recordingHttp()];
      try {
        const body = {
          name: `DAV ${randomBytes(2).toString('hex')}`,
          type: 'WebDAV',
          username: 'them',
          password: 'their-dav-secret',
        };
        const dav = await s.ok('POST', '/api/v1/storage-services', { ...body, host: first.url });
        // A's administrator cannot even point it elsewhere.
        const moved = await s.call('PUT', `/api/v2/storage-services/${dav.id}`, {
          token: adminA,
          body: { ...body, password: undefined, host: second.url },
        });
        expect(moved.status).toBe(404);
        // Its own organization's administrator changes the address without the password: it is dropped.
        const changed = await s.ok('PUT', `/api/v2/storage-services/${dav.id}`, {
          ...body,
          password: undefined,
          host: second.url,
        });
        expect(changed.hasPassword).toBe(false);
        await s.call('POST', `/api/v1/storage-services/${dav.id}/test`);
        expect(second.seen.length).toBeGreaterThan(0);
        const sent = second.seen.map((h) => Buffer.from(h.replace(/^Basic /, ''), 'base64').toString()).join(' ');
        expect(sent).not.toContain('their-dav-secret');
        // The same address with the password given again: the listener would have it (the test can fail).
        await s.ok('PUT', `/api/v2/storage-services/${dav.id}`, { ...body, host: first.url });
        await s.call('POST', `/api/v1/storage-services/${dav.id}/test`);
        expect(first.seen.map((h) => Buffer.from(h.replace(/^Basic /, ''), 'base64').toString())).toContain(
          'them:their-dav-secret',
        );
      } finally {
        await Promise.all([first.close(), second.close()]);
      }
    });

    it('sends no stored database password to a server the connection was moved to', async () => {
      const harvester = await passwordHarvester();
      try {
        const body = {
          name: `Sales ${randomBytes(2).toString('hex')}`,
          kind: 'PostgreSQL',
          host: '127.0.0.1',
          database: 'sales',
          username: 'reader',
        };
        const conn = await s.ok('POST', '/api/app/data-connections', { ...body, port: 9, password: 'their-db-secret' });
        expect(
          (
            await s.call('PUT', `/api/app/data-connections/${conn.id}`, {
              token: adminA,
              body: { ...body, port: harvester.port },
            })
          ).status,
        ).toBe(404);
        const moved = await s.ok('PUT', `/api/app/data-connections/${conn.id}`, { ...body, port: harvester.port });
        expect(moved.hasPassword).toBe(false);
        const tested = await s.call('POST', `/api/app/data-connections/${conn.id}/test`);
        expect(tested.status).toBe(400);
        expect(harvester.connections()).toBeGreaterThan(0);
        expect(harvester.passwords.join(' ')).not.toContain('their-db-secret');
        // Given again in the same call, it goes: the harvester is a real listener.
        await s.ok('PUT', `/api/app/data-connections/${conn.id}`, {
          ...body,
          port: harvester.port,
          password: 'retyped',
        });
        await s.call('POST', `/api/app/data-connections/${conn.id}/test`);
        expect(harvester.passwords).toContain('retyped');
      } finally {
        await harvester.close();
      }
    });
  },
);

describe(
  covers(
    'finding 3: no connection or folder reaches the installation or the system',
    'app.dataConnections.create',
    'app.storageServices.create',
  ),
  () => {
    const refused = async (path: string, body: Record<string, unknown>, field: string) => {
      const r = await s.call('POST', path, { body });
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      return r.body.errorDetails?.find((d: { field: string }) => d.field === field)?.message as string;
    };

    it("refuses a SQLite connection to the product's own database, in words", async () => {
      const message = await refused(
        '/api/app/data-connections',
        { name: 'House', kind: 'SQLite', filePath: join(s.dataDir, 'broadsheet.db') },
        'body.filePath',
      );
      expect(message).toMatch(/must not be inside Broadsheet's own data/);
    });

    it('refuses system folders and a folder that holds the data folder', async () => {
      expect(
        await refused('/api/app/data-connections', { name: 'Etc', kind: 'Folder', filePath: '/etc' }, 'body.filePath'),
      ).toBe('must not be inside the system folder /etc');
      expect(
        await refused(
          '/api/app/data-connections',
          { name: 'Above', kind: 'Folder', filePath: dirname(s.dataDir) },
          'body.filePath',
        ),
      ).toMatch(/must not hold Broadsheet's own data/);
      expect(
        await refused('/api/v1/storage-services', { name: 'Etc', type: 'Folder', rootPath: '/etc' }, 'body.rootPath'),
      ).toBe('must not be inside the system folder /etc');
    });

    it('still takes a folder of its own', async () => {
      const ok = await s.call('POST', '/api/v1/storage-services', {
        body: { name: `Out ${randomBytes(2).toString('hex')}`, type: 'Folder', rootPath: scratch },
      });
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    });
  },
);

describe(covers("finding 5: a task's recipients are its organization's people", 'v1.taskRecipients.add'), () => {
  it("refuses another organization's user, to its administrator and to a tenant administrator", async () => {
    const theirs = await f.make.user();
    const project = await s.ok('POST', '/api/app/projects', {
      name: `Ours ${randomBytes(2).toString('hex')}`,
      organizationId: orgA,
    });
    const task = await s.ok('POST', '/api/v2/tasks', { name: 'Ours', projectID: project.id });
    const asAdmin = await s.call('POST', `/api/v1/tasks/${task.id}/recipients`, {
      token: adminA,
      body: [{ id: theirs, type: 'user', sendEmail: true, seeInHub: true }],
    });
    expect(asAdmin.status).toBe(404);
    const asTenant = await s.call('POST', `/api/v1/tasks/${task.id}/recipients`, {
      body: [{ id: theirs, type: 'user', sendEmail: true, seeInHub: true }],
    });
    expect(asTenant.status).toBe(400);
    expect(asTenant.body.errorDetails).toEqual([
      { field: 'body.0.id', message: "must be a user of the task's organization" },
    ]);
    const listed = await s.ok('GET', `/api/v1/tasks/${task.id}/recipients`, undefined, { get_all: true });
    expect(listed).toEqual([]);
  });
});

describe(
  covers(
    'finding 8: the low ones',
    'app.dataConnections.create',
    'app.storageServices.create',
    'v2.identityProviders.create',
    'app.storageServices.test',
    'app.analytics.import',
    'v2.projects.updatePermissionsMode',
    'app.reports.get',
  ),
  () => {
    it('refuses link-local and cloud metadata addresses for every outgoing connection', async () => {
      const metadata = 'must not be a link-local or cloud metadata address';
      const conn = await s.call('POST', '/api/app/data-connections', {
        body: { name: 'Meta', kind: 'PostgreSQL', host: '169.254.169.254', database: 'x', username: 'y' },
      });
      expect(conn.status).toBe(400);
      expect(conn.body.errorDetails?.[0]).toMatchObject({
        field: 'body.host',
        message: expect.stringContaining(metadata),
      });
      const dav = await s.call('POST', '/api/v1/storage-services', {
        body: { name: 'Meta', type: 'WebDAV', host: 'http://169.254.169.254/latest/' },
      });
      expect(dav.status).toBe(400);
      expect(dav.body.errorDetails?.[0]).toMatchObject({
        field: 'body.host',
        message: expect.stringContaining(metadata),
      });
      const ftp = await s.call('POST', '/api/v1/storage-services', {
        body: { name: 'Meta', type: 'SFTP', host: 'metadata.google.internal', ftpTestDirectoryPath: '/' },
      });
      expect(ftp.status).toBe(400);
      const idp = await s.call('POST', '/api/v2/identity-providers', {
        body: {
          name: 'Meta',
          type: 'OpenID Connect',
          clientID: 'x',
          clientSecret: 'y',
          issuer: 'http://169.254.169.254/',
          authorizationEndpoint: 'https://login.example.com/authorize',
          accessTokenEndpoint: 'https://login.example.com/token',
          userinfoEndpoint: 'https://login.example.com/userinfo',
        },
      });
      expect(idp.status).toBe(400);
      expect(idp.body.errorDetails?.[0]).toMatchObject({
        field: 'body.issuer',
        message: expect.stringContaining(metadata),
      });
    });

    it('says a service that is no WebDAV server is none, without repeating its answer', async () => {
      const server = createHttpServer((_req, res) =>
        res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>'),
      );
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      try {
        const { port } = server.address() as { port: number };
        const dav = await s.ok('POST', '/api/v1/storage-services', {
          name: `Not DAV ${randomBytes(2).toString('hex')}`,
          type: 'WebDAV',
          host: `http://127.0.0.1:${port}/files/`,
        });
        const tested = await s.call('POST', `/api/v1/storage-services/${dav.id}/test`);
        expect(tested.status).toBe(400);
        expect(tested.body.error).toContain('no WebDAV server answered at this address');
        expect(tested.body.error).not.toContain('502');
      } finally {
        await new Promise((r) => server.close(r));
      }
    });

    it('serves the service-provider metadata of a saved SAML provider no organization uses yet', async () => {
      const saml = await s.ok('POST', '/api/v1/identity-providers', {
        name: `Not yet ${randomBytes(2).toString('hex')}`,
        type: 'SAML',
      });
      const res = await fetch(`${s.url}/api/app/sso/${saml.id}/metadata`);
      expect(res.status).toBe(200);
      const xml = await res.text();
      expect(xml).toContain('EntityDescriptor');
      expect(xml).toContain(`/api/app/sso/${saml.id}/acs`);
    });

    it('refuses a header-only or one-line file in words, leaves nothing behind, and takes the next good one', async () => {
      const app = await f.make.app();
      for (const content of ['Region,Units\n', 'Region,Units']) {
        const r = await s.call('POST', `/api/app/analytics/${app}/import`, {
          body: { fileName: 'empty.csv', content },
        });
        expect(r.status, JSON.stringify(r.body)).toBe(400);
        expect(r.body.errorDetails).toEqual([
          { field: 'body.content', message: 'File: has no rows under its header line: there is nothing to import' },
        ]);
      }
      const good = await s.call('POST', `/api/app/analytics/${app}/import`, {
        body: { fileName: 'good.csv', content: 'Region,Units\nNorth,3\n' },
      });
      expect(good.status).toBe(200);
      const appId = (await s.engine.services.db.query('SELECT "appId" FROM analytics_apps WHERE id = ?', [app]))[0]
        .appId;
      expect(readdirSync(join(s.dataDir, 'apps', appId)).sort()).toEqual(['data.duckdb', 'meta.json']);
    });

    it('keeps the creator of a project in permissions mode its manager: its reports stay open to them', async () => {
      const maker = (await signedInAdministrator(s, [f.orgId], 'maker')).token;
      const project = await s.call('POST', '/api/app/projects', {
        token: maker,
        body: { name: `Mine ${randomBytes(2).toString('hex')}` },
      });
      expect(project.status, JSON.stringify(project.body)).toBe(200);
      const report = await s.call('POST', '/api/v2/reports', {
        token: maker,
        body: { name: 'Mine', projectID: project.body.data.id, type: 'Html' },
      });
      expect(report.status).toBe(200);
      const mode = await s.call('PUT', `/api/v2/projects/${project.body.data.id}/permissions-mode`, {
        token: maker,
        query: { value: 'true' },
      });
      expect(mode.status, JSON.stringify(mode.body)).toBe(200);
      const opened = await s.call('GET', `/api/v1/reports/${report.body.data.id}`, { token: maker });
      expect(opened.status, JSON.stringify(opened.body)).toBe(200);
      const listed = await s.call('GET', '/api/v1/reports', { token: maker, query: { get_all: true } });
      expect(listed.body.data.map((r: { id: string }) => r.id)).toContain(report.body.data.id);
    });
  },
);
