import type * as Electron from 'electron';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createEngine, type Engine } from '../engine/engine.js';
import { EVENT_CHANNEL, registerEngineIpc } from './ipc.js';
import { registerCompanySignIn } from './company-sign-in.js';
import { registerCloudConnect } from './cloud-connect.js';
import { registerTemplateEditing } from './template-editing.js';
import { isTrustedSenderUrl } from './trusted-sender.js';
import { lockDown, secureWebPreferences } from './window.js';
import { safeStorageKeyStore, secretsProtection } from './secret-store.js';
import { consoleLogger } from '../engine/core/console-logger.js';
import type { Logger } from '../engine/ops/context.js';
import type { CloudEndpoints } from '../engine/core/cloud-endpoints.js';

type ElectronModule = Pick<
  typeof Electron,
  'app' | 'BrowserWindow' | 'ipcMain' | 'safeStorage' | 'Tray' | 'Menu' | 'nativeImage' | 'session' | 'dialog' | 'shell'
>;

export interface DesktopOptions {
  /** Folder holding dist/renderer and dist/preload. */
  distDir: string;
  /** Development only: a packaged build ignores it, so nobody can swap the UI through the environment. */
  devServerUrl?: string;
  logger?: Logger;
  /** Tests only: the cloud drives' API hosts, pointed at fakes on loopback. */
  cloudEndpoints?: Partial<CloudEndpoints>;
}

export interface Desktop {
  engine: Engine;
  window(): Electron.BrowserWindow | null;
  /** Quits, asking first while runs are going; answers whether it quit. */
  quit(): Promise<boolean>;
}

/**
 * The desktop shell: one instance, one engine, one window, a tray that keeps the engine running
 * when the window closes. Everything of substance lives in the engine; this only wires Electron.
 */
export async function startDesktop(electron: ElectronModule, options: DesktopOptions): Promise<Desktop | null> {
  const { app, BrowserWindow, ipcMain, safeStorage, Tray, Menu, nativeImage, session, shell } = electron;
  const log = options.logger ?? consoleLogger;
  const devServerUrl = app.isPackaged ? undefined : options.devServerUrl;
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return null;
  }
  await app.whenReady();
  // Everything the app writes (database, keys, generated files) is readable by the user only.
  process.umask(0o077);
  const dataDir = app.getPath('userData');
  let win: Electron.BrowserWindow | null = null;
  // The window opens while the engine starts: the shell shows at once and its calls wait for the engine.
  const starting = createEngine({
    dataDir,
    secretKeys: safeStorageKeyStore(safeStorage, dataDir),
    // A data folder restored without its key still opens: the passwords it cannot read are listed.
    secretKeyMismatch: 'start-anyway',
    logger: log,
    cloudEndpoints: options.cloudEndpoints,
  });
  starting.catch(() => undefined); // Awaited below; until then a failed start must not go unhandled.

  const indexFile = join(options.distDir, 'renderer', 'index.html');
  const indexUrl = pathToFileURL(indexFile).toString();
  const isAppUrl = (url: string) => isTrustedSenderUrl(url, indexUrl, devServerUrl);
  const isTrusted = (event: Electron.IpcMainInvokeEvent) => {
    const frame = event.senderFrame;
    return !!frame && frame === event.sender.mainFrame && isAppUrl(frame.url);
  };
  const ipc = registerEngineIpc(ipcMain, starting, isTrusted);
  registerCompanySignIn({ ipcMain, shell, engine: starting, isTrusted, keep: ipc.keep });
  registerCloudConnect({ ipcMain, shell, engine: starting, isTrusted, sessionOf: (id) => ipc.sessionOf(id) });
  const templates = registerTemplateEditing({
    ipcMain,
    shell,
    engine: starting,
    isTrusted,
    dir: join(dataDir, 'template-edits'),
    sessionOf: (id) => ipc.sessionOf(id),
    send: (id, event) => {
      if (win && win.webContents.id === id) win.webContents.send(EVENT_CHANNEL, event);
    },
  });

  const openWindow = () => {
    if (win) {
      if (win.isMinimized()) win.restore();
      win.show();
      win.focus();
      return win;
    }
    win = new BrowserWindow({
      width: 1280,
      height: 820,
      title: 'Broadsheet',
      show: false,
      webPreferences: secureWebPreferences(join(options.distDir, 'preload', 'preload.cjs')),
    });
    lockDown(win, session.defaultSession, isAppUrl);
    win.once('ready-to-show', () => win?.show());
    const id = win.webContents.id;
    // The window hears of what its signed-in user may see, as their lists would show it.
    let stopEvents = () => {};
    void starting.then(
      (engine) => {
        if (win?.webContents.id !== id) return;
        stopEvents = engine.watch(
          () => ({ token: ipc.sessionOf(id), transport: 'ipc', client: `ipc:${id}` }),
          (event) => win?.webContents.send(EVENT_CHANNEL, event),
        );
      },
      () => undefined,
    );
    win.on('closed', () => {
      stopEvents();
      ipc.forget(id);
      win = null;
    });
    if (devServerUrl) void win.loadURL(devServerUrl);
    else void win.loadFile(indexFile);
    return win;
  };

  let quitting = false;
  /**
   * Quit asks first while runs are going: they stop and go back to the queue (their attempt not
   * counted, nothing of them mailed), and start again from the beginning at the next start. Answers
   * whether the app quit.
   */
  const quit = async (): Promise<boolean> => {
    if (quitting) return true;
    const engine = await starting;
    const running = engine.runner.runningCount();
    if (running) {
      const runs = running === 1 ? 'A run is' : `${running} runs are`;
      const { response } = await electron.dialog.showMessageBox({
        type: 'question',
        title: 'Quit while reports are being made?',
        message: `${runs} going. If you quit now, ${running === 1 ? 'it stops' : 'they stop'} and start${running === 1 ? 's' : ''} again from the beginning the next time Broadsheet starts; nothing of ${running === 1 ? 'it' : 'them'} is sent before then, and nothing twice.`,
        buttons: ['Keep running', 'Quit and run later'],
        defaultId: 0,
        cancelId: 0,
      });
      if (response !== 1) return false;
    }
    quitting = true;
    templates.close();
    await engine.close();
    app.quit();
    return true;
  };
  // Quitting by the system's own ways (the app menu, Cmd+Q, logging out) takes the same path.
  app.on('before-quit', (event: Electron.Event) => {
    if (quitting) return;
    event.preventDefault();
    void quit();
  });
  const tray = new Tray(nativeImage.createEmpty());
  tray.setToolTip('Broadsheet — the scheduler keeps running');
  tray.setContextMenu(
    Menu.buildFromTemplate([
      { label: 'Open Broadsheet', click: () => openWindow() },
      { type: 'separator' },
      { label: 'Quit', click: () => void quit() },
    ]),
  );
  tray.on('click', () => openWindow());

  app.on('second-instance', () => openWindow());
  app.on('activate', () => openWindow());
  // Closing the window leaves the engine (and its scheduler) running in the tray; Quit ends it.
  app.on('window-all-closed', () => {
    if (quitting) app.quit();
  });
  app.on('web-contents-created', (_e, contents) => contents.setWindowOpenHandler(() => ({ action: 'deny' })));

  openWindow();
  const engine = await starting;
  await warnIfSecretsUnprotected(electron, dataDir, log);
  if (engine.secretsToReenter.length)
    void electron.dialog
      .showMessageBox({
        type: 'warning',
        title: 'Some stored passwords must be entered again',
        message: `This data folder's stored passwords were sealed with a key this computer does not have (a data folder restored or copied without its key). Enter these again: ${engine.secretsToReenter.join('; ')}.`,
      })
      .catch(() => undefined);
  return { engine, window: () => win, quit };
}

const KEYRING_NOTICE_FILE = 'keyring-warning-shown';

/**
 * On Linux without a keyring, safeStorage falls back to a fixed obfuscation key: secrets at rest
 * are then only hidden, not protected. Say so in the log at every start, and to the user once.
 */
async function warnIfSecretsUnprotected(
  electron: Pick<ElectronModule, 'safeStorage' | 'dialog'>,
  dataDir: string,
  log: Logger,
) {
  if (secretsProtection(electron.safeStorage) !== 'obfuscated') return;
  const message =
    'No system keyring was found, so the passwords Broadsheet keeps (mail servers, storage services, directories) are stored obfuscated, not encrypted.';
  log.warn(message, { backend: 'basic_text' });
  const marker = join(dataDir, KEYRING_NOTICE_FILE);
  if (existsSync(marker)) return;
  await writeFile(marker, new Date().toISOString(), { mode: 0o600 });
  void electron.dialog.showMessageBox({
    type: 'warning',
    title: 'Secrets are not encrypted on this computer',
    message,
    detail: 'Install and unlock a keyring (GNOME Keyring or KWallet), then restart Broadsheet, to have them encrypted.',
  });
}
