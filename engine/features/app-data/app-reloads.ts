import type { JobKernel, JobWorker } from '../../core/jobs/job-kernel.js';
import { claimingJobKernel, type NodeLease } from '../../core/jobs/table-claims.js';
import { oldestOnePer } from '../../core/jobs/oldest-one-per.js';
import type { BaseServices, Peers, WorkContext, ReloadControl } from '../../ops/context.js';
import { AppReload, type AppReloadRow } from '../../model/data-connections.entity.js';
import { CANCELLED, loadApp, newReload } from './reload.js';
import type { WorkerModule } from '../../ops/worker-module.js';

/** A reload cut off by a crash or a dead server: its data was never swapped in. */
const INTERRUPTED = 'The server stopped during the reload; the data before it was kept.';

/**
 * Reloads of analytics apps on the one job kernel: a scheduled slot is a queued row (keyed by app
 * and slot, so it loads once whatever the number of servers), claimed and run by one server; Reload
 * now inserts one already claimed and runs it at once. One app reloads one at a time. A stop cuts
 * the read on whichever server holds it; a server stopping cleanly gives what it reads back to the
 * queue, and one that dies leaves it to the next look at lapsed leases, which says so.
 */
export class AppReloads implements JobWorker<AppReloadRow>, WorkerModule, ReloadControl {
  readonly name = 'reloads';
  readonly kernel: JobKernel<AppReloadRow>;
  /** Reloads this server reads now, by app, each with the stop a user's cancel pulls. */
  private readonly reading = new Map<string, AbortController>();

  /** The context reloads run in, given at start (the engine is whole by then). */
  private work: WorkContext | null = null;

  constructor(
    private readonly s: BaseServices & { peers: Peers | null },
    node: NodeLease,
  ) {
    this.kernel = claimingJobKernel(
      s,
      {
        entity: AppReload,
        statuses: { waiting: ['queued'], active: 'running', oneAtATime: { column: 'appId', when: 'TRUE' } },
      },
      this,
      { ...node, name: 'App reloads', concurrency: 2 },
    );
  }

  start(work: WorkContext): Promise<number> {
    this.work = work;
    return this.kernel.start();
  }

  wake(): void {
    this.kernel.nudge();
    this.s.peers?.nudge('reloads');
  }

  waiting(): AppReloadRow['status'] {
    return 'queued';
  }

  claimed(now: Date) {
    return { startedAt: now };
  }

  /** Queued reloads, oldest first, one per app, none of an app reloading now (on any server). */
  ready(limit: number): Promise<AppReloadRow[]> {
    return oldestOnePer(this.s.db, AppReload, {
      key: 'appId',
      oldest: 'startedAt',
      waiting: 'queued',
      running: 'running',
      limit,
    });
  }

  async run(row: AppReloadRow, closing: AbortSignal): Promise<void> {
    const stop = new AbortController();
    const closed = () => stop.abort();
    closing.addEventListener('abort', closed);
    this.reading.set(row.appId, stop);
    this.changed(row, 'running');
    try {
      const done = await loadApp(this.work!, row, stop.signal);
      // A server stopping cleanly hands the reload back: the next start (or another server) loads it.
      if (closing.aborted && done.status === 'cancelled') {
        await this.kernel.store.release([row], () => 'queued', undefined, { message: null });
        return this.changed(row, 'queued');
      }
      if (await this.kernel.store.settle(row.id, done)) this.changed(row, done.status);
    } finally {
      closing.removeEventListener('abort', closed);
      this.reading.delete(row.appId);
    }
  }

  async recover(row: AppReloadRow): Promise<void> {
    if (await this.kernel.store.takeOver(row, { status: 'failed', message: INTERRUPTED, endedAt: this.s.now() }))
      this.changed(row, 'failed');
  }

  /** Screens following the app (its Data tab, monitoring) hear how its reload stands. */
  private changed(row: AppReloadRow, status: AppReloadRow['status']) {
    this.s.emit({
      type: 'analytics.reload.changed',
      payload: { appId: row.appId, id: row.id, status, trigger: row.trigger },
    });
  }

  async reloadNow(appId: string, startedBy: string | null): Promise<AppReloadRow | null> {
    // Refused in the insert itself when one is queued or running: two asked at once make one.
    const row = await this.kernel.store.insertClaimed(newReload(appId, 'manual', null, this.s.now(), startedBy));
    if (!row) return null;
    await this.kernel.adopt(row);
    return this.s.db.getRepository(AppReload).findOneByOrFail({ id: row.id });
  }

  async cancel(appId: string): Promise<boolean> {
    const repo = this.s.db.getRepository(AppReload);
    const queued = await repo.findBy({ appId, status: 'queued' });
    const dropped = await this.s.write(() =>
      repo.update({ appId, status: 'queued' }, { status: 'cancelled', message: CANCELLED, endedAt: this.s.now() }),
    );
    for (const row of queued) this.changed(row, 'cancelled');
    if (this.cancelHere(appId)) return true;
    const elsewhere = await repo.existsBy({ appId, status: 'running' });
    if (elsewhere) this.s.peers?.cancelReloadElsewhere(appId);
    return elsewhere || !!dropped.affected;
  }

  /** Stops the reload of an app this server reads; false when it reads none. */
  cancelHere(appId: string): boolean {
    const stop = this.reading.get(appId);
    stop?.abort();
    return !!stop;
  }

  close(): Promise<void> {
    return this.kernel.close(true);
  }
}
