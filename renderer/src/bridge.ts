// The renderer's one way to reach the engine. Under Electron it speaks IPC through the preload's
// window.broadsheet; served by `npm run serve` it speaks HTTP to /api/app/invoke/{id}. Types come
// from the engine's catalogue (type-only imports), so a renamed field fails the renderer's build.
import type { InputOf, OpId, ResultOf } from '../../engine/catalogue';
import { SESSION_HEADER, type DesktopApi, type WireFile } from '../../engine/wire';

export interface FieldError {
  field: string;
  message: string;
}

export interface Answer<T> {
  status: number;
  data: T;
  ok: boolean;
  error: string | null;
  errorDetails: FieldError[];
  page?: number;
  pageSize?: number;
  totalItems?: number;
  totalPages?: number;
}

declare global {
  interface Window {
    broadsheet?: DesktopApi;
  }
}

const TOKEN_KEY = 'broadsheet.session';

/** Over HTTP the page holds the session token (tab-scoped); under Electron the main process holds it. */
export const httpSession = {
  get: () => sessionStorage.getItem(TOKEN_KEY),
  set: (token: string | null) =>
    token ? sessionStorage.setItem(TOKEN_KEY, token) : sessionStorage.removeItem(TOKEN_KEY),
};

export const isDesktop = () => typeof window !== 'undefined' && !!window.broadsheet;

function toAnswer<T>(status: number, envelope: object): Answer<T> {
  const env = envelope as Record<string, unknown>;
  return {
    status,
    ok: env.isSuccess === true,
    data: env.data as T,
    error: (env.error as string | null) ?? null,
    errorDetails: (env.errorDetails as FieldError[] | null) ?? [],
    page: env.page as number | undefined,
    pageSize: env.pageSize as number | undefined,
    totalItems: env.totalItems as number | undefined,
    totalPages: env.totalPages as number | undefined,
  };
}

export async function invoke<Id extends OpId>(
  id: Id,
  input: InputOf<Id> = {} as InputOf<Id>,
): Promise<Answer<ResultOf<Id>>> {
  if (window.broadsheet) {
    const { status, envelope } = await window.broadsheet.invoke(id, input);
    return toAnswer(status, envelope);
  }
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const token = httpSession.get();
  if (token) headers.authorization = `Bearer ${token}`;
  try {
    const res = await fetch(`api/app/invoke/${encodeURIComponent(id)}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(input ?? {}),
    });
    const env = (await res.json()) as Record<string, unknown>;
    const answer = toAnswer<ResultOf<Id>>(res.status, env);
    // The operation says whether it started or ended a session (the wire contract's header).
    const session = res.headers.get(SESSION_HEADER);
    if (session === 'start') httpSession.set((answer.data as { token: string }).token);
    if (session === 'end' || res.status === 401) httpSession.set(null);
    return answer;
  } catch {
    return toAnswer(0, { isSuccess: false, error: 'Broadsheet is not reachable; is it still running?' });
  }
}

/**
 * Calls an upload operation with a file as its body: under Electron its bytes go over IPC as they
 * are; served, the browser streams the file as the request body (application/octet-stream) and the
 * other two parts ride in the query. Never read into text or base64 here.
 */
export async function upload<Id extends OpId>(
  id: Id,
  input: Omit<InputOf<Id>, 'body'>,
  file: Blob,
): Promise<Answer<ResultOf<Id>>> {
  if (window.broadsheet) {
    const { status, envelope } = await window.broadsheet.invoke(id, {
      ...input,
      body: new Uint8Array(await file.arrayBuffer()),
    });
    return toAnswer(status, envelope);
  }
  const headers: Record<string, string> = { 'content-type': 'application/octet-stream' };
  const token = httpSession.get();
  if (token) headers.authorization = `Bearer ${token}`;
  try {
    const res = await fetch(
      `api/app/invoke/${encodeURIComponent(id)}?input=${encodeURIComponent(JSON.stringify(input))}`,
      { method: 'POST', headers, body: file },
    );
    if (res.status === 401) httpSession.set(null);
    return toAnswer(res.status, (await res.json()) as Record<string, unknown>);
  } catch {
    return toAnswer(0, { isSuccess: false, error: 'Broadsheet is not reachable; is it still running?' });
  }
}

/** A file's bytes from the wire (base64 in the envelope): decoded here, the one place that does. */
export const bytesOf = (file: WireFile) => Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));

/** Runs an operation that answers a file and saves it through the browser's download. */
export async function downloadFile<Id extends OpId>(
  id: Id,
  input: InputOf<Id>,
): Promise<{ ok: boolean; error: string | null; fileName?: string }> {
  // Both transports answer a file the same way: base64 in the envelope (the wire contract).
  const answer = await invoke(id, input);
  const file = answer.data as WireFile | null;
  if (!answer.ok || !file || typeof file.base64 !== 'string')
    return { ok: false, error: answer.error ?? 'The file could not be made' };
  const blob = new Blob([bytesOf(file)], { type: file.mime });
  const fileName = file.fileName;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return { ok: true, error: null, fileName };
}
