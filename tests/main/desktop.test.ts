import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readFile, stat } from 'node:fs/promises';
import { startDesktop, type Desktop } from '../../main/desktop.js';
import { createFakeElectron } from './fake-electron.js';
import { silentLogger } from '../../engine/engine.js';
import { DB_FILE } from '../../engine/core/db.js';
import { covers } from '../support/covers.js';

const distDir = '/opt/broadsheet/dist';
let desktop: Desktop | null = null;
const fakes: ReturnType<typeof createFakeElectron>[] = [];
afterEach(async () => {
  await desktop?.engine.close().catch(() => undefined);
  desktop = null;
  for (const f of fakes.splice(0)) f.cleanup();
});

async function start(
  opts: Parameters<typeof createFakeElectron>[0] = {},
  devServerUrl?: string,
  logger = silentLogger,
) {
  const fake = createFakeElectron(opts);
  fakes.push(fake);
  desktop = await startDesktop(fake.electron as never, { distDir, devServerUrl, logger });
  return fake;
}

function recordingLogger() {
  const warnings: string[] = [];
  return { warnings, logger: { ...silentLogger, warn: (m: string) => void warnings.push(m) } };
}

describe(
  covers(
    'desktop shell',
    'app.setup.status',
    'v1.users.list',
    'app.setup.complete',
    'app.auth.logout',
    'app.auth.login',
    'app.auth.me',
    'v1.projects.list',
    'app.projects.export',
    'v1.analyticsApps.list',
    'app.analytics.upload',
  ),
  () => {
    it('refuses redirects away from the app and answers every permission check with no', async () => {
      const fake = await start();
      const wc = fake.windows[0].webContents;
      expect(wc.attempt('will-redirect', 'https://evil.example/login')).toBe(true);
      expect(wc.attempt('will-redirect', `file://${distDir}/renderer/index.html`)).toBe(false);
      for (const permission of ['clipboard-read', 'notifications', 'media', 'geolocation'])
        expect(fake.permissionCheck()!(wc, permission)).toBe(false);
    });

    it('loads the development server only in a development build; a packaged one ignores it', async () => {
      const dev = await start({}, 'http://localhost:5173');
      expect(dev.windows[0].loaded).toBe('http://localhost:5173');
      await desktop!.engine.close();
      const packaged = await start({ packaged: true }, 'http://localhost:5173');
      expect(packaged.windows[0].loaded).toBe(`file://${distDir}/renderer/index.html`);
      // Nor does a packaged build trust a page from that server to call the engine.
      expect(
        (await packaged.invoke(packaged.windows[0], 'app.setup.status', {}, 'http://localhost:5173/')).status,
      ).toBe(403);
    });

    it.runIf(process.platform === 'linux')(
      'says so in the log at every start, and to the user once, when secrets are only obfuscated',
      async () => {
        const first = recordingLogger();
        const fake = await start({ storageBackend: 'basic_text' }, undefined, first.logger);
        expect(first.warnings.join('\n')).toMatch(/No system keyring/);
        expect(fake.electron.dialog.shown).toEqual([
          expect.objectContaining({ type: 'warning', title: 'Secrets are not encrypted on this computer' }),
        ]);
        await desktop!.engine.close();
        // The same data folder again: logged again, not asked again.
        const again = createFakeElectron({ storageBackend: 'basic_text' });
        fakes.push(again);
        again.app.getPath = () => fake.userData;
        const second = recordingLogger();
        desktop = await startDesktop(again.electron as never, { distDir, logger: second.logger });
        expect(second.warnings.join('\n')).toMatch(/No system keyring/);
        expect(again.electron.dialog.shown).toEqual([]);
      },
    );

    it('says nothing when the keyring protects the secrets', async () => {
      const logged = recordingLogger();
      const fake = await start({ storageBackend: 'gnome_libsecret' }, undefined, logged.logger);
      expect(logged.warnings).toEqual([]);
      expect(fake.electron.dialog.shown).toEqual([]);
    });

    it.runIf(process.platform !== 'win32')('keeps its data folder and database readable by the user only', async () => {
      const fake = await start();
      expect((await stat(fake.userData)).mode & 0o777).toBe(0o700);
      expect((await stat(join(fake.userData, DB_FILE))).mode & 0o777).toBe(0o600);
    });

    it('opens one window with context isolation, sandbox and no Node, loading the packaged renderer', async () => {
      const fake = await start();
      expect(fake.windows).toHaveLength(1);
      const prefs = fake.windows[0].options.webPreferences;
      expect(prefs).toMatchObject({
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        webSecurity: true,
        preload: join(distDir, 'preload', 'preload.cjs'),
      });
      expect(fake.windows[0].loaded).toBe(`file://${distDir}/renderer/index.html`);
    });

    it('denies window.open, navigation away, permission requests, and sets a strict CSP', async () => {
      const fake = await start();
      const wc = fake.windows[0].webContents;
      expect(wc.windowOpenHandler!({ url: 'https://evil.example' })).toEqual({ action: 'deny' });
      expect(wc.attempt('will-navigate', 'https://evil.example')).toBe(true);
      expect(wc.attempt('will-navigate', `file://${distDir}/renderer/index.html`)).toBe(false);
      let granted: boolean | null = null;
      fake.permission()!(wc, 'camera', (ok) => (granted = ok));
      expect(granted).toBe(false);
      let headers: Record<string, string[]> = {};
      fake.responseHeaderHooks[0]({ responseHeaders: {} }, (r) => (headers = r.responseHeaders));
      expect(headers['Content-Security-Policy'][0]).toMatch(/default-src 'none'; script-src 'self'/);
    });

    it('opens the window while the engine starts; its first call waits for the engine and is answered', async () => {
      const fake = createFakeElectron();
      fakes.push(fake);
      const starting = startDesktop(fake.electron as never, { distDir, logger: silentLogger });
      // The engine opens its database and migrates it before it answers; the window is already loading.
      let started = false;
      void starting.then(() => (started = true));
      await new Promise<void>((resolve) => {
        const look = () => (fake.windows.length ? resolve() : setImmediate(look));
        look();
      });
      expect(started).toBe(false);
      expect(fake.windows[0].loaded).toBe(`file://${join(distDir, 'renderer', 'index.html')}`);
      const first = fake.invoke(fake.windows[0], 'app.setup.status', {});
      desktop = await starting;
      expect(await first).toEqual({
        status: 200,
        envelope: expect.objectContaining({ isSuccess: true, data: { setupComplete: false } }),
      });
    });

    it('answers IPC as values: untrusted senders and unknown ids are refused before the engine runs', async () => {
      const fake = await start();
      const win = fake.windows[0];
      expect((await fake.invoke(win, 'app.setup.status', {}, 'https://evil.example/')).status).toBe(403);
      expect((await fake.invoke(win, 'v9.drop.everything', {})).status).toBe(404);
      expect((await fake.invoke(win, 42, {})).status).toBe(404);
      const ok = await fake.invoke(win, 'app.setup.status', {});
      expect(ok).toEqual({
        status: 200,
        envelope: expect.objectContaining({ isSuccess: true, data: { setupComplete: false } }),
      });
      expect((await fake.invoke(win, 'v1.users.list', {})).status).toBe(401);
    });

    it('runs first-run setup over IPC, keeps the session in main, and never hands the page a token', async () => {
      const fake = await start();
      const win = fake.windows[0];
      const setup = await fake.invoke(win, 'app.setup.complete', {
        body: { firstName: 'Dora', lastName: 'Designer', email: 'dora@example.com', password: 'dora-password-1' },
      });
      expect(setup.status).toBe(200);
      expect(JSON.stringify(setup.envelope)).not.toMatch(/bss_/);
      const users = await fake.invoke(win, 'v1.users.list', { query: { page_size: 5 } });
      expect(users.status).toBe(200);
      expect(users.envelope.data[0].email).toBe('dora@example.com');
      await fake.invoke(win, 'app.auth.logout', {});
      expect((await fake.invoke(win, 'v1.users.list', {})).status).toBe(401);
      const login = await fake.invoke(win, 'app.auth.login', {
        body: { email: 'dora@example.com', password: 'dora-password-1' },
      });
      expect(login.status).toBe(200);
      expect(login.envelope.data.token).toBeUndefined();
      expect((await fake.invoke(win, 'app.auth.me', {})).envelope.data.user.firstName).toBe('Dora');
    });

    it('sends files over IPC as base64 and pushes engine events to the window', async () => {
      const fake = await start();
      const win = fake.windows[0];
      await fake.invoke(win, 'app.setup.complete', {
        body: { firstName: 'Ed', lastName: 'Events', email: 'ed@example.com', password: 'ed-password-1' },
      });
      await desktop!.engine.demoReady;
      const [project] = (await fake.invoke(win, 'v1.projects.list', {})).envelope.data;
      const file = await fake.invoke(win, 'app.projects.export', { params: { id: project.id } });
      expect(file.envelope.data.fileName).toBe('Sales reporting (demo).broadsheet.json');
      expect(JSON.parse(Buffer.from(file.envelope.data.base64, 'base64').toString()).format).toBe('broadsheet-project');
      const [app] = (await fake.invoke(win, 'v1.analyticsApps.list', {})).envelope.data;
      // An upload's bytes cross IPC as they are (no base64): the file the app now holds.
      const uploaded = await fake.invoke(win, 'app.analytics.upload', {
        params: { id: app.id },
        query: { fileName: 'x.csv' },
        body: new TextEncoder().encode('A,B\n1,2\n3,4\n'),
      });
      expect(uploaded.status, JSON.stringify(uploaded.envelope)).toBe(200);
      expect(uploaded.envelope.data.rowCount).toBe(2);
      const asText = await fake.invoke(win, 'app.analytics.upload', {
        params: { id: app.id },
        query: { fileName: 'x.csv' },
        body: 'A,B\n1,2\n',
      });
      expect(asText.status).toBe(400);
      // Events reach the window once checked against what its user may see: waited for, not assumed.
      const events = () =>
        win.webContents.sent
          .filter((e) => e.channel === 'engine:event')
          .map((e) => (e.payload as { type: string }).type);
      await expect.poll(events).toContain('analytics.reloaded');
      expect(events()).toContain('analytics.import.progress');
    });

    it('opens a template in Office and uploads each save there as a new version, checked like any upload', async () => {
      const fake = await start();
      const win = fake.windows[0];
      await fake.invoke(win, 'app.setup.complete', {
        body: { firstName: 'Tess', lastName: 'Templates', email: 'tess@example.com', password: 'tess-password-1' },
      });
      await desktop!.engine.demoReady;
      const [project] = (await fake.invoke(win, 'v1.projects.list', {})).envelope.data;
      const created = await fake.invoke(win, 'app.reports.createFromTemplate', {
        body: { name: 'Office round trip', projectId: project.id, starter: 'Html' },
      });
      expect(created.status, JSON.stringify(created.envelope)).toBe(200);
      const id = created.envelope.data.id;
      expect((await fake.openTemplate(win, id, 'https://evil.example/')).status).toBe(403);
      expect((await fake.openTemplate(win, '../../etc')).status).toBe(400);
      const opened = await fake.openTemplate(win, id);
      expect(opened.status).toBe(200);
      const path = opened.envelope.data.path as string;
      expect(fake.electron.shell.opened).toEqual([path]);
      expect(path.startsWith(join(fake.userData, 'template-edits', id))).toBe(true);
      const synced = () =>
        win.webContents.sent
          .filter((e) => e.channel === 'engine:event' && (e.payload as { type: string }).type === 'template.synced')
          .map((e) => (e.payload as { payload: { ok: boolean; message: string; problems: unknown[] } }).payload);
      // The designer saves in Office: the new version reaches the engine.
      const edited = readFileSync(path, 'utf8').replace('</body>', '<p>Orders: {{vOrders}}</p></body>');
      writeFileSync(path, edited);
      await expect.poll(() => synced().length, { timeout: 15_000 }).toBe(1);
      expect(synced()[0]).toMatchObject({ ok: true });
      const back = await fake.invoke(win, 'app.reports.downloadTemplate', { params: { id } });
      expect(Buffer.from(back.envelope.data.base64, 'base64').toString()).toBe(edited);
      // A save with a mistake is reported with its place; the version before it stays.
      writeFileSync(path, edited.replace('{{vOrders}}', '{{vNope}}'));
      await expect.poll(() => synced().length, { timeout: 15_000 }).toBe(2);
      expect(synced()[1].ok).toBe(false);
      expect(JSON.stringify(synced()[1].problems)).toMatch(/vNope.*names no variable/);
      expect(
        Buffer.from(
          (await fake.invoke(win, 'app.reports.downloadTemplate', { params: { id } })).envelope.data.base64,
          'base64',
        ).toString(),
      ).toBe(edited);
      // No application for the file: said plainly.
      fake.electron.shell.openPathAnswer = 'No application is associated with the specified file';
      expect((await fake.openTemplate(win, id)).envelope.error).toMatch(/No application on this computer opens/);
    });

    it('keeps the engine running in the tray when the window closes, and reopens from the tray', async () => {
      const fake = await start();
      fake.windows[0].close();
      fake.app.emit('window-all-closed');
      expect(fake.app.quitCalled).toBe(0);
      const open = fake.trays[0].menu.find((m) => m.label === 'Open Broadsheet')!;
      open.click!();
      expect(fake.windows).toHaveLength(2);
      expect((await fake.invoke(fake.windows[1], 'app.setup.status', {})).status).toBe(200);
      fake.app.emit('second-instance');
      expect(fake.windows).toHaveLength(2);
    });

    it('quits when another instance holds the lock', async () => {
      const fake = createFakeElectron({ lock: false });
      fakes.push(fake);
      expect(await startDesktop(fake.electron as never, { distDir })).toBeNull();
      expect(fake.app.quitCalled).toBe(1);
    });

    it('protects the secrets key with safeStorage', async () => {
      const fake = await start();
      const file = await readFile(join(fake.userData, 'secret.key.enc'), 'utf8');
      expect(file.startsWith('SAFE:')).toBe(true);
    });

    it('refuses to start without the OS keychain rather than store secrets unprotected', async () => {
      const fake = createFakeElectron({ encryption: false });
      fakes.push(fake);
      await expect(startDesktop(fake.electron as never, { distDir })).rejects.toThrow(/keychain/);
    });
  },
);
