import type { DataSource } from 'typeorm';
import { openSharedChannel, type SharedChannel } from './core/shared-events.js';
import type { EngineEvent, Logger, Peers, SharedQueue } from './ops/context.js';
import { Request } from './model/requests.entity.js';
import type { SignInGuard } from './core/throttle.js';

/**
 * The other servers on one PostgreSQL database, as this one sees them: their events reach this
 * server's event streams (a screen follows a run wherever it runs), and a run another server holds
 * is stopped by asking it, through LISTEN/NOTIFY (`core/shared-events.ts`).
 */
export interface PeerLink extends Peers {
  /** Tells the others of an event here. */
  announce(event: EngineEvent): void;
  /**
   * What this server does when the others ask: stop a run it holds, look at a queue now. Given once
   * the workers exist; until then a stop finds no run here and a wake is not needed (each queue
   * looks at its work when it starts).
   */
  serve(workers: ServedHere): void;
  close(): Promise<void>;
}

export interface ServedHere {
  /** Stops a run this server holds; false when it holds none by that id. */
  stopHere(requestId: string): Promise<boolean>;
  /** Looks at a queue now (another server queued work in it). */
  wakeHere(queue: SharedQueue): void;
  /** Stops an app's reload if this server is reading it. */
  cancelReloadHere(appId: string): void;
}

export async function linkPeers(
  db: DataSource,
  node: { owner: string; leaseMs: number },
  here: {
    /** Delivers another server's event to this one's listeners. */
    deliver(event: EngineEvent, from: string): void;
    /** Subscribes to this server's events (its own and the others'). */
    on(listener: (event: EngineEvent) => void): () => void;
    /** Sign-in failures and successes: heard from the others, told to them. */
    signIns: SignInGuard;
  },
  log: Logger,
): Promise<PeerLink> {
  // Said once while the link is down (an outage would otherwise fill the log with each event's failure).
  let down = false;
  const problem = (e: Error) => {
    if (down) return;
    down = true;
    log.warn('The link to the other servers had a problem; it reconnects by itself', { error: e.message });
  };
  const back = () => {
    if (!down) return;
    down = false;
    log.info('The link to the other servers is back', {});
  };
  let served: ServedHere | null = null;
  const channel: SharedChannel = await openSharedChannel(
    db,
    node.owner,
    (m, from) => {
      if (m.kind === 'event') here.deliver(m.event, from);
      else if (m.kind === 'wake') served?.wakeHere(m.queue as SharedQueue);
      else if (m.kind === 'signIn') here.signIns.heard(m.outcome, m.account, m.address);
      else if (m.kind === 'cancelReload') served?.cancelReloadHere(m.appId);
      else served?.stopHere(m.requestId).catch(problem);
    },
    problem,
    back,
  );
  here.signIns.tell = (outcome, account, address) =>
    void channel.publish({ kind: 'signIn', outcome, account, address }).then(back, problem);
  const statusOf = async (id: string) => (await db.getRepository(Request).findOneBy({ id }))?.status;
  return {
    serve(workers) {
      served = workers;
    },
    announce(event) {
      channel.publish({ kind: 'event', event }).then(back, problem);
    },
    nudge(queue) {
      channel.publish({ kind: 'wake', queue }).then(back, problem);
    },
    cancelReloadElsewhere(appId) {
      channel.publish({ kind: 'cancelReload', appId }).then(back, problem);
    },
    stopElsewhere(requestId) {
      return new Promise<boolean>((resolve) => {
        let settled = false;
        const done = (stopped: boolean) => {
          if (settled) return;
          settled = true;
          off();
          clearTimeout(timer);
          resolve(stopped);
        };
        // The holder's own event says when it has stopped; its lease bounds the wait if it is gone.
        const off = here.on((e) => {
          if (e.type === 'request.changed' && e.payload.id === requestId && e.payload.status !== 'running') done(true);
        });
        const timer = setTimeout(
          () =>
            void statusOf(requestId).then(
              (s) => done(s !== 'running'),
              () => done(false),
            ),
          node.leaseMs,
        );
        void statusOf(requestId)
          .then(async (status) => {
            if (status !== 'running') return done(false);
            await channel.publish({ kind: 'stop', requestId });
          })
          .catch(() => done(false));
      });
    },
    close: () => channel.close(),
  };
}
