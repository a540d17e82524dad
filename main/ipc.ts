import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import type { Engine } from '../engine/engine.js';
import { failure } from '../engine/core/envelope.js';

export const INVOKE_CHANNEL = 'engine:invoke';
export const EVENT_CHANNEL = 'engine:event';

/** What the renderer gets back: always a value, never a thrown error across the bridge. */
export interface IpcAnswer {
  status: number;
  envelope: unknown;
}

type Input = { params?: unknown; query?: unknown; body?: unknown };

/**
 * The one IPC handler (as GitHub Desktop's ipc-main wrapper): it rejects untrusted senders and
 * unknown ids before the engine sees them. The session token stays in the main process, keyed by
 * the window's webContents, so the sandboxed page never holds a credential.
 */
export function registerEngineIpc(ipcMain: Pick<IpcMain, 'handle'>, engine: Engine, isTrusted: (event: IpcMainInvokeEvent) => boolean) {
  const sessions = new Map<number, string>();
  ipcMain.handle(INVOKE_CHANNEL, async (event, id: unknown, input: unknown): Promise<IpcAnswer> => {
    if (!isTrusted(event)) return { status: 403, envelope: failure('Untrusted sender') };
    if (typeof id !== 'string' || !engine.catalogue.has(id)) return { status: 404, envelope: failure(`Unknown operation ${String(id).slice(0, 80)}`) };
    const raw = (input && typeof input === 'object' ? input : {}) as Input;
    const owner = event.sender.id;
    const result = await engine.invoke(id, { params: raw.params, query: raw.query, body: raw.body }, { token: sessions.get(owner), transport: 'ipc', client: `ipc:${owner}` });
    if (result.file) {
      // Files cross the bridge as base64; the page turns them into a download.
      const { fileName, mime, data: bytes } = result.file;
      return { status: 200, envelope: { ...result.envelope, data: { fileName, mime, base64: bytes.toString('base64') } } };
    }
    const data = (result.envelope as { data?: { token?: string } }).data;
    if (result.status === 200 && data && typeof data.token === 'string') {
      // Sign-in, setup and password changes start a session: keep it here, hand the page no token.
      sessions.set(owner, data.token);
      const { token: _token, ...rest } = data;
      return { status: 200, envelope: { ...result.envelope, data: rest } };
    }
    if (id === 'app.auth.logout' || result.status === 401) sessions.delete(owner);
    return result;
  });
  return {
    forget: (webContentsId: number) => sessions.delete(webContentsId),
    hasSession: (webContentsId: number) => sessions.has(webContentsId),
  };
}
