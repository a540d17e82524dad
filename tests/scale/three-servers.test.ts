// Issue 26: three servers, each a process of its own, on one PostgreSQL database (Debian's, started
// here on a Unix socket) and one shared files folder. Started together, they migrate and set up the
// first start once between them. 200 schedules over 6 slots fire exactly once each and every run
// runs once, spread over the three; 1,000 mails arrive once each though one server is killed with
// SIGKILL in the middle of the send (only messages in flight go again, with the same Message-ID);
// and a server killed in the middle of a 600-file run has its run finished by another, whole.
// The servers' clocks are the test's (each runs ahead of real time by what the test sets), so a
// lease lapses when the test says and not before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { postgresUrl, startPostgres, type TestPostgres } from '../support/postgres.js';
import { ownerApi, startServerProcess, type ServerProcess } from '../support/server-process.js';
import { startSmtp, type TestSmtp, addLoopbackMailServer } from '../support/smtp.js';
import { until } from '../support/until.js';
import { ROOT_FOLDER } from '../support/samples.js';

const SCHEDULES = 200;
const SLOTS = 6;
const MAILS = 1000;
const FILES = 600;
const LEASE_MS = 600_000;
const HOUR = 3_600_000;

let cluster: TestPostgres;
let db: pg.Client;
let smtp: TestSmtp;
let files: string;
let servers: ServerProcess[] = [];
/** How far ahead of real time every live server's clock runs. */
let offset = 0;
let api: ReturnType<typeof ownerApi>;
let projectId: string;
let orgId: string;
let appRowId: string;

const live = () => servers;
const rows = async <T = any>(text: string, params: unknown[] = []) => (await db.query(text, params)).rows as T[];
/** Every live server's clock moved to `offset` ahead of real time. */
const setClocks = async (ms: number) => {
  offset = ms;
  await Promise.all(live().map((s) => s.command('clock', ms)));
};
/** Kills a server as a crash would; the survivors' clocks pass its lease, they renew theirs and take its work. */
const crash = async (victim: ServerProcess) => {
  await victim.kill();
  servers = servers.filter((s) => s !== victim);
  api = ownerApi(servers[0].url, await servers[0].command('owner'));
  await setClocks(offset + LEASE_MS + 1_000);
  for (const s of live()) await s.command('renew');
  let taken = 0;
  for (const s of live()) taken += Number(await s.command('recover'));
  return taken;
};

beforeAll(async () => {
  cluster = await startPostgres();
  db = new pg.Client({ host: cluster.socketDir, user: cluster.user, database: cluster.database });
  await db.connect();
  smtp = await startSmtp();
  files = mkdtempSync(join(tmpdir(), 'bs-three-servers-'));
  const key = randomBytes(32);
  const database = postgresUrl(cluster.socketDir, cluster.database);
  // Started together: the first start and the migrations are made once between them.
  servers = await Promise.all(
    ['one', 'two', 'three'].map((nodeId) => startServerProcess({ dataDir: files, database, nodeId, key })),
  );
  api = ownerApi(servers[0].url, await servers[0].command('owner'));
  orgId = (await api.ok('GET', '/api/v1/organizations', undefined, { get_all: 'true' })).find(
    (o: any) => o.displayName === 'Default',
  ).id;
  const app = await api.ok('POST', '/api/v1/analytics-apps', {
    appId: 'three-servers',
    name: 'Three servers',
    folderId: ROOT_FOLDER,
    folderPath: '/',
    allowAnalyticsSenseApp: false,
    allowMashup: false,
    defaultOpen: 'Main',
  });
  appRowId = app.id;
  const customers = Array.from({ length: FILES }, (_, i) => `Customer ${String(i).padStart(3, '0')},${i + 1}`);
  await api.ok('POST', `/api/app/analytics/${app.id}/import`, {
    fileName: 'customers.csv',
    content: `Customer,Sales\n${customers.join('\n')}\n`,
  });
  projectId = (await api.ok('POST', '/api/app/projects', { name: 'Shared' })).id;
  await api.ok('POST', '/api/app/connections', { projectId, name: 'Data', analyticsAppId: app.id });
  await addLoopbackMailServer(api, smtp);
}, 240_000);

afterAll(async () => {
  for (const s of servers) await s.stop().catch(() => {});
  await db?.end();
  await smtp?.close();
  await cluster?.close();
  if (files) rmSync(files, { recursive: true, force: true });
});

/** A task making one small HTML report, mailed as an attachment when it has recipients. */
async function htmlTask(name: string) {
  const report = await api.ok('POST', '/api/v2/reports', { name, projectID: projectId, type: 'Html' });
  const task = await api.ok('POST', '/api/v2/tasks', { name, projectID: projectId });
  await api.ok('PUT', `/api/v2/tasks/${task.id}/reports`, {
    reportID: report.id,
    format: 'Html',
    emailEmbedment: false,
    emailAttachment: true,
  });
  return task.id as string;
}

/** A task making one letter per customer (600 files) in the given format. */
async function letterTask(format: 'Html' | 'Pdf', name = `Letters ${format}`) {
  const field = (await api.ok('GET', `/api/app/analytics/${appRowId}`)).fields.find(
    (f: { name: string }) => f.name === 'Customer',
  );
  const letter = await api.ok('POST', '/api/v2/reports', {
    name,
    projectID: projectId,
    type: format === 'Pdf' ? 'Word' : 'Html',
  });
  await api.ok('PUT', `/api/v2/reports/${letter.id}`, {
    name,
    isIteration: true,
    iterationFields: [{ fieldID: field.id, order: 0 }],
  });
  const task = await api.ok('POST', '/api/v2/tasks', { name, projectID: projectId });
  await api.ok('PUT', `/api/v2/tasks/${task.id}/reports`, {
    reportID: letter.id,
    format,
    emailEmbedment: false,
    emailAttachment: false,
  });
  return task.id as string;
}

describe('three servers on one PostgreSQL database', () => {
  it('set up one tenant between them, though they started together', async () => {
    const [{ n: owners }] = await rows('SELECT COUNT(*)::int AS n FROM users WHERE "isTenantOwner" = TRUE');
    const [{ n: orgs }] = await rows("SELECT COUNT(*)::int AS n FROM organizations WHERE name = 'Default'");
    const [{ n: steps }] = await rows('SELECT COUNT(*)::int AS n FROM migrations');
    expect({ owners, orgs }).toEqual({ owners: 1, orgs: 1 });
    expect(steps).toBeGreaterThan(0);
  });

  it('publishes an import on one server as a new version the others read at once, keeping one version before it', async () => {
    const rowsOf = async (server: ServerProcess) =>
      (await ownerApi(server.url, await server.command('owner')).ok('GET', `/api/app/analytics/${appRowId}`)).rowCount;
    // Every server has the app open before the import.
    expect(await Promise.all(servers.map(rowsOf))).toEqual([FILES, FILES, FILES]);
    const customers = Array.from({ length: FILES + 1 }, (_, i) => `Customer ${String(i).padStart(3, '0')},${i + 1}`);
    await api.ok('POST', `/api/app/analytics/${appRowId}/import`, {
      fileName: 'more.csv',
      content: `Customer,Sales\n${customers.join('\n')}\n`,
    });
    expect(await Promise.all(servers.map(rowsOf))).toEqual([FILES + 1, FILES + 1, FILES + 1]);
    // Back to the 600 the runs below make letters for, from another server.
    await ownerApi(servers[2].url, await servers[2].command('owner')).ok(
      'POST',
      `/api/app/analytics/${appRowId}/import`,
      { fileName: 'customers.csv', content: `Customer,Sales\n${customers.slice(0, FILES).join('\n')}\n` },
    );
    expect(await Promise.all(servers.map(rowsOf))).toEqual([FILES, FILES, FILES]);
    const versions = readdirSync(join(files, 'apps', 'three-servers')).filter((f) => /^data.*\.duckdb$/.test(f));
    expect(versions).toHaveLength(2);
    expect(versions.every((f) => /^data-[a-z0-9]+-[0-9a-f]{8}\.duckdb$/.test(f))).toBe(true);
  });

  it('refuses a data-folder backup, naming what backs a shared database up', async () => {
    const res = await fetch(`${servers[1].url}/api/app/backups`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await servers[1].command('owner')}`, 'content-type': 'application/json' },
      body: JSON.stringify({}),
    });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: string }).error).toContain('pg_dump');
  });

  it('counts wrong passwords tried on all three servers as one server would', async () => {
    await api.ok('POST', '/api/v1/users', {
      firstName: 'Guessed',
      lastName: 'At',
      email: 'guessed@example.com',
      password: 'the-right-password-1',
      isActive: true,
      organizations: [{ id: orgId }],
    });
    const login = (server: ServerProcess, password: string) =>
      fetch(`${server.url}/api/app/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'guessed@example.com', password }),
      });
    // Five free tries from one address, spread over the three servers.
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) codes.push((await login(servers[i % 3], `wrong-${i}`)).status);
    expect(codes).toEqual([401, 401, 401, 401, 401]);
    // The third server failed one of them itself; it holds the account back as the others tell it.
    await until(
      async () => Number(await servers[2].command('waits', 'guessed@example.com')),
      (ms) => ms > 0,
      30_000,
    );
    const sixth = await login(servers[2], 'the-right-password-1');
    expect(sixth.status).toBe(429);
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('links the servers again when the database drops their listening connections', async () => {
    const listening = async () =>
      (
        await rows<{ pid: number }>(
          "SELECT pid FROM pg_stat_activity WHERE query = 'LISTEN broadsheet' AND state = 'idle'",
        )
      ).map((r) => r.pid);
    const before = await listening();
    expect(before).toHaveLength(servers.length);
    await rows("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN broadsheet'");
    // A terminated backend leaves pg_stat_activity a moment after it is told to: the servers are
    // linked again when as many listen as there are servers, on connections none of which is old.
    await until(listening, (pids) => pids.length === servers.length && !pids.some((p) => before.includes(p)), 60_000);
    // What one server sees travels to the others again: a wrong password on the first holds the account on the second.
    const wrong = () =>
      fetch(`${servers[0].url}/api/app/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'relinked@example.com', password: 'wrong' }),
      });
    for (let i = 0; i < 5; i++) expect((await wrong()).status).toBe(401);
    await until(
      async () => Number(await servers[1].command('waits', 'relinked@example.com')),
      (ms) => ms > 0,
      30_000,
    );
  });

  it('fires 200 schedules over 6 slots exactly once each, and runs every run once, on all three', async () => {
    const t0 = Math.ceil((Date.now() + HOUR) / HOUR) * HOUR;
    const triggers: string[] = [];
    for (let i = 0; i < SCHEDULES; i++) {
      const task = await htmlTask(`Scheduled ${i}`);
      const trigger = await api.ok('POST', `/api/v1/tasks/${task}/triggers/schedules`, {
        name: 'Hourly',
        frequency: 'Hourly',
        everyHours: 1,
        fromHour: 0,
        fromMinut: 0,
        toHour: 23,
        toMinut: 59,
        startDate: new Date(t0).toISOString(),
        timeZone: 'UTC',
      });
      triggers.push(trigger.id);
    }
    for (let slot = 0; slot < SLOTS; slot++) {
      await setClocks(t0 + slot * HOUR + 30_000 - Date.now());
      // All three schedulers look at once, twice over.
      for (let round = 0; round < 2; round++) await Promise.all(live().map((s) => s.command('tick')));
      const [{ n }] = await rows('SELECT COUNT(*)::int AS n FROM requests WHERE "triggerId" = ANY($1)', [triggers]);
      expect(n).toBe(SCHEDULES * (slot + 1));
    }
    const slots = await rows<{ triggerId: string; n: number }>(
      'SELECT "triggerId", COUNT(DISTINCT "scheduledFor")::int AS n FROM requests WHERE "triggerId" = ANY($1) GROUP BY "triggerId"',
      [triggers],
    );
    expect(slots).toHaveLength(SCHEDULES);
    expect(slots.every((s) => s.n === SLOTS)).toBe(true);
    const done = await until(
      () =>
        rows<{ status: string; attempts: number }>(
          'SELECT status, attempts FROM requests WHERE "triggerId" = ANY($1)',
          [triggers],
        ),
      (r) => r.every((x) => !['queued', 'running'].includes(x.status)),
      600_000,
    );
    expect(done.filter((r) => r.status !== 'completed')).toEqual([]);
    expect(done.every((r) => r.attempts === 1)).toBe(true);
    // Every run went through pg-boss: one job each, by the run's id, all done; none left waiting.
    const jobs = await rows<{ state: string; n: number }>(
      `SELECT j.state, COUNT(*)::int AS n FROM pgboss.job j JOIN requests r ON r.id = j.id::text
       WHERE j.name = 'broadsheet-requests' AND r."triggerId" = ANY($1) GROUP BY j.state`,
      [triggers],
    );
    expect(jobs).toEqual([{ state: 'completed', n: SCHEDULES * SLOTS }]);
    const started = await Promise.all(live().map(async (s) => Number(await s.command('started'))));
    expect(started.reduce((a, b) => a + b, 0)).toBe(SCHEDULES * SLOTS);
    expect(started.every((n) => n > 0)).toBe(true);
    console.log(`three servers: runs started by each ${started.join(' / ')}`);
  }, 900_000);

  it('sends 1,000 mails once each though a server is killed mid-send; only mail in flight goes again, same Message-ID', async () => {
    const users: string[] = [];
    for (let i = 0; i < MAILS; i += 10)
      users.push(
        ...(await Promise.all(
          Array.from({ length: 10 }, async (_, j) => {
            const u = await api.ok('POST', '/api/v1/users', {
              firstName: 'Reader',
              lastName: `${i + j}`,
              email: `reader${i + j}@example.com`,
              isActive: true,
              organizations: [{ id: orgId }],
            });
            return u.id as string;
          }),
        )),
      );
    const task = await htmlTask('Big send');
    await api.ok(
      'PUT',
      `/api/v2/tasks/${task}/recipients`,
      users.map((id) => ({ id, type: 'user' })),
    );
    await api.ok('PUT', `/api/v2/tasks/${task}/email`, {
      from: 'reports@example.com',
      subject: 'Big send',
      isActive: true,
    });
    const before = smtp.received.length;
    const run = await api.ok('POST', `/api/v2/requests/${task}/run`);
    const sent = () => smtp.received.length - before;
    await until(sent, (n) => n >= MAILS / 4, 300_000);
    // The server sending the most right now goes down.
    const [{ claimedBy }] = await rows<{ claimedBy: string }>(
      `SELECT "claimedBy" FROM outbox WHERE "requestId" = $1 AND "claimedBy" IS NOT NULL
       GROUP BY "claimedBy" ORDER BY COUNT(*) DESC LIMIT 1`,
      [run.id],
    );
    const victim = servers.find((s) => s.nodeId === claimedBy)!;
    const inFlight = await rows<{ messageId: string }>(
      'SELECT "messageId" FROM outbox WHERE "requestId" = $1 AND "claimedBy" = $2',
      [run.id, claimedBy],
    );
    await crash(victim);
    const outbox = await until(
      () => rows<{ status: string }>('SELECT status FROM outbox WHERE "requestId" = $1', [run.id]),
      (r) => r.length === MAILS && r.every((m) => m.status === 'sent'),
      300_000,
    );
    expect(outbox).toHaveLength(MAILS);
    const mine = smtp.received.slice(before).filter((m) => m.parsed.subject === 'Big send');
    const recipients = new Set(mine.flatMap((m) => m.envelopeTo));
    expect(recipients.size).toBe(MAILS);
    const byMessageId = new Map<string, number>();
    for (const m of mine) byMessageId.set(m.parsed.messageId!, (byMessageId.get(m.parsed.messageId!) ?? 0) + 1);
    expect(byMessageId.size).toBe(MAILS);
    // A message that arrived twice was one the killed server held, sent again under its own Message-ID:
    // held when the test looked before the kill, or claimed by it in the moment between (the takeover
    // marks every message it finds held by the dead server uncertain).
    const retaken = await rows<{ messageId: string }>(
      'SELECT "messageId" FROM outbox WHERE "requestId" = $1 AND uncertain = TRUE',
      [run.id],
    );
    const held = new Set([...inFlight, ...retaken].map((m) => m.messageId));
    const twice = [...byMessageId].filter(([, n]) => n > 1);
    expect(twice.every(([id, n]) => n === 2 && held.has(id))).toBe(true);
    console.log(`three servers: ${mine.length} mails for ${MAILS}, ${twice.length} in flight at the kill sent again`);
  }, 900_000);

  it("stops a run another server holds when asked on this one, and this one's event stream follows it there", async () => {
    const letters = await letterTask('Pdf');
    const run = await api.ok('POST', `/api/v2/requests/${letters}/run`);
    const [{ claimedBy }] = await until(
      () =>
        rows<{ claimedBy: string; progressDone: number }>(
          'SELECT "claimedBy", "progressDone" FROM requests WHERE id = $1',
          [run.id],
        ),
      ([r]) => !!r && r.progressDone >= 5,
      300_000,
    );
    const other = servers.find((s) => s.nodeId !== claimedBy)!;
    const otherApi = ownerApi(other.url, await other.command('owner'));
    // A screen on the other server, listening to its event stream.
    const stream = new AbortController();
    const res = await fetch(`${other.url}/api/app/events`, {
      headers: { authorization: `Bearer ${await other.command('owner')}` },
      signal: stream.signal,
    });
    const seen: { status: string; progressDone: number }[] = [];
    const reading = (async () => {
      const reader = res.body!.getReader();
      let text = '';
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) return;
        text += Buffer.from(value!).toString();
        for (const m of text.matchAll(/^data: (.*)$/gm)) {
          const e = JSON.parse(m[1]);
          if (e.type === 'request.changed' && e.payload.id === run.id) seen.push(e.payload);
        }
        text = text.slice(text.lastIndexOf('\n') + 1);
      }
    })();
    await until(
      () => seen.length,
      (n) => n > 0,
      60_000,
    );
    const stopped = await otherApi.ok('POST', `/api/v2/requests/${run.id}/stop`);
    expect(stopped.status).toBe('aborted');
    const [row] = await rows<{ status: string; progressDone: number }>(
      'SELECT status, "progressDone" FROM requests WHERE id = $1',
      [run.id],
    );
    expect(row.status).toBe('aborted');
    expect(row.progressDone).toBeLessThan(FILES);
    await until(
      () => seen.at(-1)?.status,
      (status) => status === 'aborted',
      60_000,
    );
    stream.abort();
    await reading;
    expect(seen.some((e) => e.status === 'running' && e.progressDone > 0)).toBe(true);
    expect(
      readdirSync(join(files, 'files', 'requests')).includes(run.id)
        ? readdirSync(join(files, 'files', 'requests', run.id))
        : [],
    ).toEqual([]);
  }, 600_000);

  it('finishes a 600-file run on another server when the one running it is killed, every file whole', async () => {
    // Each file a few milliseconds slower: 600 HTML letters could otherwise finish between two
    // looks at the run's progress on a quick machine, and the kill would land after the run.
    await Promise.all(live().map((s) => s.command('pace', 5)));
    const task = { id: await letterTask('Html') };
    const run = await api.ok('POST', `/api/v2/requests/${task.id}/run`);
    const [holder] = await until(
      () =>
        rows<{ claimedBy: string; progressDone: number }>(
          'SELECT "claimedBy", "progressDone" FROM requests WHERE id = $1',
          [run.id],
        ),
      // Killed as soon as it has files to lose, with most of the run still ahead.
      ([r]) => !!r && r.progressDone >= 10,
      300_000,
    );
    expect(holder.progressDone).toBeLessThan(FILES);
    await crash(servers.find((s) => s.nodeId === holder.claimedBy)!);
    const [done] = await until(
      () => rows<{ status: string; attempts: number }>('SELECT status, attempts FROM requests WHERE id = $1', [run.id]),
      ([r]) => !['queued', 'running'].includes(r.status),
      600_000,
    );
    expect(done).toEqual({ status: 'completed', attempts: 2 });
    const made = readdirSync(join(files, 'files', 'requests', run.id));
    expect(made.filter((n) => n.endsWith('.html'))).toHaveLength(FILES);
    await Promise.all(live().map((s) => s.command('pace', 0)));
    expect(made.filter((n) => n.endsWith('.part'))).toEqual([]);
  }, 900_000);

  // After the kill above (its 600 HTML letters run first, on a cold renderer): two servers left.
  it("runs a Serial schedule's runs of one task one after another, though every server takes jobs", async () => {
    const task = await letterTask('Html', 'Serial letters');
    const at = Math.ceil((Date.now() + offset + HOUR) / HOUR) * HOUR;
    const triggers: string[] = [];
    // Three Serial schedules of one task due in the same minute: three runs queued at once.
    for (const name of ['First', 'Second', 'Third'])
      triggers.push(
        (
          await api.ok('POST', `/api/v1/tasks/${task}/triggers/schedules`, {
            name,
            frequency: 'Hourly',
            execution: 'Serial',
            everyHours: 1,
            fromHour: 0,
            fromMinut: 0,
            toHour: 23,
            toMinut: 59,
            startDate: new Date(at).toISOString(),
            timeZone: 'UTC',
          })
        ).id,
      );
    await setClocks(at + 30_000 - Date.now());
    await Promise.all(live().map((s) => s.command('tick')));
    const runs = await until(
      () =>
        rows<{ status: string; startedDate: Date; endedDate: Date }>(
          'SELECT status, "startedDate", "endedDate" FROM requests WHERE "triggerId" = ANY($1) ORDER BY "startedDate"',
          [triggers],
        ),
      (r) => r.length === 3 && r.every((x) => !['queued', 'running'].includes(x.status)),
      600_000,
    );
    expect(runs.map((r) => r.status)).toEqual(['completed', 'completed', 'completed']);
    // Each started once the one before had ended (all servers' clocks are the same here).
    for (let i = 1; i < runs.length; i++)
      expect(runs[i].startedDate.getTime()).toBeGreaterThanOrEqual(runs[i - 1].endedDate.getTime());
  }, 900_000);
});
