// Issue 47: analytics apps load themselves from the company's databases. Against Debian's
// PostgreSQL (password sign-in) and MariaDB, each started by the test on a Unix socket, and a SQLite
// file: data connections tested in words (wrong password, unknown database, unreachable host), a
// reload that reads every row (aggregates equal the database's), a reload that fires the task
// waiting for the app once, and a failing query or a wrong password that keeps the data before.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import sqlite3 from 'sqlite3';
import { DEFAULT_THEME, defaults, startTestServer, type TestServer } from '../support/test-server.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { startMariadb, type TestMariadb } from '../support/mariadb.js';
import { demoProject } from '../support/demo-figures.js';
import { until } from '../support/until.js';
import { covers } from '../support/covers.js';
import { randomBytes } from 'node:crypto';
import { startEngineProcess } from '../support/engine-process.js';

const PG_PASSWORD = 'pg-reader-secret';
const ROWS = 25_000;
const ROOT = '00000000-0000-0000-0000-000000000000';
let s: TestServer;
let db: TestPostgres;
let maria: TestMariadb;
let dir: string;
/** The engine's clock: real time, until the schedule test sets it (it runs last). */
let clock: Date | null = null;

beforeAll(async () => {
  [db, maria] = await Promise.all([startPostgres('sales', PG_PASSWORD), startMariadb()]);
  dir = await mkdtemp(join(tmpdir(), 'bs-live-'));
  s = await startTestServer({ demo: true, now: () => clock ?? new Date(), schedulerTimers: false });
  const client = new pg.Client({ host: db.socketDir, database: 'sales', user: db.user, password: PG_PASSWORD });
  await client.connect();
  await client.query(`CREATE TABLE orders AS
    SELECT i AS id, (ARRAY['North','South','East','West'])[1 + i % 4] AS region,
           (i % 97) * 1.25 AS amount, DATE '2026-01-01' + (i % 300) AS day
    FROM generate_series(1, ${ROWS}) AS i`);
  // Sources read as a role that may only read: the cluster's owner (a superuser) is refused (issue 55).
  await client.query(`CREATE ROLE reader LOGIN PASSWORD '${PG_PASSWORD}'; GRANT pg_read_all_data TO reader`);
  await client.end();
  await maria.admin(`CREATE DATABASE shop;
    CREATE TABLE shop.sales (id INT PRIMARY KEY, city VARCHAR(40), units INT, sold DATE);
    INSERT INTO shop.sales VALUES (1,'Oslo',3,'2026-03-01'),(2,'Rome',5,'2026-03-02'),(3,'Zürich',7,'2026-03-03');
    CREATE USER 'reader'@'localhost' IDENTIFIED BY 'maria-secret';
    GRANT SELECT ON shop.* TO 'reader'@'localhost';`);
}, 120_000);
afterAll(async () => {
  await s?.stop();
  await Promise.all([db?.close(), maria?.close()]);
  if (dir) await rm(dir, { recursive: true, force: true });
});

const pgConnection = (over: Record<string, unknown> = {}) => ({
  name: 'Sales warehouse',
  kind: 'PostgreSQL',
  host: db.socketDir,
  database: 'sales',
  username: 'reader',
  password: PG_PASSWORD,
  ...over,
});

/** A new analytics app (of an organization, or of none: shared), on the suite's server or another. */
async function newApp(name: string, o: { organizationId?: string | null; on?: TestServer } = {}) {
  return (
    await (o.on ?? s).ok('POST', '/api/v1/analytics-apps', {
      appId: `live-${name.toLowerCase().replace(/\W+/g, '-')}`,
      name,
      organizationId: o.organizationId ?? null,
      folderId: ROOT,
      folderPath: '/',
      allowAnalyticsSenseApp: false,
      allowMashup: false,
      defaultOpen: 'x',
    })
  ).id as string;
}

/** A user who may see apps, of an organization of their own: apps of the default organization are not theirs. */
async function strangerToken(): Promise<string> {
  const org = await s.ok('POST', '/api/v1/organizations', { displayName: 'Elsewhere', themeId: DEFAULT_THEME });
  const role = await s.ok('POST', '/api/v1/roles', {
    name: 'Elsewhere viewer',
    permissions: { viewProject: true },
    isActive: true,
    allProjects: true,
  });
  await s.ok('POST', '/api/v1/users', {
    firstName: 'Else',
    lastName: 'Where',
    email: 'else@example.com',
    password: 'correct horse battery',
    isActive: true,
    roles: [{ id: role.id }],
    organizations: [{ id: org.id }],
  });
  const login = await s.call('POST', '/api/app/auth/login', {
    token: null,
    body: { email: 'else@example.com', password: 'correct horse battery' },
  });
  return login.body.data.token;
}

const sumOf = async (appId: string, expression: string) =>
  (await s.ok('POST', `/api/app/analytics/${appId}/evaluate`, { expression })).value;

describe(
  covers(
    'data connections and reloads from them',
    'app.dataConnections.create',
    'app.dataConnections.update',
    'app.dataConnections.list',
    'app.dataConnections.test',
    'app.dataConnections.delete',
    'app.analytics.setSources',
    'app.analytics.getSources',
    'app.analytics.reload',
    'app.analytics.previewSource',
    'app.analytics.cancelReload',
    'app.analytics.setReloadSchedule',
    'app.analytics.listReloads',
  ),
  () => {
    it('tests each kind of connection, and says in words what failed, naming the field', async () => {
      const incomplete = await s.call('POST', '/api/app/data-connections', {
        body: { name: 'Half', kind: 'PostgreSQL' },
      });
      expect(incomplete.status).toBe(400);
      expect(incomplete.body.errorDetails!.map((d: { field: string }) => d.field)).toEqual([
        'body.host',
        'body.database',
        'body.username',
      ]);
      const good = await s.ok('POST', '/api/app/data-connections', pgConnection());
      expect(good).toMatchObject({ kind: 'PostgreSQL', port: 5432, hasPassword: true, tls: 'off' });
      expect(JSON.stringify(await s.ok('GET', '/api/app/data-connections'))).not.toContain(PG_PASSWORD);
      expect((await s.ok('POST', `/api/app/data-connections/${good.id}/test`)).message).toMatch(
        /^Connected to PostgreSQL \d+/,
      );

      const wrong = await s.ok('POST', '/api/app/data-connections', pgConnection({ name: 'Wrong', password: 'nope' }));
      const refused = await s.call('POST', `/api/app/data-connections/${wrong.id}/test`);
      expect(refused.status).toBe(400);
      expect(refused.body.errorDetails![0]).toMatchObject({ field: 'password' });
      expect(refused.body.error).toContain('refused the user name or password');

      const noDb = await s.ok('POST', '/api/app/data-connections', pgConnection({ name: 'No db', database: 'nosuch' }));
      const missing = await s.call('POST', `/api/app/data-connections/${noDb.id}/test`);
      expect(missing.body.errorDetails![0].field).toBe('database');

      // A port nobody listens on: the system gave it, then it was closed.
      const port = await new Promise<number>((resolve) => {
        const l = createServer().listen(0, '127.0.0.1', () => {
          const p = (l.address() as { port: number }).port;
          l.close(() => resolve(p));
        });
      });
      const away = await s.ok(
        'POST',
        '/api/app/data-connections',
        pgConnection({ name: 'Away', host: '127.0.0.1', port }),
      );
      const unreachable = await s.call('POST', `/api/app/data-connections/${away.id}/test`);
      expect(unreachable.body.errorDetails![0].field).toBe('host');
      expect(unreachable.body.error).toContain('cannot be reached');
      // SQL Server (tedious) on the same closed port: its driver loads, dials, and says so in the same words.
      // (No SQL Server runs here: tests/data/sqlserver.test.ts reads one where BROADSHEET_TEST_SQLSERVER names it.)
      const mssql = await s.ok('POST', '/api/app/data-connections', {
        ...pgConnection({ name: 'Away SQL Server', host: '127.0.0.1', port }),
        kind: 'SQLServer',
      });
      expect(mssql.port).toBe(port);
      const noServer = await s.call('POST', `/api/app/data-connections/${mssql.id}/test`);
      expect(noServer.body.errorDetails![0].field).toBe('host');
      expect(noServer.body.error).toContain('cannot be reached');
      const socket = await s.call('POST', '/api/app/data-connections', {
        body: { ...pgConnection({ name: 'Socket SQL Server' }), kind: 'SQLServer' },
      });
      expect(socket.body.errorDetails![0]).toMatchObject({ field: 'body.host' });

      const mdb = await s.ok('POST', '/api/app/data-connections', {
        name: 'Shop',
        kind: 'MySQL',
        host: maria.socket,
        database: 'shop',
        username: 'reader',
        password: 'maria-secret',
      });
      expect((await s.ok('POST', `/api/app/data-connections/${mdb.id}/test`)).message).toMatch(
        /^Connected to MariaDB 10\./,
      );
      // The password stays when a change leaves it out.
      await s.ok('PUT', `/api/app/data-connections/${mdb.id}`, {
        ...mdb,
        password: undefined,
        description: 'Shop floor',
      });
      expect((await s.ok('POST', `/api/app/data-connections/${mdb.id}/test`)).ok).toBe(true);

      await s.ok('DELETE', '/api/app/data-connections', [wrong.id, noDb.id, away.id, mssql.id]);
    });

    it('reloads an app from PostgreSQL: every row read, aggregates equal the database’s, the waiting task fired once', async () => {
      const [conn] = (await s.ok('GET', '/api/app/data-connections', undefined, {
        'name[equals]': 'Sales warehouse',
      })) as {
        id: string;
      }[];
      const app = await newApp('Orders');
      const none = await s.call('POST', `/api/app/analytics/${app}/reload`);
      expect(none.status).toBe(400);
      expect(none.body.error).toContain('has no sources yet');
      await s.ok('PUT', `/api/app/analytics/${app}/sources`, {
        sources: [{ name: 'orders', connectionId: conn.id, query: 'SELECT region, amount, day FROM orders' }],
      });
      const { projectId } = await demoProject(s);
      const providerId = (await s.ok('GET', '/api/v1/analytics-apps', undefined, { get_all: true })).find(
        (a: { id: string }) => a.id === app,
      ).appId;
      const task = await s.ok('POST', '/api/v2/tasks', { name: 'After the orders reload', projectID: projectId });
      await s.ok('POST', `/api/v1/tasks/${task.id}/triggers/external-events`, {
        name: 'On reload',
        appId: providerId,
        startDate: new Date(Date.now() - 86400_000).toISOString(),
        endDate: null,
      });

      const reload = await s.ok('POST', `/api/app/analytics/${app}/reload`);
      expect(reload).toMatchObject({ status: 'completed', rows: ROWS, trigger: 'manual', message: null });
      const meta = await s.ok('GET', `/api/app/analytics/${app}`);
      expect(meta.fields.map((f: { name: string; type: string }) => `${f.name}:${f.type}`)).toEqual([
        'region:text',
        'amount:decimal',
        'day:date',
      ]);
      const client = new pg.Client({ host: db.socketDir, database: 'sales', user: db.user, password: PG_PASSWORD });
      await client.connect();
      const { rows } = await client.query(
        `SELECT SUM(amount)::float AS total, COUNT(DISTINCT day)::int AS days FROM orders`,
      );
      await client.end();
      expect(Number(await sumOf(app, 'Sum(amount)'))).toBeCloseTo(rows[0].total, 6);
      expect(Number(await sumOf(app, 'Count(distinct day)'))).toBe(rows[0].days);

      const runs = await until(
        () => s.ok('GET', '/api/v1/requests', undefined, { task_id: task.id }),
        (x) => x.length > 0,
      );
      expect(runs).toHaveLength(1);
      const history = await s.ok('GET', `/api/app/analytics/${app}/sources`);
      expect(history.sources).toEqual([
        { name: 'orders', connectionId: conn.id, query: 'SELECT region, amount, day FROM orders' },
      ]);
      expect(history.reloads[0]).toMatchObject({ status: 'completed', rows: ROWS });
      // A connection an app loads from is not deleted under it.
      const inUse = await s.call('DELETE', '/api/app/data-connections', { body: [conn.id] });
      expect(inUse.status).toBe(409);
      expect(inUse.body.error).toContain('Orders');
    });

    it('keeps the data before when the query fails or the password is wrong, and says why', async () => {
      const [conn] = (await s.ok('GET', '/api/app/data-connections', undefined, {
        'name[equals]': 'Sales warehouse',
      })) as {
        id: string;
      }[];
      // Of the default organization: a user of another one does not see its reloads.
      const app = await newApp('Regions', { organizationId: (await defaults(s)).orgId });
      await s.ok('PUT', `/api/app/analytics/${app}/sources`, {
        sources: [
          { name: 'regions', connectionId: conn.id, query: 'SELECT region, COUNT(*) AS n FROM orders GROUP BY region' },
        ],
      });
      expect((await s.ok('POST', `/api/app/analytics/${app}/reload`)).rows).toBe(4);
      await s.ok('PUT', `/api/app/analytics/${app}/sources`, {
        sources: [{ name: 'regions', connectionId: conn.id, query: 'SELECT region, nosuch FROM orders' }],
      });
      const failed = await s.ok('POST', `/api/app/analytics/${app}/reload`);
      expect(failed.status).toBe('failed');
      expect(failed.message).toContain('nosuch');
      expect((await s.ok('GET', `/api/app/analytics/${app}`)).rowCount).toBe(4);
      expect(Number(await sumOf(app, 'Sum(n)'))).toBe(ROWS);

      const wrong = await s.ok(
        'POST',
        '/api/app/data-connections',
        pgConnection({ name: 'Stale password', password: 'old' }),
      );
      await s.ok('PUT', `/api/app/analytics/${app}/sources`, {
        sources: [{ name: 'regions', connectionId: wrong.id, query: 'SELECT region FROM orders' }],
      });
      const refused = await s.ok('POST', `/api/app/analytics/${app}/reload`);
      expect(refused).toMatchObject({ status: 'failed' });
      expect(refused.message).toContain('refused the user name or password');
      expect((await s.ok('GET', `/api/app/analytics/${app}`)).rowCount).toBe(4);
      const history = await s.ok('GET', `/api/app/analytics/${app}/sources`);
      expect(history.reloads.map((r: { status: string }) => r.status)).toEqual(['failed', 'failed', 'completed']);
      // The monitoring screen's list: the failed reloads with their app and why.
      const failedOnes = await s.ok('GET', '/api/app/analytics/reloads', undefined, { status: 'failed' });
      expect(
        failedOnes
          .filter((r: { appId: string }) => r.appId === app)
          .map((r: { appName: string; message: string }) => [r.appName, r.message.slice(0, 30)]),
      ).toEqual([
        ['Regions', refused.message.slice(0, 30)],
        ['Regions', failed.message.slice(0, 30)],
      ]);
      expect(failedOnes.every((r: { status: string }) => r.status === 'failed')).toBe(true);
      // A user of another organization sees none of them.
      const theirs = await s.call('GET', '/api/app/analytics/reloads', { token: await strangerToken() });
      expect(theirs.status).toBe(200);
      expect(theirs.body.data.filter((r: { appId: string }) => r.appId === app)).toEqual([]);
    });

    it('refuses a superuser connection at test, preview and reload, so COPY … TO PROGRAM never runs (issue 55, finding 4)', async () => {
      const mighty = await s.ok(
        'POST',
        '/api/app/data-connections',
        pgConnection({ name: 'Owner', username: db.user }),
      );
      const tested = await s.call('POST', `/api/app/data-connections/${mighty.id}/test`);
      expect(tested.status).toBe(400);
      expect(tested.body.errorDetails).toEqual([
        {
          field: 'username',
          message: expect.stringMatching(/^the user “.+” is a superuser of this server.*GRANT pg_read_all_data/),
        },
      ]);
      const marker = join(dir, `program-ran-${Date.now()}`);
      const app = await newApp('Mighty', { organizationId: (await defaults(s)).orgId });
      const preview = await s.call('POST', `/api/app/analytics/${app}/sources/preview`, {
        body: { connectionId: mighty.id, query: `COPY (SELECT 1) TO PROGRAM 'touch ${marker}'` },
      });
      expect(preview.status).toBe(400);
      expect(preview.body.error).toContain('is a superuser of this server');
      await s.ok('PUT', `/api/app/analytics/${app}/sources`, {
        sources: [{ name: 'x', connectionId: mighty.id, query: `SELECT pg_read_file('/etc/hostname') AS h` }],
      });
      const reload = await s.ok('POST', `/api/app/analytics/${app}/reload`);
      expect(reload.status).toBe('failed');
      expect(reload.message).toContain('is a superuser of this server');
      expect(existsSync(marker)).toBe(false);
      // The reader the product asks for connects.
      const reader = await s.ok('POST', '/api/app/data-connections', pgConnection({ name: 'Reader' }));
      expect((await s.call('POST', `/api/app/data-connections/${reader.id}/test`)).status).toBe(200);
    });

    it('previews the first 100 rows of a query, and a reload cancelled while it reads keeps the data before', async () => {
      const [conn] = (await s.ok('GET', '/api/app/data-connections', undefined, {
        'name[equals]': 'Sales warehouse',
      })) as {
        id: string;
      }[];
      const app = await newApp('Slow orders');
      const preview = await s.ok('POST', `/api/app/analytics/${app}/sources/preview`, {
        connectionId: conn.id,
        query: 'SELECT region, amount FROM orders ORDER BY id',
      });
      expect(preview.columns).toEqual(['region', 'amount']);
      expect(preview.rows).toHaveLength(100);
      expect(preview.rows[0]).toEqual(['South', '1.25']);
      const bad = await s.call('POST', `/api/app/analytics/${app}/sources/preview`, {
        body: { connectionId: conn.id, query: 'SELECT nosuch FROM orders' },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.errorDetails![0].field).toBe('body.query');

      await s.ok('PUT', `/api/app/analytics/${app}/sources`, {
        sources: [{ name: 'orders', connectionId: conn.id, query: 'SELECT region FROM orders' }],
      });
      expect((await s.ok('POST', `/api/app/analytics/${app}/reload`)).rows).toBe(ROWS);
      // A query that waits a minute before its first row: cancelled while it reads.
      await s.ok('PUT', `/api/app/analytics/${app}/sources`, {
        sources: [{ name: 'orders', connectionId: conn.id, query: 'SELECT region FROM orders, pg_sleep(60)' }],
      });
      const reloading = s.ok('POST', `/api/app/analytics/${app}/reload`);
      await until(
        () => s.ok('GET', `/api/app/analytics/${app}/sources`),
        (x) => x.reloads[0]?.status === 'running',
      );
      expect(await s.ok('POST', `/api/app/analytics/${app}/reload/cancel`)).toEqual({ cancelled: true });
      expect(await reloading).toMatchObject({
        status: 'cancelled',
        message: 'Cancelled; the data before it was kept.',
      });
      expect((await s.ok('GET', `/api/app/analytics/${app}`)).rowCount).toBe(ROWS);
      expect(await s.ok('POST', `/api/app/analytics/${app}/reload/cancel`)).toEqual({ cancelled: false });
    });

    it('reloads from MariaDB and from a SQLite file, names beyond ASCII included, and says which fields a changed source dropped', async () => {
      const [shop] = (await s.ok('GET', '/api/app/data-connections', undefined, { 'name[equals]': 'Shop' })) as {
        id: string;
      }[];
      const app = await newApp('Shop floor');
      await s.ok('PUT', `/api/app/analytics/${app}/sources`, {
        sources: [{ name: 'sales', connectionId: shop.id, query: 'SELECT city, units, sold FROM sales' }],
      });
      expect(await s.ok('POST', `/api/app/analytics/${app}/reload`)).toMatchObject({ status: 'completed', rows: 3 });
      expect(Number(await sumOf(app, 'Sum(units)'))).toBe(15);
      const cities = await s.ok('POST', `/api/app/analytics/${app}/field-values`, { field: 'city' });
      expect(cities.map((c: { value: string }) => c.value).sort()).toEqual(['Oslo', 'Rome', 'Zürich']);

      const file = join(dir, 'stock.db');
      await new Promise<void>((resolve, reject) => {
        const lite = new sqlite3.Database(file, (e) => {
          if (e) return reject(e);
          lite.exec(
            "CREATE TABLE stock (item TEXT, qty INTEGER); INSERT INTO stock VALUES ('Bolt', 40), ('Nut', 60);",
            (e2) => lite.close(() => (e2 ? reject(e2) : resolve())),
          );
        });
      });
      const lite = await s.ok('POST', '/api/app/data-connections', {
        name: 'Stock file',
        kind: 'SQLite',
        filePath: file,
      });
      expect((await s.ok('POST', `/api/app/data-connections/${lite.id}/test`)).message).toMatch(
        /^Connected to SQLite 3\./,
      );
      await s.ok('PUT', `/api/app/analytics/${app}/sources`, {
        sources: [{ name: 'stock', connectionId: lite.id, query: 'SELECT item AS city, qty AS units FROM stock' }],
      });
      const changed = await s.ok('POST', `/api/app/analytics/${app}/reload`);
      expect(changed).toMatchObject({ status: 'completed', rows: 2 });
      expect(changed.message).toBe(
        'The source no longer has sold: charts, variables and reports using it need a look.',
      );
      expect(Number(await sumOf(app, 'Sum(units)'))).toBe(100);
    });

    it('associates several sources in one app: facts from PostgreSQL, a lookup adding columns by the shared one, rows of the same columns from MariaDB; a source that cannot be associated is refused by name, the data before kept', async () => {
      const byName = async (name: string) =>
        ((await s.ok('GET', '/api/app/data-connections', undefined, { 'name[equals]': name })) as { id: string }[])[0]
          .id;
      const [warehouse, shop, stock] = await Promise.all([
        byName('Sales warehouse'),
        byName('Shop'),
        byName('Stock file'),
      ]);
      const app = await newApp('Orders by manager');
      const facts = { name: 'orders', connectionId: warehouse, query: 'SELECT region, amount, day FROM orders' };
      // Named Region here, region there: columns are associated by name whatever their case.
      const managers = (query: string) => ({ name: 'managers', connectionId: stock, query });
      const late = {
        name: 'late orders',
        connectionId: shop,
        query: "SELECT 2.5 AS amount, DATE '2026-12-01' AS day, 'North' AS region",
      };
      const same = await s.call('PUT', `/api/app/analytics/${app}/sources`, {
        body: { sources: [facts, { ...late, name: 'Orders' }] },
      });
      expect(same.status).toBe(400);
      expect(same.body.errorDetails![0]).toMatchObject({ field: 'body.sources[1].name' });

      await s.ok('PUT', `/api/app/analytics/${app}/sources`, {
        sources: [
          facts,
          managers(
            "SELECT 'North' AS Region, 'Ana' AS manager UNION ALL SELECT 'South', 'Bo' UNION ALL SELECT 'East', 'Cy'",
          ),
          late,
        ],
      });
      const loaded = await s.ok('POST', `/api/app/analytics/${app}/reload`);
      // West has no manager: its 6,250 orders are loaded, their manager empty, and that is said.
      expect(loaded).toMatchObject({
        status: 'completed',
        rows: ROWS + 1,
        message: '6,250 rows found no row in managers: its columns are empty there.',
      });
      const meta = await s.ok('GET', `/api/app/analytics/${app}`);
      expect(meta.fields.map((f: { name: string }) => f.name)).toEqual(['region', 'amount', 'day', 'manager']);
      const client = new pg.Client({ host: db.socketDir, database: 'sales', user: db.user, password: PG_PASSWORD });
      await client.connect();
      const { rows } = await client.query(
        `SELECT SUM(amount)::float AS total, COUNT(*) FILTER (WHERE region = 'North')::int AS north FROM orders`,
      );
      await client.end();
      expect(Number(await sumOf(app, 'Sum(amount)'))).toBeCloseTo(rows[0].total + 2.5, 6);
      const byManager = await s.ok('POST', `/api/app/analytics/${app}/field-values`, { field: 'manager' });
      // Ana manages the North: its orders in PostgreSQL and the late one from MariaDB.
      expect(byManager.find((v: { value: string }) => v.value === 'Ana').count).toBe(rows[0].north + 1);

      for (const [query, said] of [
        [
          "SELECT 'North' AS region, 'Ana' AS manager UNION ALL SELECT 'North', 'Di'",
          'Source “managers” holds region = North more than once: the columns it shares must name one of its rows each',
        ],
        ["SELECT 'x' AS office", 'Source “managers” shares no column with the sources before it'],
      ]) {
        await s.ok('PUT', `/api/app/analytics/${app}/sources`, { sources: [facts, managers(query)] });
        const refused = await s.ok('POST', `/api/app/analytics/${app}/reload`);
        expect(refused.status).toBe('failed');
        expect(refused.message).toContain(said);
        expect((await s.ok('GET', `/api/app/analytics/${app}`)).rowCount).toBe(ROWS + 1);
      }
    });

    it('reloads from a folder of CSV and XLSX files by name pattern, one table in name order; a path or a file of other columns is refused, said', async () => {
      const folder = join(dir, 'exports');
      await mkdir(folder);
      await writeFile(join(folder, 'sales-2026-01.csv'), 'City,Units\nOslo,3\nRome,5\n');
      await writeFile(join(folder, 'sales-2026-02.csv'), 'City,Units\nZürich,7\n');
      const book = new ExcelJS.Workbook();
      const sheet = book.addWorksheet('March');
      sheet.addRows([
        ['City', 'Units'],
        ['Lima', 11],
      ]);
      await book.xlsx.writeFile(join(folder, 'sales-2026-03.xlsx'));
      await writeFile(join(folder, 'notes.csv'), 'Other\n1\n');

      const relative = await s.call('POST', '/api/app/data-connections', {
        body: { name: 'Exports', kind: 'Folder', filePath: 'exports' },
      });
      expect(relative.body.errorDetails![0]).toMatchObject({ field: 'body.filePath' });
      // A path that is not there, or not of its kind, is said at Save beside the field, not at the first reload.
      for (const [filePath, message] of [
        [join(folder, 'missing'), 'was not found on this computer: a folder that exists is needed'],
        [join(folder, 'notes.csv'), 'is a file: a folder is needed, where the files are'],
      ])
        expect(
          (await s.call('POST', '/api/app/data-connections', { body: { name: 'Exports', kind: 'Folder', filePath } }))
            .body.errorDetails,
        ).toEqual([{ field: 'body.filePath', message }]);
      const notAFile = await s.call('POST', '/api/app/data-connections', {
        body: { name: 'Shop', kind: 'SQLite', filePath: folder },
      });
      expect(notAFile.body.errorDetails).toEqual([
        { field: 'body.filePath', message: 'is a folder: the database file itself is needed' },
      ]);
      const exports = await s.ok('POST', '/api/app/data-connections', {
        name: 'Exports',
        kind: 'Folder',
        filePath: folder,
      });
      expect((await s.ok('POST', `/api/app/data-connections/${exports.id}/test`)).message).toBe(
        `Connected to a folder of 4 CSV, XLSX or JSON files: ${folder}`,
      );
      const app = await newApp('Exports');
      const outside = await s.call('PUT', `/api/app/analytics/${app}/sources`, {
        body: { sources: [{ name: 'sales', connectionId: exports.id, query: '../*.db' }] },
      });
      expect(outside.status).toBe(400);
      expect(outside.body.errorDetails![0].field).toBe('body.sources[0].query');

      await s.ok('PUT', `/api/app/analytics/${app}/sources`, {
        sources: [{ name: 'sales', connectionId: exports.id, query: 'sales-*' }],
      });
      const preview = await s.ok('POST', `/api/app/analytics/${app}/sources/preview`, {
        connectionId: exports.id,
        query: 'SALES-*',
      });
      expect(preview).toEqual({
        columns: ['City', 'Units'],
        rows: [
          ['Oslo', '3'],
          ['Rome', '5'],
          ['Zürich', '7'],
          ['Lima', '11'],
        ],
      });
      expect(await s.ok('POST', `/api/app/analytics/${app}/reload`)).toMatchObject({ status: 'completed', rows: 4 });
      expect(Number(await sumOf(app, 'Sum(Units)'))).toBe(26);

      // A file whose columns differ fails the reload, naming it; the data before stays.
      await writeFile(join(folder, 'sales-2026-04.csv'), 'Town,Units\nKyiv,1\n');
      const other = await s.ok('POST', `/api/app/analytics/${app}/reload`);
      expect(other.status).toBe('failed');
      expect(other.message).toBe(
        'sales-2026-04.csv has the columns Town, Units, not those of sales-2026-01.csv (City, Units)',
      );
      await s.ok('PUT', `/api/app/analytics/${app}/sources`, {
        sources: [{ name: 'sales', connectionId: exports.id, query: 'nomatch-*.csv' }],
      });
      const none = await s.ok('POST', `/api/app/analytics/${app}/reload`);
      expect(none.message).toBe(`no CSV, XLSX or JSON file in ${folder} matches “nomatch-*.csv”`);
      expect((await s.ok('GET', `/api/app/analytics/${app}`)).rowCount).toBe(4);
    });

    it('a server killed (SIGKILL) while a reload writes its new data restarts with the data before readable and the reload failed, said', async () => {
      const key = randomBytes(32);
      const keys = { load: async () => key, save: async () => {} };
      let t = await startTestServer({ secretKeys: keys, keepDataDir: true, schedulerTimers: false });
      try {
        const client = new pg.Client({ host: db.socketDir, database: 'sales', user: db.user, password: PG_PASSWORD });
        await client.connect();
        await client.query(
          'CREATE TABLE crash_rows AS SELECT i AS id, i % 10 AS amount FROM generate_series(1, 1000) AS i',
        );
        const conn = await t.ok('POST', '/api/app/data-connections', pgConnection());
        const app = await newApp('Crash', { on: t });
        await t.ok('PUT', `/api/app/analytics/${app}/sources`, {
          sources: [{ name: 'rows', connectionId: conn.id, query: 'SELECT id, amount FROM crash_rows' }],
        });
        expect(await t.ok('POST', `/api/app/analytics/${app}/reload`)).toMatchObject({ rows: 1000 });
        await client.query('INSERT INTO crash_rows SELECT i, i % 10 FROM generate_series(1001, 400000) AS i');
        await client.end();
        await t.stop();

        // Killed once the reload has read its rows and writes the app's new data file (81%: the import's copy).
        const child = startEngineProcess(t.dataDir, key, {
          BROADSHEET_TEST_RELOAD: app,
          BROADSHEET_TEST_PROGRESS: '81',
        });
        await child.running;
        await child.kill();

        t = await startTestServer({ dataDir: t.dataDir, secretKeys: keys, keepDataDir: true, schedulerTimers: false });
        expect((await t.ok('GET', `/api/app/analytics/${app}`)).rowCount).toBe(1000);
        expect(
          Number((await t.ok('POST', `/api/app/analytics/${app}/evaluate`, { expression: 'Sum(amount)' })).value),
        ).toBe(4500);
        const [last] = (await t.ok('GET', `/api/app/analytics/${app}/sources`)).reloads;
        expect(last).toMatchObject({
          status: 'failed',
          message: 'The server stopped during the reload; the data before it was kept.',
        });
        // And the app reloads whole again.
        expect(await t.ok('POST', `/api/app/analytics/${app}/reload`)).toMatchObject({ rows: 400000 });
      } finally {
        await t.stop();
        await rm(t.dataDir, { recursive: true, force: true });
      }
    }, 120_000);

    it('two servers on one PostgreSQL database: a cancel asked of one stops the reload the other reads', async () => {
      const admin = new pg.Client({ host: db.socketDir, database: 'sales', user: db.user, password: PG_PASSWORD });
      await admin.connect();
      await admin.query('CREATE DATABASE shared_servers');
      await admin.end();
      const files = await mkdtemp(join(tmpdir(), 'bs-live-shared-'));
      const database = {
        url: `postgresql://${db.user}:${PG_PASSWORD}@localhost/shared_servers?host=${encodeURIComponent(db.socketDir)}`,
        drop: async () => {},
      };
      const keys = { load: async () => key, save: async () => {} };
      const key = randomBytes(32);
      const servers: TestServer[] = [];
      let app = '';
      try {
        for (const nodeId of ['reader', 'asker'])
          servers.push(
            await startTestServer({ dataDir: files, database, nodeId, secretKeys: keys, keepDataDir: true }),
          );
        const [reader, asker] = servers;
        const conn = await reader.ok('POST', '/api/app/data-connections', pgConnection());
        app = await newApp('Shared', { on: reader });
        await reader.ok('PUT', `/api/app/analytics/${app}/sources`, {
          sources: [{ name: 'orders', connectionId: conn.id, query: 'SELECT region FROM orders, pg_sleep(60)' }],
        });
        const reloading = reader.ok('POST', `/api/app/analytics/${app}/reload`);
        await until(
          () => asker.ok('GET', `/api/app/analytics/${app}/sources`),
          (x) => x.reloads[0]?.status === 'running',
        );
        // A second reload asked of the other server while it runs is refused.
        expect((await asker.call('POST', `/api/app/analytics/${app}/reload`)).status).toBe(409);
        expect(await asker.ok('POST', `/api/app/analytics/${app}/reload/cancel`)).toEqual({ cancelled: true });
        expect(await reloading).toMatchObject({ status: 'cancelled' });
      } finally {
        // A reload still reading would hold its server's stop for the query's minute.
        if (app) await servers[0]?.engine.reloads.cancel(app);
        for (const t of servers) await t.stop();
        await rm(files, { recursive: true, force: true });
      }
    }, 120_000);

    it('reloads on a schedule once per slot, DST-safe: a missed stretch loads once, a schedule turned off never', async () => {
      const [conn] = (await s.ok('GET', '/api/app/data-connections', undefined, {
        'name[equals]': 'Sales warehouse',
      })) as { id: string }[];
      const client = new pg.Client({ host: db.socketDir, database: 'sales', user: db.user, password: PG_PASSWORD });
      await client.connect();
      await client.query('CREATE TABLE nightly AS SELECT i AS id, i * 1.0 AS amount FROM generate_series(1, 10) AS i');
      const app = await newApp('Nightly');
      const sources = `/api/app/analytics/${app}/sources`;
      await s.ok('PUT', sources, {
        sources: [{ name: 'nightly', connectionId: conn.id, query: 'SELECT id, amount FROM nightly' }],
      });
      const schedulePath = `/api/app/analytics/${app}/reload-schedule`;
      // The day before Paris moves its clocks forward: 02:30 does not exist on 28 March 2027.
      clock = new Date('2027-03-27T12:00:00Z');
      const forms = {
        frequency: 'Daily',
        atHour: 2,
        atMinut: 30,
        timeZone: 'Europe/Paris',
        startDate: '2027-03-01T00:00:00Z',
      };
      const weekly = await s.call('PUT', schedulePath, { body: { ...forms, frequency: 'Weekly' } });
      expect(weekly.body.errorDetails![0].field).toBe('body.weeklyDays');
      const mars = await s.call('PUT', schedulePath, { body: { ...forms, timeZone: 'Mars/Olympus' } });
      expect(mars.body.errorDetails![0].field).toBe('body.timeZone');

      const schedule = await s.ok('PUT', schedulePath, forms);
      expect(schedule.summary).toBe('Every day at 02:30 (Europe/Paris)');
      // Skipped by spring-forward, the slot loads once just after the gap (03:00 CEST), then at 02:30 again.
      expect(schedule.nextRuns.slice(0, 2)).toEqual(['2027-03-28T01:00:00.000Z', '2027-03-29T00:30:00.000Z']);
      expect((await s.ok('GET', sources)).schedule).toMatchObject({ nextFireTime: '2027-03-28T01:00:00.000Z' });

      const scheduled = async () =>
        ((await s.ok('GET', sources)).reloads as { trigger: string; status: string }[]).filter(
          (r) => r.trigger === 'schedule',
        );
      clock = new Date('2027-03-28T01:01:00Z');
      // Two looks at once (as two servers would make): the slot is loaded once.
      await Promise.all([s.engine.scheduler.tick(), s.engine.scheduler.tick()]);
      const first = await until(scheduled, (r) => r[0]?.status === 'completed');
      expect(first).toHaveLength(1);
      expect(first[0]).toMatchObject({ scheduledFor: '2027-03-28T01:00:00.000Z', rows: 10 });
      await s.engine.scheduler.tick();
      expect(await scheduled()).toHaveLength(1);

      // The database grows while the machine is off three days: the missed slots load once, with the new rows.
      await client.query('INSERT INTO nightly SELECT i, i * 1.0 FROM generate_series(11, 15) AS i');
      clock = new Date('2027-03-31T09:00:00Z');
      await s.engine.scheduler.tick();
      const second = await until(scheduled, (r) => r.length === 2 && r[0].status === 'completed');
      expect(second[0]).toMatchObject({ rows: 15, scheduledFor: '2027-03-31T00:30:00.000Z' });
      expect(Number(await sumOf(app, 'Sum(amount)'))).toBe(120);
      await client.end();

      const off = await s.ok('PUT', schedulePath, { ...forms, isActive: false });
      expect(off).toMatchObject({ isActive: false, nextFireTime: null, nextRuns: [] });
      clock = new Date('2027-04-02T09:00:00Z');
      await s.engine.scheduler.tick();
      expect(await scheduled()).toHaveLength(2);
    });
  },
);
