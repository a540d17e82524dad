import { stat } from 'node:fs/promises';
import { LessThanOrEqual } from 'typeorm';
import { newBase } from '../../../core/entity-base.js';
import { UNCLAIMED } from '../../../core/jobs/claims.js';
import type { RowPatch } from '../../../core/jobs/claims.js';
import { retryDelay } from '../../../core/jobs/backoff.js';
import type { JobKernel, JobWorker } from '../../../core/jobs/job-kernel.js';
import { claimingJobKernel, type NodeLease } from '../../../core/jobs/table-claims.js';
import type { DeliveryStatus } from '../../../core/enumerations.js';
import { Delivery, type DeliveryRow, type LaterDelivery } from '../../../model/deliveries.entity.js';
import { StorageService } from '../../../model/storage.entity.js';
import type { BaseServices, DeliveryDoor, Peers, WorkContext } from '../../../ops/context.js';
import type { WorkerModule } from '../../../ops/worker-module.js';
import { requestFileKey } from '../../requests/request-output.js';
import { bySubfolder, describe, putGroups, type RunFile } from './storage-delivery.js';

/** How a kept delivery is tried again: backoff between tries, and for how long before it ends failed. */
export interface DeliveryQueueOptions {
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** From the run's end: a destination still failing after this is said failed, for a person to retry. */
  giveUpAfterMs?: number;
}

const DEFAULTS: Required<DeliveryQueueOptions> = {
  baseDelayMs: 60_000,
  maxDelayMs: 30 * 60_000,
  giveUpAfterMs: 24 * 60 * 60_000,
};

/** A time as a person reads it in a run's log (the engine's clock, UTC, to the second). */
const at = (d: Date) => `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;

/**
 * Deliveries to folders, FTP, SFTP, WebDAV and cloud drives kept after their run, on the one job
 * kernel: a destination that failed for a passing cause (a full or read-only disk, a share not
 * mounted, a server down) is tried again with capped exponential backoff until it arrives or its
 * time is up; each outcome is told in the run's own log. Putting the files again is safe (a file
 * of the same name is replaced), so a try cut off by a crash is simply tried again.
 */
export class DeliveryQueue implements JobWorker<DeliveryRow>, WorkerModule, DeliveryDoor {
  readonly name = 'deliveries';
  readonly kernel: JobKernel<DeliveryRow>;
  private readonly o: Required<DeliveryQueueOptions>;
  /** The context deliveries run in, given at start (the engine is whole by then). */
  private work: WorkContext | null = null;

  constructor(
    private readonly s: BaseServices & { peers: Peers | null },
    private readonly log: (requestId: string, line: string) => void,
    options: DeliveryQueueOptions = {},
    node: NodeLease,
  ) {
    this.o = { ...DEFAULTS, ...options };
    this.kernel = claimingJobKernel(
      s,
      { entity: Delivery, statuses: { waiting: ['waiting'], active: 'delivering' } },
      this,
      { ...node, name: 'Deliveries', concurrency: 2 },
    );
  }

  start(work: WorkContext): Promise<number> {
    this.work = work;
    return this.kernel.start();
  }

  async close(): Promise<void> {
    await this.kernel.close(false);
  }

  /**
   * A delivery kept to be tried again after its run, and the words its run says of it. Written by
   * the runner with the run's outcome (see `Delivery.later`).
   */
  keep(requestId: string, taskReportId: string | null, d: LaterDelivery): { row: DeliveryRow; words: string } {
    const now = this.s.now();
    const nextAttemptAt = new Date(now.getTime() + retryDelay(1, this.backoff()));
    const giveUpAt = new Date(now.getTime() + this.o.giveUpAfterMs);
    // Its attempts count the queue's tries (the run's own are in its log).
    const row: DeliveryRow = {
      ...newBase(now),
      ...d,
      ...UNCLAIMED,
      requestId,
      taskReportId,
      status: 'waiting',
      nextAttemptAt,
      giveUpAt,
      deliveredAt: null,
    };
    return {
      row,
      words: `tried again by itself from ${at(nextAttemptAt)} until ${at(giveUpAt)} (Monitoring, Deliveries tried again)`,
    };
  }

  /** Rows a caller wrote in its own transaction, now committed: screens hear, the queue looks. */
  queued(rows: DeliveryRow[]): void {
    if (!rows.length) return;
    for (const row of rows) this.changed(row, row.status);
    this.wake();
  }

  wake(): void {
    this.kernel.nudge();
    this.s.peers?.nudge('deliveries');
  }

  changed(row: Pick<DeliveryRow, 'id' | 'requestId'>, status: DeliveryStatus): void {
    this.s.emit({ type: 'delivery.changed', payload: { id: row.id, requestId: row.requestId, status } });
  }

  waiting(): DeliveryStatus {
    return 'waiting';
  }

  claimed(now: Date) {
    return { modifiedDate: now };
  }

  ready(limit: number): Promise<DeliveryRow[]> {
    return this.s.db.getRepository(Delivery).find({
      where: { status: 'waiting', nextAttemptAt: LessThanOrEqual(this.s.now()) },
      order: { nextAttemptAt: 'ASC' },
      take: limit,
    });
  }

  async nextDue(): Promise<Date | null> {
    const next = await this.s.db.getRepository(Delivery).findOne({
      where: { status: 'waiting' },
      order: { nextAttemptAt: 'ASC' },
      select: { id: true, nextAttemptAt: true },
    });
    return next?.nextAttemptAt ?? null;
  }

  /** A try whose server stopped mid-way: tried again now (the files it put are put again, replaced). */
  async recover(row: DeliveryRow): Promise<void> {
    if (await this.kernel.store.takeOver(row, { status: 'waiting', nextAttemptAt: this.s.now() }))
      this.changed(row, 'waiting');
  }

  private backoff() {
    return { baseMs: this.o.baseDelayMs, maxMs: this.o.maxDelayMs };
  }

  async run(row: DeliveryRow): Promise<void> {
    const { now } = this.s;
    const settle = async (patch: RowPatch<DeliveryRow>, line: string) => {
      if (!(await this.kernel.store.settle(row.id, { ...patch, modifiedDate: now() }))) return;
      this.changed(row, patch.status ?? row.status);
      this.log(row.requestId, line);
    };
    const where = `“${row.destination}”${row.path ? ` under ${row.path}` : ''}`;
    const x = await this.s.db.getRepository(StorageService).findOneBy({ id: row.storageServiceId });
    if (!x)
      return settle(
        { status: 'failed', lastError: 'the destination no longer exists' },
        `Files not put in “${row.destination}”: the destination no longer exists (delivery ${row.id} failed)`,
      );
    const files: RunFile[] = [];
    for (const f of row.files) {
      const localPath = await this.s.files.localPath(requestFileKey(row.requestId, f.name));
      if (!(await stat(localPath).catch(() => null)))
        return settle(
          { status: 'failed', lastError: "the run's files are no longer there" },
          `Files not put in ${where}: ${f.name} is no longer among the run's files (delivery ${row.id} failed)`,
        );
      files.push({ name: f.name, localPath, variables: f.variables });
    }
    try {
      await putGroups(this.work!, x, row.path, bySubfolder(files, row.variable), (line) =>
        this.log(row.requestId, line),
      );
    } catch (err) {
      const problem = await describe(x, err);
      const next = new Date(now().getTime() + retryDelay(row.attempts, this.backoff()));
      if (problem.transient && next < row.giveUpAt)
        return settle(
          { status: 'waiting', lastError: problem.words, nextAttemptAt: next },
          `Files still not put in ${where}: ${problem.words} (try ${row.attempts}); next try at ${at(next)}`,
        );
      return settle(
        { status: 'failed', lastError: problem.words },
        `Files not put in ${where}: ${problem.words} (try ${row.attempts}); ${problem.transient ? 'no more tries by itself' : 'not tried again: it will not pass by itself'}. Retry it from Monitoring once fixed`,
      );
    }
    return settle(
      { status: 'delivered', lastError: null, deliveredAt: now() },
      `${files.length} file${files.length === 1 ? '' : 's'} put in ${where} (try ${row.attempts}, after the run)`,
    );
  }
}
