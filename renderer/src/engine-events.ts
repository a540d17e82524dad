// Engine events (import progress, reloads, run progress) for the screens. Under Electron they come
// through the preload; served, they come as server-sent events read with fetch, so the session
// token stays in a header. The page keeps one stream however many screens listen: a browser opens
// at most six connections to a host, and every stream held is one fewer for the calls.
import type { EngineEvents, EngineEventType } from '../../engine/wire';
import { httpSession } from './bridge';

interface Listener {
  type: string;
  cb: (payload: never) => void;
  /** Called each time the stream goes live (see `onEngineEvent`'s `listening`). */
  listening?: () => void;
}

interface Stream {
  token: string | null;
  abort: AbortController;
  /** The server has sent its first line: from here on no event is missed. */
  live: boolean;
}

/** How long a stream the server ended waits before it is opened again (a restart, a network blip). */
const REOPEN_MS = 2000;

/** Every listener of the page, whichever stream is open. */
const listeners = new Set<Listener>();
let stream: Stream | null = null;

function open(token: string | null): Stream {
  const s: Stream = { token, abort: new AbortController(), live: false };
  read(s)
    // The server went away (a restart, a network blip): opened again below while anyone listens.
    .catch(() => 'ended' as const)
    .then((how) => {
      // Refused (signed out): the next listener after signing in opens a stream of its own.
      if (stream === s && how === 'refused') stream = null;
      if (stream !== s || s.abort.signal.aborted) return;
      stream = null;
      setTimeout(() => {
        if (stream || !listeners.size) return;
        stream = open(httpSession.get());
      }, REOPEN_MS);
    });
  return s;
}

async function read(s: Stream): Promise<'ended' | 'refused'> {
  const res = await fetch('api/app/events', {
    headers: s.token ? { authorization: `Bearer ${s.token}` } : {},
    signal: s.abort.signal,
  });
  if (!res.ok || !res.body) return 'refused';
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const chunk = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      // The server subscribes before it writes its first line (": connected"), so once any line
      // is read, every later event reaches the page.
      if (!s.live) {
        s.live = true;
        for (const l of [...listeners]) l.listening?.();
      }
      const data = chunk
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice(6))
        .join('');
      if (!data) continue;
      const event = JSON.parse(data) as { type: string; payload: never };
      for (const l of [...listeners]) if (l.type === event.type) l.cb(event.payload);
    }
  }
  return 'ended';
}

/**
 * Listens to one kind of engine event. `listening`, if given, is called each time events can no
 * longer be missed (the stream started, or started again after the server went away): a screen
 * that read its lists before then reads them again, or a change made in between would stay unseen
 * until the next one.
 */
export function onEngineEvent<K extends EngineEventType>(
  type: K,
  cb: (payload: EngineEvents[K]) => void,
  listening?: () => void,
): () => void {
  if (window.broadsheet) {
    // The preload's listener is in place as soon as it is added: nothing can be missed.
    const off = window.broadsheet.on(type, cb);
    if (listening) queueMicrotask(listening);
    return off;
  }
  const token = httpSession.get();
  if (stream && stream.token !== token) {
    // Signed in again as someone else: the stream follows the new session, listeners and all.
    stream.abort.abort();
    stream = null;
  }
  const s = (stream ??= open(token));
  const listener: Listener = { type, cb: cb as (payload: never) => void, listening };
  listeners.add(listener);
  if (listening && s.live) queueMicrotask(listening);
  return () => {
    listeners.delete(listener);
    if (!listeners.size && stream) {
      stream.abort.abort();
      stream = null;
    }
  };
}
