// Engine events (import progress, reloads, run progress) for the screens. Under Electron they come
// through the preload; served, they come as server-sent events read with fetch, so the session
// token stays in a header. The page keeps one stream however many screens listen: a browser opens
// at most six connections to a host, and every stream held is one fewer for the calls.
import type { EngineEvents, EngineEventType } from '../../engine/wire';
import { httpSession } from './bridge';

interface Listener {
  type: string;
  cb: (payload: never) => void;
}

interface Stream {
  token: string | null;
  abort: AbortController;
  listeners: Set<Listener>;
  /** The server has sent its first line: from here on no event is missed. */
  live: boolean;
  /** Called once the stream is live (see `onEngineEvent`'s `listening`). */
  waiting: Set<() => void>;
}

let stream: Stream | null = null;

function open(token: string | null, listeners = new Set<Listener>()): Stream {
  const s: Stream = { token, abort: new AbortController(), listeners, live: false, waiting: new Set() };
  read(s).catch(() => {
    // Aborted by its last listener, or the server went away: nothing more to report.
  });
  return s;
}

async function read(s: Stream) {
  const res = await fetch('api/app/events', {
    headers: s.token ? { authorization: `Bearer ${s.token}` } : {},
    signal: s.abort.signal,
  });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
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
        for (const cb of s.waiting) cb();
        s.waiting.clear();
      }
      const data = chunk
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice(6))
        .join('');
      if (!data) continue;
      const event = JSON.parse(data) as { type: string; payload: never };
      for (const l of [...s.listeners]) if (l.type === event.type) l.cb(event.payload);
    }
  }
  if (stream === s) stream = null;
}

/**
 * Listens to one kind of engine event. `listening`, if given, is called once events can no longer
 * be missed: a screen that loaded its list before that moment loads it again then, or a change
 * made between its first load and the stream's start would stay unseen until the next one.
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
    const old = stream;
    old.abort.abort();
    stream = open(token, old.listeners);
    for (const cb of old.waiting) stream.waiting.add(cb);
  }
  const s = (stream ??= open(token));
  const listener: Listener = { type, cb: cb as (payload: never) => void };
  s.listeners.add(listener);
  if (listening) {
    if (s.live) queueMicrotask(listening);
    else s.waiting.add(listening);
  }
  return () => {
    const at = stream ?? s;
    at.listeners.delete(listener);
    if (listening) at.waiting.delete(listening);
    if (at.listeners.size === 0 && stream === at) {
      at.abort.abort();
      stream = null;
    }
  };
}
