// Microsoft SQL Server as a data connection, against a real server: tedious cannot be proven without
// one, and none runs on the machines this product is built on, so this file runs only where
// BROADSHEET_TEST_SQLSERVER names one — `host:port/database` with BROADSHEET_TEST_SQLSERVER_USER and
// BROADSHEET_TEST_SQLSERVER_PASSWORD (a user who may create a table in that database). Elsewhere it
// is skipped, and the closing notes say so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';

const where = process.env.BROADSHEET_TEST_SQLSERVER;
const ROOT = '00000000-0000-0000-0000-000000000000';
let s: TestServer;

describe.skipIf(!where)('SQL Server as a data connection (BROADSHEET_TEST_SQLSERVER)', () => {
  const [, host, port, database] = /^([^:/]+):?(\d*)\/(.+)$/.exec(where ?? '') ?? [];
  const connection = (over: Record<string, unknown> = {}) => ({
    name: 'SQL Server',
    kind: 'SQLServer',
    host,
    port: port ? Number(port) : undefined,
    database,
    username: process.env.BROADSHEET_TEST_SQLSERVER_USER,
    password: process.env.BROADSHEET_TEST_SQLSERVER_PASSWORD,
    tls: 'require',
    ...over,
  });
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('tests the connection, says a wrong password in words, and reloads an app whose sums equal the server’s', async () => {
    const good = await s.ok('POST', '/api/app/data-connections', connection());
    expect((await s.ok('POST', `/api/app/data-connections/${good.id}/test`)).message).toMatch(
      /^Connected to SQL Server \d+/,
    );
    const wrong = await s.ok('POST', '/api/app/data-connections', connection({ name: 'Wrong', password: 'nope' }));
    const refused = await s.call('POST', `/api/app/data-connections/${wrong.id}/test`);
    expect(refused.body.errorDetails![0].field).toBe('password');

    const app = (
      await s.ok('POST', '/api/v1/analytics-apps', {
        appId: 'sqlserver',
        name: 'From SQL Server',
        folderId: ROOT,
        folderPath: '/',
        allowAnalyticsSenseApp: false,
        allowMashup: false,
        defaultOpen: 'x',
      })
    ).id;
    // 5,000 generated rows (no table needed): n from 1, amount n % 97.
    const query = `WITH n AS (SELECT TOP 5000 ROW_NUMBER() OVER (ORDER BY (SELECT NULL)) AS n FROM sys.all_objects a CROSS JOIN sys.all_objects b)
      SELECT n, n % 97 AS amount, CAST(DATEADD(day, n % 300, '2026-01-01') AS date) AS day FROM n`;
    await s.ok('PUT', `/api/app/analytics/${app}/sources`, { sources: [{ name: 'n', connectionId: good.id, query }] });
    expect(await s.ok('POST', `/api/app/analytics/${app}/reload`)).toMatchObject({ status: 'completed', rows: 5000 });
    let sum = 0;
    for (let n = 1; n <= 5000; n++) sum += n % 97;
    const value = (await s.ok('POST', `/api/app/analytics/${app}/evaluate`, { expression: 'Sum(amount)' })).value;
    expect(Number(value)).toBe(sum);
  });
});
