import type { DataSource } from 'typeorm';
import type { PoolClient } from 'pg';
import type { EngineEvent } from './events.js';
import type { SignInOutcome } from './throttle.js';
import { retryDelay, type Backoff } from './jobs/backoff.js';

/** What one server tells the others sharing its database: an event for their streams, or a stop (a run's, a reload's). */
export type SharedMessage =
  | { kind: 'event'; event: EngineEvent }
  | { kind: 'stop'; requestId: string }
  | { kind: 'cancelReload'; appId: string }
  | { kind: 'wake'; queue: string }
  | { kind: 'signIn'; outcome: SignInOutcome; account: string; address: string };

export interface SharedChannel {
  /** Tells every other server (not this one). */
  publish(message: SharedMessage): Promise<void>;
  close(): Promise<void>;
}

const CHANNEL = 'broadsheet';
/** PostgreSQL refuses a notification payload of 8,000 bytes or more. */
const PAYLOAD_MAX = 7_900;
/**
 * Messages published within this long of one another travel in one notification: a run tells its
 * start, its progress and its end, and each notification is a trip to the database for the sender
 * and a wake-up for every other server.
 */
const GATHER_MS = 10;
/** Reconnecting waits 1 s, doubling to 30 s while the database stays away (a restart, an outage). */
const RECONNECT: Backoff = { baseMs: 1_000, maxMs: 30_000 };

/**
 * PostgreSQL's LISTEN/NOTIFY between the servers of one database: each listens on a connection of
 * its own and hears what the others publish, marked with their node id so no server hears itself.
 * A lost connection (the database restarted) is opened again; what was published meanwhile is not
 * replayed — events are the screens' live view, and the rows stay the truth.
 */
export async function openSharedChannel(
  ds: DataSource,
  nodeId: string,
  receive: (message: SharedMessage, from: string) => void,
  onProblem: (error: Error) => void,
  onBack: () => void = () => undefined,
): Promise<SharedChannel> {
  const pool = (ds.driver as unknown as { master: { connect(): Promise<PoolClient> } }).master;
  let client: PoolClient | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  // Failed tries since the link was last up: the first is reported, the others only wait longer.
  let failures = 0;
  const again = () => {
    if (!closed) retry = setTimeout(reconnect, retryDelay(failures, RECONNECT));
  };

  const listen = async () => {
    const c = await pool.connect();
    c.on('notification', (n) => {
      if (n.channel !== CHANNEL || !n.payload) return;
      try {
        const { from, message, messages } = JSON.parse(n.payload) as {
          from: string;
          message?: SharedMessage;
          messages?: SharedMessage[];
        };
        if (from !== nodeId) for (const m of messages ?? (message ? [message] : [])) receive(m, from);
      } catch (e) {
        onProblem(e as Error);
      }
    });
    c.on('error', (e) => {
      onProblem(e);
      c.release(e);
      if (client === c) client = null;
      failures = 1;
      again();
    });
    await c.query(`LISTEN ${CHANNEL}`);
    client = c;
  };
  const reconnect = () => {
    listen().then(
      () => {
        failures = 0;
        onBack();
      },
      (e: Error) => {
        if (failures++ === 0) onProblem(e);
        again();
      },
    );
  };
  await listen();

  const notify = (parts: string[]) =>
    ds.query('SELECT pg_notify($1, $2)', [
      CHANNEL,
      `{"from":${JSON.stringify(nodeId)},"messages":[${parts.join(',')}]}`,
    ]);
  /** Sends what was gathered, as few notifications as the size limit allows, in the order published. */
  const send = async (messages: SharedMessage[]) => {
    const room = PAYLOAD_MAX - 100 - Buffer.byteLength(nodeId);
    let parts: string[] = [];
    let size = 0;
    for (const message of messages) {
      const text = JSON.stringify(message);
      const bytes = Buffer.byteLength(text) + 1;
      // Too large to travel (none of the engine's events is): the others read the rows instead.
      if (bytes > room) continue;
      if (size + bytes > room) {
        await notify(parts);
        parts = [];
        size = 0;
      }
      parts.push(text);
      size += bytes;
    }
    if (parts.length) await notify(parts);
  };
  let gathered: SharedMessage[] = [];
  let sending: Promise<void> | null = null;

  return {
    publish(message) {
      gathered.push(message);
      sending ??= new Promise((resolve) => setTimeout(resolve, GATHER_MS)).then(() => {
        const messages = gathered;
        gathered = [];
        sending = null;
        return send(messages);
      });
      return sending;
    },
    async close() {
      closed = true;
      // What was gathered still goes out (a stop asked of another server, a run's last event).
      await sending?.catch(() => undefined);
      clearTimeout(retry);
      const c = client;
      client = null;
      if (c) {
        await c.query(`UNLISTEN ${CHANNEL}`).catch(() => undefined);
        c.release();
      }
    },
  };
}
