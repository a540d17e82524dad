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
        const { from, message } = JSON.parse(n.payload) as { from: string; message: SharedMessage };
        if (from !== nodeId) receive(message, from);
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

  return {
    async publish(message) {
      const payload = JSON.stringify({ from: nodeId, message });
      // Too large to travel (none of the engine's events is): the others read the rows instead.
      if (Buffer.byteLength(payload) > PAYLOAD_MAX) return;
      await ds.query('SELECT pg_notify($1, $2)', [CHANNEL, payload]);
    },
    async close() {
      closed = true;
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
