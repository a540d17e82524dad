// `serve --database`, as an operator starts it (docs/SERVERS.md): the built server, two processes at
// once on one PostgreSQL database (Debian's, started here) and one shared folder — one by flags, one
// by a settings file. One owner key and one secrets key are written between them, the key works on
// both, a run asked of one goes through pg-boss and runs once, the database's password is never
// printed, and settings that cannot work are refused by name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PG_USER, startPostgres, type TestPostgres } from '../support/postgres.js';
import { SERVE, serveRefused as refused } from '../support/serve-cli.js';
import { until } from '../support/until.js';
import { ROOT_FOLDER } from '../support/samples.js';
import pg from 'pg';

let cluster: TestPostgres;
let files: string;
let url: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  cluster = await startPostgres();
  files = mkdtempSync(join(tmpdir(), 'bs-serve-database-'));
  // Trust authentication takes no password; one is given so the test can look for it in the output.
  url = `postgresql://${PG_USER}:s3cret-word@localhost/${cluster.database}?host=${encodeURIComponent(cluster.socketDir)}`;
}, 60_000);

afterAll(async () => {
  for (const c of children)
    if (c.exitCode === null && c.signalCode === null) {
      const exited = new Promise((r) => c.once('exit', r));
      c.kill('SIGTERM');
      await exited;
    }
  await cluster?.close();
  if (files) rmSync(files, { recursive: true, force: true });
});

/** Starts `serve` and answers its address and what it printed once it serves. */
function serve(args: string[]): Promise<{ address: string; output: string }> {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, [SERVE, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(c);
    let output = '';
    const onData = (b: Buffer) => {
      output += b.toString();
      const m = /serving (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (m) resolve({ address: m[1], output });
    };
    c.stdout!.on('data', onData);
    c.stderr!.on('data', onData);
    c.on('exit', (code) => reject(new Error(`serve exited with ${code}:\n${output}`)));
  });
}

describe('serve --database', () => {
  it('starts two servers on one database and folder, with one owner key and one secrets key between them', async () => {
    const settings = join(files, 'second.json');
    writeFileSync(settings, JSON.stringify({ database: url, files, 'node-id': 'second' }));
    const [first, second] = await Promise.all([
      serve(['--database', url, '--files', files, '--node-id', 'first']),
      serve(['--settings', settings]),
    ]);
    expect(first.output).toContain('node first');
    expect(second.output).toContain('node second');
    for (const { output } of [first, second]) {
      expect(output).toContain(`postgresql://${PG_USER}:***@localhost/`);
      expect(output).not.toContain('s3cret-word');
    }
    const ownerKey = readFileSync(join(files, 'owner-api-key'), 'utf8').trim();
    expect([first.output, second.output].filter((o) => o.includes('Owner API key written'))).toHaveLength(1);
    expect(statSync(join(files, 'secret.key')).mode & 0o777).toBe(0o600);
    for (const { address } of [first, second]) {
      const me = await fetch(`${address}/api/app/auth/me`, { headers: { authorization: `Bearer ${ownerKey}` } });
      expect(me.status).toBe(200);
      expect(((await me.json()) as any).data.user.isTenantOwner).toBe(true);
    }
    // A group made on one is listed by the other.
    const made = await fetch(`${first.address}/api/v1/groups`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ownerKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Made on the first', isActive: true }),
    });
    expect(made.status).toBe(200);
    const listed = (await (
      await fetch(`${second.address}/api/v1/groups?get_all=true`, { headers: { authorization: `Bearer ${ownerKey}` } })
    ).json()) as any;
    expect(listed.data.map((g: { name: string }) => g.name)).toContain('Made on the first');

    // A run asked of the second is handed out through pg-boss, as its job, and runs once.
    const call = async (address: string, method: string, path: string, body?: unknown) => {
      const res = await fetch(`${address}${path}`, {
        method,
        headers: { authorization: `Bearer ${ownerKey}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as any).data;
    };
    const app = await call(first.address, 'POST', '/api/v1/analytics-apps', {
      appId: 'built',
      name: 'Built',
      folderId: ROOT_FOLDER,
      folderPath: '/',
      allowAnalyticsSenseApp: false,
      allowMashup: false,
      defaultOpen: 'Main',
    });
    await call(first.address, 'POST', `/api/app/analytics/${app.id}/import`, {
      fileName: 'sales.csv',
      content: 'Region,Sales\nNorth,1\nSouth,2\n',
    });
    const project = await call(first.address, 'POST', '/api/app/projects', { name: 'Built' });
    await call(first.address, 'POST', '/api/app/connections', {
      projectId: project.id,
      name: 'Data',
      analyticsAppId: app.id,
    });
    const report = await call(first.address, 'POST', '/api/v2/reports', {
      name: 'Note',
      projectID: project.id,
      type: 'Html',
    });
    const task = await call(first.address, 'POST', '/api/v2/tasks', { name: 'Note', projectID: project.id });
    await call(first.address, 'PUT', `/api/v2/tasks/${task.id}/reports`, {
      reportID: report.id,
      format: 'Html',
      emailEmbedment: false,
      emailAttachment: false,
    });
    const run = await call(second.address, 'POST', `/api/v2/requests/${task.id}/run`);
    const db = new pg.Client({ host: cluster.socketDir, user: PG_USER, database: cluster.database });
    await db.connect();
    try {
      const [done] = await until(
        async () => (await db.query('SELECT status, attempts, message FROM requests WHERE id = $1', [run.id])).rows,
        ([r]) => !!r && !['queued', 'running'].includes(r.status),
        60_000,
      );
      expect(done).toEqual({ status: 'completed', attempts: 1, message: null });
      const jobs = await db.query("SELECT state FROM pgboss.job WHERE name = 'broadsheet-requests' AND id = $1", [
        run.id,
      ]);
      expect(jobs.rows).toEqual([{ state: 'completed' }]);
    } finally {
      await db.end();
    }
  }, 120_000);

  it('refuses settings that cannot work, naming them', async () => {
    const wrongDatabase = await refused(['--database', 'mysql://x@y/z', '--files', files]);
    expect(wrongDatabase.code).toBe(1);
    expect(wrongDatabase.output).toContain('--database must be a PostgreSQL URL');
    const wrongNode = await refused(['--database', url, '--files', files, '--node-id', 'no spaces, please']);
    expect(wrongNode.output).toContain('--node-id must be 1 to 64 letters');
    const settings = join(files, 'typo.json');
    writeFileSync(settings, JSON.stringify({ databse: url }));
    const typo = await refused(['--settings', settings]);
    expect(typo.output).toContain('unknown setting databse');
    writeFileSync(settings, '{ not json');
    expect((await refused(['--settings', settings])).output).toContain('could not be read as JSON');
  }, 60_000);
});
