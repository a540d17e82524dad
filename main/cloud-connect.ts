import type { IpcMain, IpcMainInvokeEvent, Shell } from 'electron';
import type { Engine } from '../engine/engine.js';
import { failure } from '../engine/core/envelope.js';
import { CONNECT_DRIVE_CHANNEL, type WireAnswer } from '../engine/wire.js';
import { throughSystemBrowser } from './loopback-redirect.js';

// The desktop connects a cloud drive as it signs in to a company (RFC 8252): the provider's sign-in
// page in the system browser, never an embedded web view, coming back to a loopback address of
// this process's own. The engine starts and finishes the flow (`app.storageServices.connect` with
// the loopback `redirectUri`, then `app.storageServices.finishConnect`) as the window's signed-in user.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function registerCloudConnect(deps: {
  ipcMain: Pick<IpcMain, 'handle'>;
  shell: Pick<Shell, 'openExternal'>;
  engine: Promise<Engine>;
  isTrusted: (event: IpcMainInvokeEvent) => boolean;
  sessionOf: (webContentsId: number) => string | null;
}) {
  deps.ipcMain.handle(CONNECT_DRIVE_CHANNEL, async (event, serviceId: unknown): Promise<WireAnswer> => {
    if (!deps.isTrusted(event)) return { status: 403, envelope: failure('Untrusted sender') };
    if (typeof serviceId !== 'string' || !UUID.test(serviceId))
      return { status: 400, envelope: failure('Not a storage service id') };
    const engine = await deps.engine;
    const owner = event.sender.id;
    const as = () => ({ token: deps.sessionOf(owner) ?? undefined, transport: 'ipc' as const, client: `ipc:${owner}` });
    return throughSystemBrowser(
      deps.shell,
      (redirectUri) =>
        engine.invoke('app.storageServices.connect', { params: { id: serviceId }, body: { redirectUri } }, as()),
      (data) => (data as { authorizationUrl: string }).authorizationUrl,
      async (callbackUrl) => {
        const finished = await engine.invoke('app.storageServices.finishConnect', { body: { callbackUrl } }, as());
        return { status: finished.status, envelope: finished.envelope };
      },
    );
  });
}
