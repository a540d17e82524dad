// The renderer's one way to reach the engine. Under Electron it speaks IPC through the preload's
// window.broadsheet; served by `npm run serve` it speaks HTTP to /api/app/invoke/{id}. Types come
// from the engine's catalogue (type-only imports), so a renamed field fails the renderer's build.
import type { InputOf, OpId, ResultOf } from '../../engine/catalogue';

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

interface DesktopApi {
  invoke(op: string, input: unknown): Promise<{ status: number; envelope: Record<string, unknown> }>;
  on(type: string, cb: (payload: unknown) => void): () => void;
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
  set: (token: string | null) => (token ? sessionStorage.setItem(TOKEN_KEY, token) : sessionStorage.removeItem(TOKEN_KEY)),
};

export const isDesktop = () => typeof window !== 'undefined' && !!window.broadsheet;

function toAnswer<T>(status: number, env: Record<string, unknown>): Answer<T> {
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

export async function invoke<Id extends OpId>(id: Id, input: InputOf<Id> = {} as InputOf<Id>): Promise<Answer<ResultOf<Id>>> {
  if (window.broadsheet) {
    const { status, envelope } = await window.broadsheet.invoke(id, input);
    return toAnswer(status, envelope);
  }
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const token = httpSession.get();
  if (token) headers.authorization = `Bearer ${token}`;
  try {
    const res = await fetch(`api/app/invoke/${encodeURIComponent(id)}`, { method: 'POST', headers, body: JSON.stringify(input ?? {}) });
    const env = (await res.json()) as Record<string, unknown>;
    const answer = toAnswer<ResultOf<Id>>(res.status, env);
    const data = answer.data as { token?: string } | null;
    if (answer.ok && data && typeof data.token === 'string') httpSession.set(data.token);
    if (res.status === 401) httpSession.set(null);
    return answer;
  } catch {
    return toAnswer(0, { isSuccess: false, error: 'Broadsheet is not reachable; is it still running?' });
  }
}

/** Loosely typed call for generic screens that take the operation id from configuration. */
export function invokeAny(id: string, input: { params?: unknown; query?: unknown; body?: unknown } = {}): Promise<Answer<any>> {
  return invoke(id as OpId, input as never) as Promise<Answer<any>>;
}

export function onEngineEvent(type: string, cb: (payload: unknown) => void): () => void {
  return window.broadsheet ? window.broadsheet.on(type, cb) : () => undefined;
}
