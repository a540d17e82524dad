// A small stand-in for the parts of the `electron` module the shell uses: Electron's binary cannot
// run on these machines, so main/ is tested against this, and everything below it is real.
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type Handler = (event: unknown, ...args: unknown[]) => unknown;

export class FakeWebContents extends EventEmitter {
  static nextId = 1;
  id = FakeWebContents.nextId++;
  windowOpenHandler: ((d: { url: string }) => { action: string }) | null = null;
  sent: { channel: string; payload: unknown }[] = [];
  mainFrame = { url: '' };
  setWindowOpenHandler(h: (d: { url: string }) => { action: string }) {
    this.windowOpenHandler = h;
  }
  send(channel: string, payload: unknown) {
    this.sent.push({ channel, payload });
  }
  /** Emits an event that can be cancelled, as Electron's navigation events are. */
  attempt(name: string, url: string) {
    let prevented = false;
    this.emit(name, { preventDefault: () => (prevented = true) }, url);
    return prevented;
  }
}

export function createFakeElectron(
  opts: {
    lock?: boolean;
    encryption?: boolean;
    packaged?: boolean;
    storageBackend?: string;
    /** Another start of the app on the same data (the caller removes it). */
    userData?: string;
  } = {},
) {
  const handlers = new Map<string, Handler>();
  const windows: FakeBrowserWindow[] = [];
  const userData = opts.userData ?? mkdtempSync(join(tmpdir(), 'bs-electron-'));
  const app = Object.assign(new EventEmitter(), {
    quitCalled: 0,
    isPackaged: opts.packaged ?? false,
    requestSingleInstanceLock: () => opts.lock ?? true,
    whenReady: async () => undefined,
    getPath: (name: string) => (name === 'userData' ? userData : tmpdir()),
    quit() {
      app.quitCalled++;
    },
    exit() {},
  });

  class FakeBrowserWindow extends EventEmitter {
    webContents = new FakeWebContents();
    loaded: string | null = null;
    shown = 0;
    destroyed = false;
    constructor(readonly options: { webPreferences: Record<string, unknown> }) {
      super();
      windows.push(this);
    }
    async loadFile(file: string) {
      this.loaded = 'file://' + file;
      this.webContents.mainFrame.url = this.loaded;
    }
    async loadURL(url: string) {
      this.loaded = url;
      this.webContents.mainFrame.url = url;
    }
    isMinimized() {
      return false;
    }
    restore() {}
    show() {
      this.shown++;
    }
    focus() {}
    close() {
      this.destroyed = true;
      this.emit('closed');
    }
  }

  const responseHeaderHooks: ((
    d: { responseHeaders: Record<string, string[]> },
    cb: (r: { responseHeaders: Record<string, string[]> }) => void,
  ) => void)[] = [];
  let permissionHandler: ((wc: unknown, permission: string, cb: (ok: boolean) => void) => void) | null = null;
  let permissionCheck: ((wc: unknown, permission: string) => boolean) | null = null;
  const trays: { menu: { label?: string; click?: () => void }[]; emitter: EventEmitter }[] = [];

  const electron = {
    app,
    BrowserWindow: FakeBrowserWindow,
    ipcMain: { handle: (channel: string, h: Handler) => void handlers.set(channel, h) },
    safeStorage: {
      isEncryptionAvailable: () => opts.encryption ?? true,
      encryptString: (s: string) => Buffer.from('SAFE:' + Buffer.from(s).toString('hex')),
      decryptString: (b: Buffer) => Buffer.from(b.toString().slice(5), 'hex').toString(),
      getSelectedStorageBackend: () => opts.storageBackend ?? 'gnome_libsecret',
    },
    dialog: {
      shown: [] as { type: string; title: string; message: string; buttons?: string[] }[],
      /** The buttons the user will press, in turn (their indices); the first button when none is left. */
      answers: [] as number[],
      async showMessageBox(o: { type: string; title: string; message: string; buttons?: string[] }) {
        electron.dialog.shown.push(o);
        return { response: electron.dialog.answers.shift() ?? 0 };
      },
      showErrorBox() {},
    },
    Tray: class extends EventEmitter {
      constructor() {
        super();
        trays.push({ menu: [], emitter: this });
      }
      setToolTip() {}
      setContextMenu(menu: { label?: string; click?: () => void }[]) {
        trays[trays.length - 1].menu = menu;
      }
    },
    Menu: { buildFromTemplate: (t: unknown[]) => t },
    nativeImage: { createEmpty: () => ({}) },
    shell: {
      opened: [] as string[],
      /** What the OS answers: '' when an application opened the file, else why not. */
      openPathAnswer: '',
      async openPath(path: string) {
        electron.shell.opened.push(path);
        return electron.shell.openPathAnswer;
      },
      /** Addresses given to the system browser; a test may act as that browser. */
      external: [] as string[],
      onOpenExternal: null as ((url: string) => void) | null,
      async openExternal(url: string) {
        electron.shell.external.push(url);
        electron.shell.onOpenExternal?.(url);
      },
    },
    session: {
      defaultSession: {
        webRequest: {
          onHeadersReceived: (h: (typeof responseHeaderHooks)[number]) => void responseHeaderHooks.push(h),
        },
        setPermissionRequestHandler: (h: typeof permissionHandler) => void (permissionHandler = h),
        setPermissionCheckHandler: (h: typeof permissionCheck) => void (permissionCheck = h),
      },
    },
  };

  /** Calls the IPC handler as a page in the given window (or at the given URL) would. */
  const invoke = (win: FakeBrowserWindow, op: unknown, input?: unknown, frameUrl?: string) => {
    const frame = frameUrl ? { url: frameUrl } : win.webContents.mainFrame;
    return handlers.get('engine:invoke')!({ sender: win.webContents, senderFrame: frame }, op, input) as Promise<{
      status: number;
      envelope: any;
    }>;
  };

  /** Asks main to open a template report's file in Office, as the page's Open button does. */
  const openTemplate = (win: FakeBrowserWindow, reportId: unknown, frameUrl?: string) => {
    const frame = frameUrl ? { url: frameUrl } : win.webContents.mainFrame;
    return handlers.get('desktop:open-template')!(
      { sender: win.webContents, senderFrame: frame },
      reportId,
    ) as Promise<{ status: number; envelope: any }>;
  };

  /** Asks main to sign in through a company provider, as the page's desktop button does. */
  const signInWith = (win: FakeBrowserWindow, providerId: unknown) =>
    handlers.get('desktop:sign-in-with')!(
      { sender: win.webContents, senderFrame: win.webContents.mainFrame },
      providerId,
    ) as Promise<{ status: number; envelope: any }>;

  /** Asks main to connect a cloud drive in the system browser, as the storage screen's button does. */
  const connectDrive = (win: FakeBrowserWindow, serviceId: unknown) =>
    handlers.get('desktop:connect-drive')!(
      { sender: win.webContents, senderFrame: win.webContents.mainFrame },
      serviceId,
    ) as Promise<{ status: number; envelope: any }>;

  /** Removes the user-data folder (after the engine on it has closed). */
  const cleanup = () => {
    if (!opts.userData) rmSync(userData, { recursive: true, force: true });
  };

  return {
    electron,
    app,
    windows,
    handlers,
    userData,
    trays,
    responseHeaderHooks,
    invoke,
    openTemplate,
    signInWith,
    connectDrive,
    cleanup,
    permission: () => permissionHandler,
    permissionCheck: () => permissionCheck,
  };
}
