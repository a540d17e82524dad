import type { IpcMain, IpcMainInvokeEvent, Shell } from 'electron';
import type { Engine } from '../engine/engine.js';
import { failure } from '../engine/core/envelope.js';
import { SIGN_IN_WITH_CHANNEL, type WireAnswer } from '../engine/wire.js';
import { throughSystemBrowser } from './loopback-redirect.js';

// The desktop's company sign-in (RFC 8252): the system browser, never an embedded web view, with a
// redirect to a loopback address of this process's own (127.0.0.1, a port the system gave) and PKCE.
// The engine starts and finishes the OpenID flow (`app.auth.ssoDesktopStart`/`Finish`); the session
// stays here, keyed by the window, as every desktop session does.

export function registerCompanySignIn(deps: {
  ipcMain: Pick<IpcMain, 'handle'>;
  shell: Pick<Shell, 'openExternal'>;
  engine: Promise<Engine>;
  isTrusted: (event: IpcMainInvokeEvent) => boolean;
  /** Keeps the session for the window (the page never holds it). */
  keep: (webContentsId: number, token: string) => void;
}) {
  deps.ipcMain.handle(SIGN_IN_WITH_CHANNEL, async (event, providerId: unknown): Promise<WireAnswer> => {
    if (!deps.isTrusted(event)) return { status: 403, envelope: failure('Untrusted sender') };
    const engine = await deps.engine;
    const owner = event.sender.id;
    const credential = { transport: 'ipc' as const, client: `ipc:${owner}` };
    return throughSystemBrowser(
      deps.shell,
      (redirectUri) => engine.invoke('app.auth.ssoDesktopStart', { body: { providerId, redirectUri } }, credential),
      (data) => (data as { url: string }).url,
      async (callbackUrl) => {
        const finished = await engine.invoke(
          'app.auth.ssoDesktopFinish',
          { body: { providerId, callbackUrl } },
          credential,
        );
        if (finished.status !== 200) return { status: finished.status, envelope: finished.envelope };
        const { token, ...rest } = finished.envelope.data as { token: string };
        deps.keep(owner, token);
        return { status: 200, envelope: { ...finished.envelope, data: rest } };
      },
    );
  });
}
