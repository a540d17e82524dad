// Issue 40, on one workstation (SQLite): a clean stop (SIGTERM on `serve`, the path the desktop's
// Quit takes too) hands the run under way back, and the next start runs it once and mails once;
// a files folder that refuses writes for a while costs a retry, not the run; one that keeps
// refusing fails the run after a bounded number of retries, its log saying why.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVE } from '../support/serve-cli.js';
import { ownerApi } from '../support/server-process.js';
import { addLoopbackMailServer, startSmtp, type TestSmtp } from '../support/smtp.js';
import { until } from '../support/until.js';
import { fixtures } from '../support/samples.js';
import {
  finishedOnceAfterHandBack,
  letterTask,
  lettersProject,
  mailEachOf,
  midRun,
  readers,
} from '../support/letters.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { waitForRequest } from '../support/requests.js';
import { silentLogger } from '../../engine/engine.js';

const LETTERS = 300;

/** `npm run serve` on a data folder, as an operator starts it; stopped with SIGTERM as systemd does. */
async function serve(dataDir: string) {
  const child: ChildProcess = spawn(
    process.execPath,
    [SERVE, '--data-dir', dataDir, '--port', '0', '--owner-email', 'owner@example.com', '--stop-grace-seconds', '0'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /Broadsheet is serving (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    void exited.then((code) => reject(new Error(`serve ended (${code}) before it served: ${out}`)));
  });
  return {
    url,
    output: () => out,
    /** SIGTERM, as an operator's `systemctl stop` (and the desktop's Quit, through engine.close): the exit code. */
    async terminate() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

describe('a clean stop in the middle of a run (serve on SQLite)', () => {
  let smtp: TestSmtp;
  let dataDir: string;
  beforeAll(async () => {
    smtp = await startSmtp();
    dataDir = mkdtempSync(join(tmpdir(), 'bs-clean-stop-'));
  });
  afterAll(async () => {
    await smtp?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('hands the run back at SIGTERM; after the restart it runs once, every recipient mailed once', async () => {
    let server = await serve(dataDir);
    const key = readFileSync(join(dataDir, 'owner-api-key'), 'utf8').trim();
    let api = ownerApi(server.url, key);
    const { projectId, reportId } = await lettersProject(api, {
      appId: 'clean-stop',
      customers: LETTERS,
      type: 'Word',
    });
    const task = { id: await letterTask(api, projectId, reportId, 'Pdf') };
    await addLoopbackMailServer(api, smtp);
    const orgs = await api.ok('GET', '/api/v1/organizations', undefined, { get_all: 'true' });
    await mailEachOf(api, task.id, await readers(api, orgs[0].id, 2), 'Letters are out');
    const run = await api.ok('POST', `/api/v2/requests/${task.id}/run`);
    const mid = await until(
      () => api.ok('GET', `/api/v1/ondemand/requests/${run.id}`),
      midRun(5, (r) => r.progress.done),
      300_000,
    );
    expect(mid.status).toBe('running');
    expect(await server.terminate()).toBe(0);
    expect(server.output()).toMatch(/Stopping: 1 run under way/);
    const logFile = join(dataDir, 'logs', 'requests', `${run.id}.log`);
    expect(readFileSync(logFile, 'utf8')).toMatch(/Handed back: the server \(local\) stopped cleanly/);

    server = await serve(dataDir);
    api = ownerApi(server.url, key);
    await finishedOnceAfterHandBack(api, run.id, logFile, LETTERS);
    const mails = await until(
      () => smtp.received.filter((m) => m.parsed.subject === 'Letters are out'),
      (m) => m.length >= 2,
    );
    expect(mails.flatMap((m) => m.envelopeTo).sort()).toEqual(['reader0@example.com', 'reader1@example.com']);
    expect(await server.terminate()).toBe(0);
    // Nothing arrived after the restart's own mail: once each, not again.
    expect(smtp.received.filter((m) => m.parsed.subject === 'Letters are out')).toHaveLength(2);
  }, 900_000);
});

describe('the files folder refusing writes for a while', () => {
  let s: TestServer;
  let taskId: string;
  const requestsDir = () => join(s.dataDir, 'files', 'requests');
  /** The folder made immutable: even root (these tests' user) is refused (EPERM) until it is let go. */
  const refuseWrites = (on: boolean) => {
    const r = spawnSync('chattr', [on ? '+i' : '-i', requestsDir()], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`chattr failed: ${r.stderr}`);
  };
  /** What happens when the run says its files could not be written: the test may let the folder go. */
  let onRetry: () => void = () => undefined;

  beforeAll(async () => {
    s = await startTestServer({
      storageRetry: { tries: 2, baseMs: 50, maxMs: 100 },
      logger: {
        ...silentLogger,
        warn: (m) => {
          if (m.startsWith('A run could not write its files')) onRetry();
        },
      },
    });
    const f = await fixtures(s);
    const { projectId } = await f.make.connected();
    const report = await s.ok('POST', '/api/v2/reports', { name: 'Summary', projectID: projectId, type: 'Html' });
    taskId = (await s.ok('POST', '/api/v2/tasks', { name: 'Summary', projectID: projectId })).id;
    await s.ok('PUT', `/api/v2/tasks/${taskId}/reports`, {
      reportID: report.id,
      format: 'Html',
      emailEmbedment: false,
      emailAttachment: false,
    });
    mkdirSync(requestsDir(), { recursive: true });
  });
  afterAll(async () => {
    spawnSync('chattr', ['-i', requestsDir()]);
    await s.stop();
  });

  it('waits and starts the run again: it completes after a retry, its log saying why', async () => {
    let retries = 0;
    onRetry = () => {
      retries++;
      refuseWrites(false);
    };
    refuseWrites(true);
    const run = await s.ok('POST', `/api/v2/requests/${taskId}/run`);
    const done = await waitForRequest(s, run.id);
    expect(retries).toBe(1);
    expect(done.status).toBe('completed');
    expect(done.files).toHaveLength(1);
    const file = readFileSync(join(requestsDir(), run.id, done.files[0].name), 'utf8');
    expect(file).toContain('<html');
    const log = readFileSync(join(s.dataDir, 'logs', 'requests', `${run.id}.log`), 'utf8');
    expect(log).toMatch(/The files folder failed \(EPERM: [^)]*\); starting again in \d+ s \(retry 1 of 2\)/);
    expect(log).toMatch(/Ended completed/);
  });

  it('fails the run after its retries when the folder keeps refusing, saying why, with an end line', async () => {
    let retries = 0;
    onRetry = () => void retries++;
    refuseWrites(true);
    try {
      const run = await s.ok('POST', `/api/v2/requests/${taskId}/run`);
      const done = await waitForRequest(s, run.id);
      expect(retries).toBe(2);
      expect(done.status).toBe('failed');
      expect(done.message).toMatch(/EPERM/);
      const log = readFileSync(join(s.dataDir, 'logs', 'requests', `${run.id}.log`), 'utf8');
      expect(log).toMatch(/retry 2 of 2/);
      expect(log).toMatch(/Ended failed: .*EPERM/);
    } finally {
      refuseWrites(false);
    }
  });
});
