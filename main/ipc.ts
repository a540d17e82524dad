import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import type { Engine } from '../engine/engine.js';
import { failure } from '../engine/core/envelope.js';
import { INVOKE_CHANNEL, type WireAnswer, type WireFile } from '../engine/wire.js';

export { EVENT_CHANNEL, INVOKE_CHANNEL } from '../engine/wire.js';

type Input = { params?: unknown; query?: unknown; body?: unknown };

/**
 * The one IPC handler (as GitHub Desktop's ipc-main wrapper): it rejects untrusted senders and
 * unknown ids before the engine sees them. The session token stays in the main process, keyed by
 * the window's webContents, so the sandboxed page never holds a credential; operations flagged as
 * starting or ending a session say when to keep or drop it.
 */
export function registerEngineIpc(
  ipcMain: Pick<IpcMain, 'handle'>,
  /** The engine as it starts: the window's first calls wait for it. */
  starting: Promise<Engine>,
  isTrusted: (event: IpcMainInvokeEvent) => boolean,
) {
  const sessions = new Map<number, string>();
  ipcMain.handle(INVOKE_CHANNEL, async (event, id: unknown, input: unknown): Promise<WireAnswer> => {
    if (!isTrusted(event)) return { status: 403, envelope: failure('Untrusted sender') };
    const engine = await starting;
    const op = typeof id === 'string' ? engine.catalogue.get(id) : undefined;
    if (!op) return { status: 404, envelope: failure(`Unknown operation ${String(id).slice(0, 80)}`) };
    const raw = (input && typeof input === 'object' ? input : {}) as Input;
    const owner = event.sender.id;
    // An upload's body is the file's bytes (structured clone carries them as they are, no base64).
    const upload =
      op.upload && raw.body instanceof Uint8Array
        ? Buffer.from(raw.body.buffer, raw.body.byteOffset, raw.body.byteLength)
        : undefined;
    const result = await engine.invoke(
      op.id,
      { params: raw.params, query: raw.query, body: upload ? undefined : raw.body },
      { token: sessions.get(owner), transport: 'ipc', client: `ipc:${owner}`, upload },
    );
    if (result.file) {
      const { fileName, mime, data: bytes } = result.file;
      const file: WireFile = { fileName, mime, base64: bytes.toString('base64') };
      return { status: 200, envelope: { ...result.envelope, data: file } };
    }
    if (result.status === 401 || (op.session === 'end' && result.status === 200)) sessions.delete(owner);
    if (op.session === 'start' && result.status === 200) {
      // Keep the session here and hand the page the rest of the answer, without the token.
      const { token, ...rest } = result.envelope.data as { token: string };
      sessions.set(owner, token);
      return { status: 200, envelope: { ...result.envelope, data: rest } };
    }
    return {
      status: result.status,
      envelope: result.envelope,
      ...(result.retryAfter ? { retryAfter: result.retryAfter } : {}),
    };
  });
  return {
    forget: (webContentsId: number) => sessions.delete(webContentsId),
    hasSession: (webContentsId: number) => sessions.has(webContentsId),
    /** The session a window holds now (events reach a window as its signed-in user may see them). */
    sessionOf: (webContentsId: number) => sessions.get(webContentsId) ?? null,
    /** Keeps a session started outside this handler (the desktop's company sign-in). */
    keep: (webContentsId: number, token: string) => void sessions.set(webContentsId, token),
  };
}
