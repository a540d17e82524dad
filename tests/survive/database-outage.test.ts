// Issue 40, on servers sharing PostgreSQL (each a process of its own, a cluster of this file's own):
// a server started with another secrets key refuses to start and changes nothing; PostgreSQL
// stopped for 10 s in the middle of a run leaves every server up, answering 503 with Retry-After,
// and the run completes once after the database returns, each recipient mailed once; a server paused
// (SIGSTOP) past its lease while it held a run delivers nothing when it resumes: the server that
// took the run over mails each recipient once. Mail is counted at the SMTP server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { postgresUrl, startPostgres, type TestPostgres } from '../support/postgres.js';
import { ownerApi, startServerProcess, type ServerProcess } from '../support/server-process.js';
import { addLoopbackMailServer, startSmtp, type TestSmtp } from '../support/smtp.js';
import { until } from '../support/until.js';
import { FINISHED, ftpDrop, lettersProject, mailEachOf, midRun, readers } from '../support/letters.js';
import { createEngine } from '../../engine/engine.js';
import { fileKeyStore } from '../../engine/secret-key-file.js';
import { SecretBox } from '../../engine/core/secrets.js';

const LETTERS = 40;
const LEASE_MS = 600_000;
/** How long the database stays away in the outage test (a minor update's restart). */
const OUTAGE_MS = 10_000;

let cluster: TestPostgres;
let smtp: TestSmtp;
let files: string;
let database: string;
const key = randomBytes(32);
let servers: ServerProcess[] = [];
let api: ReturnType<typeof ownerApi>;
let ownerKey: string;
let projectId: string;
let letterReportId: string;
const people: string[] = [];
let offset = 0;

/** One query on a connection of its own: the test's reads survive the database going away. */
async function rows<T = any>(text: string, params: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ host: cluster.socketDir, user: cluster.user, database: cluster.database });
  await c.connect();
  try {
    return (await c.query(text, params)).rows as T[];
  } finally {
    await c.end();
  }
}

const request = (id: string) =>
  rows<{ status: string; claimedBy: string | null; progressDone: number; attempts: number }>(
    'SELECT status, "claimedBy", "progressDone", attempts FROM requests WHERE id = $1',
    [id],
  ).then((r) => r[0]);

/** A task mailing every reader once (one mail each) when its letters (one per customer) are made; published to the hub when asked. */
async function mailedLetters(subject: string, o: { hub?: boolean } = {}) {
  const task = await api.ok('POST', '/api/v2/tasks', { name: subject, projectID: projectId });
  await api.ok('POST', `/api/v1/tasks/${task.id}/reports`, {
    reportId: letterReportId,
    format: 'Html',
    emailEmbedment: false,
    emailAttachment: false,
    publishToServiceHub: !!o.hub,
  });
  await mailEachOf(api, task.id, people, subject);
  return task.id as string;
}

/** Each reader's address, as often as the SMTP server received a mail with this subject for it. */
const delivered = (subject: string) =>
  smtp.received
    .filter((m) => m.parsed.subject === subject)
    .flatMap((m) => m.envelopeTo)
    .sort();
const everyReaderOnce = () => people.map((_, i) => `reader${i}@example.com`).sort();

/** Each reader received the run's mail once, and the outbox holds one message each, no more. */
async function expectEachReaderMailedOnce(subject: string, runId: string) {
  await until(
    () => delivered(subject),
    (d) => d.length >= people.length,
  );
  expect(delivered(subject)).toEqual(everyReaderOnce());
  const [{ n }] = await rows<{ n: string }>('SELECT COUNT(*) AS n FROM outbox WHERE "requestId" = $1', [runId]);
  expect(Number(n)).toBe(people.length);
}

/** Waits until the run has ended and its mail has left the outbox. */
async function settled(runId: string) {
  const done = await until(
    () => request(runId),
    (r) => FINISHED.includes(r.status),
    600_000,
  );
  await until(
    () => rows<{ status: string }>('SELECT status FROM outbox WHERE "requestId" = $1', [runId]),
    (r) => r.length > 0 && r.every((m) => m.status === 'sent'),
    120_000,
  );
  return done;
}

/** A run of a new letters task under way on some server, the renderer slowed so events land mid-run. */
async function runUnderWay(subject: string, o: { hub?: boolean } = {}) {
  await Promise.all(servers.map((s) => s.command('pace', 100)));
  const task = await mailedLetters(subject, o);
  const run = await api.ok('POST', `/api/v2/requests/${task}/run`);
  const mid = await until(() => request(run.id), midRun(3), 300_000);
  expect(mid.status).toBe('running');
  return { task, run, mid };
}

beforeAll(async () => {
  cluster = await startPostgres();
  smtp = await startSmtp();
  files = mkdtempSync(join(tmpdir(), 'bs-outage-'));
  database = postgresUrl(cluster.socketDir, cluster.database);
  servers = await Promise.all(
    ['one', 'two'].map((nodeId) =>
      startServerProcess({
        dataDir: files,
        database,
        nodeId,
        key,
        env: { BROADSHEET_TEST_LEASE_MS: String(LEASE_MS) },
      }),
    ),
  );
  ownerKey = await servers[0].command('owner');
  api = ownerApi(servers[0].url, ownerKey);
  const orgId = (await api.ok('GET', '/api/v1/organizations', undefined, { get_all: 'true' })).find(
    (o: any) => o.displayName === 'Default',
  ).id;
  ({ projectId, reportId: letterReportId } = await lettersProject(api, {
    appId: 'outage',
    customers: LETTERS,
    type: 'Html',
  }));
  await addLoopbackMailServer(api, smtp);
  people.push(...(await readers(api, orgId, 3)));
}, 240_000);

afterAll(async () => {
  for (const s of servers) {
    s.resume();
    await s.stop().catch(() => {});
  }
  await smtp?.close();
  await cluster?.close();
  if (files) rmSync(files, { recursive: true, force: true });
});

describe('servers sharing PostgreSQL through ordinary events', () => {
  it('refuses to start a server whose secrets key is not the database’s, changing nothing; the others’ secrets still open', async () => {
    const storage = await api.ok('POST', '/api/v1/storage-services', ftpDrop('ftp-secret'));
    const before = await rows('SELECT key, value FROM settings ORDER BY key');
    // Another key given by mistake.
    await expect(
      createEngine({
        dataDir: files,
        database,
        nodeId: 'intruder',
        demo: false,
        secretKeys: { load: async () => randomBytes(32), save: async () => {} },
      }),
    ).rejects.toThrow(
      /does not open this database's stored passwords, sealed with key [0-9a-f]{12}.*--secret-key-file/,
    );
    // No key file given, none where it looks: it says so, and makes none there.
    const elsewhere = mkdtempSync(join(tmpdir(), 'bs-outage-key-'));
    try {
      await expect(
        createEngine({
          dataDir: files,
          database,
          nodeId: 'forgetful',
          demo: false,
          secretKeys: fileKeyStore(join(elsewhere, 'secret.key'), { shared: true }),
        }),
      ).rejects.toThrow(/No secrets key was found \(the key file .*secret\.key\).*no new key was made/);
      expect(existsSync(join(elsewhere, 'secret.key'))).toBe(false);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
    expect(await rows('SELECT key, value FROM settings ORDER BY key')).toEqual(before);
    const [stored] = await rows<{ password: string }>('SELECT password FROM storage_services WHERE id = $1', [
      storage.id,
    ]);
    expect(SecretBox.of(key).open(stored.password)).toBe('ftp-secret');
    // The servers that hold the right key go on: one saves a secret, the other's key opens it.
    await api.ok('PUT', `/api/v2/storage-services/${storage.id}`, ftpDrop('ftp-secret-2'));
    const [again] = await rows<{ password: string }>('SELECT password FROM storage_services WHERE id = $1', [
      storage.id,
    ]);
    expect(SecretBox.of(key).open(again.password)).toBe('ftp-secret-2');
  });

  it('stays up while PostgreSQL is stopped mid-run: calls answer 503 with Retry-After; the run completes once after, each mail once', async () => {
    const subject = 'After the outage';
    const { run, mid } = await runUnderWay(subject);
    const down = Date.now();
    await cluster.stop();
    const during = await fetch(`${servers[1].url}/api/v1/ondemand/requests/${run.id}`, {
      headers: { authorization: `Bearer ${ownerKey}` },
    });
    expect(during.status).toBe(503);
    expect(Number(during.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await during.json()).error).toMatch(/database cannot be reached/);
    // The run's holder notices (its progress, its outcome or its restart waits for the database).
    await until(
      async () => Number(await servers.find((s) => s.nodeId === mid.claimedBy)!.command('logged', 'database')),
      (n) => n > 0,
      120_000,
    );
    await until(
      () => Date.now() - down,
      (ms) => ms >= OUTAGE_MS,
      OUTAGE_MS + 5_000,
    );
    expect(servers.every((s) => s.alive())).toBe(true);
    await cluster.start();
    await Promise.all(servers.map((s) => s.command('pace', 0)));
    const done = await settled(run.id);
    expect(done.status).toBe('completed');
    expect(servers.every((s) => s.alive())).toBe(true);
    await expectEachReaderMailedOnce(subject, run.id);
  }, 900_000);

  it('waits out an outage longer than its lease that comes when the run has used most of it: completes once, each mail once', async () => {
    const subject = 'After the long outage';
    const { run, mid } = await runUnderWay(subject);
    const holder = servers.find((s) => s.nodeId === mid.claimedBy)!;
    const other = servers.find((s) => s !== holder)!;
    // The run has used most of its lease (the servers' clocks move on together; the holder renews
    // first, as its heartbeat would have, so nobody takes the run over for that).
    offset += LEASE_MS - 5_000;
    await holder.command('clock', offset);
    await holder.command('renew');
    await other.command('clock', offset);
    const before = Number(await holder.command('logged', 'database'));
    await cluster.stop();
    await until(
      async () => Number(await holder.command('logged', 'database')),
      (n) => n > before,
      120_000,
    );
    // The outage outlasts the lease: the clocks pass it while the database is away, and the holder
    // looks again at least once on the moved clock (it looks every 5 s at most).
    offset += LEASE_MS + 1_000;
    await Promise.all(servers.map((s) => s.command('clock', offset)));
    const moved = Date.now();
    await until(
      () => Date.now() - moved,
      (ms) => ms >= 7_000,
      12_000,
    );
    expect(servers.every((s) => s.alive())).toBe(true);
    await cluster.start();
    await Promise.all(servers.map((s) => s.command('pace', 0)));
    const done = await settled(run.id);
    expect(done.status).toBe('completed');
    await expectEachReaderMailedOnce(subject, run.id);
  }, 900_000);

  it('delivers nothing from a server paused past its lease: the server that took the run over mails each reader once', async () => {
    const subject = 'After the pause';
    const { task, run, mid } = await runUnderWay(subject, { hub: true });
    const paused = servers.find((s) => s.nodeId === mid.claimedBy)!;
    const other = servers.find((s) => s !== paused)!;
    paused.pause();
    let completedAt = 0;
    try {
      // The other server's clock passes the paused one's lease: it takes the run over and runs it.
      offset += LEASE_MS + 1_000;
      await other.command('clock', offset);
      await other.command('pace', 0);
      await other.command('renew');
      expect(Number(await other.command('recover'))).toBeGreaterThan(0);
      const done = await settled(run.id);
      expect(done).toMatchObject({ status: 'completed', attempts: 2 });
      completedAt = Date.now();
    } finally {
      paused.resume();
    }
    await paused.command('clock', offset);
    await paused.command('pace', 0);
    // The paused server's attempt ends, finds its claim gone, and drops its outcome and mail.
    await until(
      async () => Number(await paused.command('logged', 'after another engine took it over')),
      (n) => n > 0,
      300_000,
    );
    await until(
      () => rows<{ status: string }>('SELECT status FROM outbox WHERE "requestId" = $1', [run.id]),
      (r) => r.every((m) => m.status === 'sent'),
    );
    expect((await request(run.id)).status).toBe('completed');
    await expectEachReaderMailedOnce(subject, run.id);
    // The run's log and files are the winner's alone (fencing): the paused attempt, waking up mid-work,
    // wrote no file and no line once the run was another server's; the takeover says what is known.
    const log = readFileSync(join(files, 'logs', 'requests', `${run.id}.log`), 'utf8');
    expect(log).toMatch(new RegExp(`the server running it \\(${paused.nodeId}\\) stopped answering for \\d+ s`));
    expect(log).not.toMatch(/crash or power loss|lost its claim/);
    expect(log.match(/ Ended /g)).toHaveLength(1);
    // simple-json: the files as JSON text.
    const [{ files: kept }] = await rows<{ files: string }>('SELECT files FROM requests WHERE id = $1', [run.id]);
    const recorded = JSON.parse(kept) as { name: string }[];
    expect(recorded).toHaveLength(LETTERS);
    const folder = join(files, 'files', 'requests', run.id);
    expect(readdirSync(folder).sort()).toEqual(recorded.map((f) => f.name).sort());
    // Nothing in it was written after the winner completed (the paused attempt woke up after that).
    const late = readdirSync(folder).filter((f) => statSync(join(folder, f)).mtimeMs > completedAt);
    expect(late).toEqual([]);
    // The hub shows the run's letters once: the paused attempt published nothing when it resumed.
    const [{ occurrences }] = await rows<{ occurrences: string }>(
      'SELECT COUNT(*) AS occurrences FROM hub_file_occurrences WHERE "requestId" = $1',
      [run.id],
    );
    expect(Number(occurrences)).toBe(LETTERS);
    const [{ added }] = await rows<{ added: string }>(
      `SELECT COUNT(*) AS added FROM hub_file_events e JOIN hub_files f ON f.id = e."fileId"
       WHERE f."taskId" = $1 AND e.type = 'added'`,
      [task],
    );
    expect(Number(added)).toBe(LETTERS);
  }, 900_000);
});
