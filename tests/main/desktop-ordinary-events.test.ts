// Issue 40 on the desktop: Quit while a run is going asks first; "Keep running" keeps it; "Quit and
// run later" hands the run back (nothing of it mailed or kept), and the next start of the app runs
// it once, from the beginning. A data folder whose secrets key is gone (restored or copied without
// it) still starts, and says which stored passwords to enter again. The shell runs against the
// small fake of electron; the engine is real.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDesktop, type Desktop } from '../../main/desktop.js';
import { startHttpServer, type HttpServer } from '../../engine/http/server.js';
import { createFakeElectron } from './fake-electron.js';
import { ownerApi } from '../support/server-process.js';
import { until } from '../support/until.js';
import { finishedOnceAfterHandBack, ftpDrop, letterTask, lettersProject, midRun } from '../support/letters.js';

const LETTERS = 200;
const userData = mkdtempSync(join(tmpdir(), 'bs-desktop-quit-'));
let desktop: Desktop | null = null;
let http: HttpServer | null = null;

afterAll(async () => {
  await http?.close();
  await desktop?.engine.close().catch(() => undefined);
  rmSync(userData, { recursive: true, force: true });
});

/** The desktop app started on `userData`, with the API on a loopback port for the test to drive it. */
async function startApp() {
  const fake = createFakeElectron({ userData });
  desktop = (await startDesktop(fake.electron as never, { distDir: '/opt/broadsheet/dist' }))!;
  http = await startHttpServer(desktop.engine, { port: 0 });
  return { fake, api: ownerApi(http.url, await desktop.engine.issueOwnerKey()) };
}

describe('quitting the desktop app while a run is going', () => {
  it('asks; Keep running keeps it; Quit hands it back; the next start runs it once', async () => {
    let { fake, api } = await startApp();
    const { projectId, reportId } = await lettersProject(api, { appId: 'quit', customers: LETTERS, type: 'Word' });
    const task = { id: await letterTask(api, projectId, reportId, 'Pdf') };
    const run = await api.ok('POST', `/api/v2/requests/${task.id}/run`);
    const mid = await until(
      () => api.ok('GET', `/api/v1/ondemand/requests/${run.id}`),
      midRun(3, (r) => r.progress.done),
      300_000,
    );
    expect(mid.status).toBe('running');

    // Asked, and kept: nothing stops.
    fake.electron.dialog.answers.push(0);
    expect(await desktop!.quit()).toBe(false);
    const asked = fake.electron.dialog.shown.at(-1)!;
    expect(asked.message).toMatch(/A run is going\. If you quit now, it stops and starts again from the beginning/);
    expect(asked.buttons).toEqual(['Keep running', 'Quit and run later']);
    expect(fake.app.quitCalled).toBe(0);
    expect((await api.ok('GET', `/api/v1/ondemand/requests/${run.id}`)).status).toBe('running');

    // Asked again, and quit: the run goes back to the queue.
    fake.electron.dialog.answers.push(1);
    await http!.close();
    http = null;
    expect(await desktop!.quit()).toBe(true);
    expect(fake.app.quitCalled).toBe(1);
    desktop = null;
    const logFile = join(userData, 'logs', 'requests', `${run.id}.log`);
    expect(readFileSync(logFile, 'utf8')).toMatch(/Handed back: the server \(local\) stopped cleanly/);

    // The next start finishes it, once.
    ({ fake, api } = await startApp());
    await finishedOnceAfterHandBack(api, run.id, logFile, LETTERS);
    // No run going: Quit does not ask.
    const shown = fake.electron.dialog.shown.length;
    await http!.close();
    http = null;
    expect(await desktop!.quit()).toBe(true);
    desktop = null;
    expect(fake.electron.dialog.shown).toHaveLength(shown);
  }, 900_000);
});

describe('a data folder started without its secrets key', () => {
  it('starts, and says which stored passwords to enter again', async () => {
    const { api } = await startApp();
    await api.ok('POST', '/api/v1/storage-services', ftpDrop('ftp-secret'));
    await api.ok('POST', '/api/v1/mail-servers', {
      name: 'Office mail',
      fromName: 'Broadsheet',
      fromAddress: 'reports@example.com',
      hostName: '127.0.0.1',
      smtpPort: 9,
      ssl: false,
      userName: 'reports',
      password: 'smtp-secret',
    });
    await http!.close();
    http = null;
    expect(await desktop!.quit()).toBe(true);
    desktop = null;
    // Restored on another computer: the folder came, its key (kept by the OS keyring) did not.
    unlinkSync(join(userData, 'secret.key.enc'));
    const { fake } = await startApp();
    // Every sealed column is read, in the order a person is told them.
    expect(desktop!.engine.secretsToReenter).toEqual([
      'mail server “Office mail” (password)',
      'storage service “Drop” (password)',
    ]);
    await until(
      () => fake.electron.dialog.shown,
      (d) => d.some((x) => x.title === 'Some stored passwords must be entered again'),
    );
    const told = fake.electron.dialog.shown.find((x) => x.title === 'Some stored passwords must be entered again')!;
    expect(told.message).toContain('storage service “Drop” (password)');
  });
});
