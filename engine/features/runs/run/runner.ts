import { In, type EntityManager } from 'typeorm';
import { LIVE } from '../../../core/enumerations.js';
import type { BaseServices, EngineServices, OpContext, WorkContext } from '../../../ops/context.js';

/** What the runner is built from: the base, the outbox its runs' mail goes to, and the other servers. */
type RunnerServices = BaseServices & Pick<EngineServices, 'outbox' | 'deliveries' | 'peers'>;
import type { JobKernel, JobWorker } from '../../../core/jobs/job-kernel.js';
import { claimingJobKernel, type NodeLease } from '../../../core/jobs/table-claims.js';
import { renewedAt } from '../../../core/jobs/claims.js';
import type { Handoff } from '../../../core/jobs/handoff.js';
import { isDatabaseUnavailable, isEngineError, isStorageTransient } from '../../../core/errors.js';
import { DEFAULT_OUTAGE_WAIT_MS } from '../../../core/limits.js';
import { retryDelay, type Backoff } from '../../../core/jobs/backoff.js';
import { abortableDelay, retryWhile } from '../../../core/jobs/retry-while.js';
import { Request, type RequestFile, type RequestRow, type RequestStatus } from '../../../model/requests.entity.js';
import { executeRequest, fileKeeper } from './execute-request.js';
import { RequestLog, removePartialFiles, removeRequestFiles, requestLogPath } from '../../requests/request-output.js';
import { runNotificationMail } from '../deliver/notifications.js';
import type { OutboxRow } from '../../../model/mail.entity.js';
import { insertMail } from '../../mail/outbox.js';
import { Delivery, type DeliveryRow } from '../../../model/deliveries.entity.js';
import { SupersededAttempt } from '../deliver/delivery.js';
import type { WorkerModule } from '../../../ops/worker-module.js';

/** How many requests run at once; each keeps the render pool busy with its own files in flight. */
const DEFAULT_CONCURRENCY = 2;
/** Progress is written and pushed at most this often per request. */
const PROGRESS_EVERY_MS = 250;
/** A run cut off by a crash or a dead node runs once more; a second cut-off fails it (the run may be the cause). */
const RUN_ATTEMPTS = 2;
/** Queued requests looked at in one look for free slots. */
const LOOK_AHEAD = 100;

/** How a run whose files folder failed (EACCES, ENOSPC, EIO…) waits and starts again before it fails. */
export interface StorageRetry extends Backoff {
  tries: number;
}
const STORAGE_RETRY: StorageRetry = { tries: 3, baseMs: 5_000, maxMs: 60_000 };
/** How a run whose database went away looks again (it starts again once the database answers). */
const DATABASE_WAIT: Backoff = { baseMs: 500, maxMs: 5_000 };
/** How long a stopping server tries to hand a run back while the database is away (then the lease brings it back). */
const HAND_BACK_WAIT_MS = 5_000;

/** How often, at most, an attempt asks the database whether its run is still its own. */
const FENCE_ASK_EVERY_MS = 1_000;

/** A file keeper that first makes sure the run is still this attempt's. */
const fenced =
  <A extends unknown[], R>(stillMine: () => Promise<void>, keep: (...args: A) => Promise<R>) =>
  async (...args: A): Promise<R> => {
    await stillMine();
    return keep(...args);
  };

export interface RunnerOptions extends NodeLease {
  concurrency?: number;
  storageRetry?: StorageRetry;
  /** Servers sharing PostgreSQL: queued requests are handed out through pg-boss. */
  handoff?: Handoff;
  /** How long a run waits for the database, from its first failed call (DEFAULT_OUTAGE_WAIT_MS). */
  outageWaitMs?: number;
}

/** Best first: higher priority, then older. */
const byPriorityThenAge = (a: RequestRow, b: RequestRow) =>
  b.priority - a.priority || a.createdDate.getTime() - b.createdDate.getTime();

const asJob = (r: Pick<RequestRow, 'id' | 'priority'>) => ({ id: r.id, priority: r.priority });

/**
 * Runs queued requests on the job kernel: by priority (higher first), then age; a trigger's
 * `Serial` execution waits for the task's other runs (on any engine), `Parallel` does not. A run
 * cut off by a crash, or held by an engine that stopped renewing its lease, starts again from the
 * beginning (its partial files removed) once; cut off twice, it fails, saying so.
 */
export class RequestRunner implements JobWorker<RequestRow>, WorkerModule {
  readonly name = 'runner';
  readonly kernel: JobKernel<RequestRow>;
  private closing = false;
  private readonly handoff: Handoff | null;
  private readonly storageRetry: StorageRetry;
  private readonly outageWaitMs: number;
  private readonly leaseMs: number;

  constructor(
    private readonly services: RunnerServices,
    o: RunnerOptions,
  ) {
    this.handoff = o.handoff ?? null;
    this.storageRetry = o.storageRetry ?? STORAGE_RETRY;
    this.outageWaitMs = o.outageWaitMs ?? DEFAULT_OUTAGE_WAIT_MS;
    this.leaseMs = o.leaseMs;
    this.kernel = claimingJobKernel(
      services,
      {
        entity: Request,
        statuses: {
          waiting: ['queued'],
          active: 'running',
          // A Serial schedule's run waits while another run of its task runs, on any server.
          oneAtATime: { column: 'taskId', when: `"execution" = 'Serial'` },
        },
      },
      this,
      {
        ...o,
        name: 'Requests',
        concurrency: o.concurrency ?? DEFAULT_CONCURRENCY,
      },
    );
  }

  /** The context runs execute in: the whole engine's, as background work (given at start). */
  private work: WorkContext | null = null;

  private get ctx(): OpContext {
    if (!this.work) throw new Error('The runner ran a request before it was started');
    return this.work;
  }

  /**
   * At start: runs a crash cut off are recovered, then the queue resumes. `work` is the context runs
   * execute in, which the composition root builds once every door of the engine exists.
   */
  async start(work: WorkContext): Promise<number> {
    this.work = work;
    if (this.handoff) {
      // Requests queued before the servers shared a queue (or by an older release) get their jobs.
      const queued = await this.services.db
        .getRepository(Request)
        .find({ select: { id: true, priority: true }, where: { status: 'queued' } });
      await this.services.db.transaction((m) => this.handoff!.ensure(m, queued.map(asJob)));
    }
    return this.kernel.start();
  }

  /** Requests just written as queued, in the transaction that wrote them: their jobs go with them. */
  async queued(m: EntityManager, rows: Pick<RequestRow, 'id' | 'priority'>[]): Promise<void> {
    await this.handoff?.send(m, rows.map(asJob));
  }

  /** Looks for queued work (after a request is queued, and whenever one finishes). */
  wake(): void {
    this.kernel.nudge();
    this.services.peers?.nudge('requests');
  }

  isRunning(id: string): boolean {
    return this.kernel.isHeld(id);
  }

  waiting(): RequestStatus {
    return 'queued';
  }

  claimed(now: Date) {
    return { startedDate: now, modifiedDate: now };
  }

  /** Queued requests in order, leaving out Serial ones whose task is running (here or on another engine). */
  async ready(limit: number, held: ReadonlySet<string>): Promise<RequestRow[]> {
    if (this.handoff) return this.handedOut(limit, held);
    const queued = await this.services.db.getRepository(Request).find({
      where: { status: 'queued' },
      order: { priority: 'DESC', createdDate: 'ASC' },
      take: LOOK_AHEAD,
    });
    return (await this.choose(queued, limit, held, new Set())).chosen;
  }

  /** Of queued rows in order: up to `limit` that may start now; Serial ones whose task runs wait. */
  private async choose(queued: RequestRow[], limit: number, held: ReadonlySet<string>, busy: Set<string | null>) {
    const serialTasks = [
      ...new Set(
        queued.filter((r) => r.execution === 'Serial' && r.taskId && !busy.has(r.taskId)).map((r) => r.taskId!),
      ),
    ];
    if (serialTasks.length)
      for (const r of await this.services.db.getRepository(Request).find({
        select: { taskId: true },
        where: { status: 'running', taskId: In(serialTasks) },
      }))
        busy.add(r.taskId);
    const chosen: RequestRow[] = [];
    const waiting: RequestRow[] = [];
    for (const r of queued) {
      if (chosen.length >= limit || held.has(r.id)) {
        waiting.push(r);
        continue;
      }
      if (r.execution === 'Serial' && r.taskId) {
        if (busy.has(r.taskId)) {
          waiting.push(r);
          continue;
        }
        busy.add(r.taskId);
      }
      chosen.push(r);
    }
    return { chosen, waiting };
  }

  /**
   * Servers sharing PostgreSQL: the jobs pg-boss hands this server, each to one server. A job whose
   * request no longer waits (stopped, or run after a duplicate delivery) is done; a Serial one whose
   * task is running goes back to the queue (behind what is there) for a later look.
   */
  private async handedOut(limit: number, held: ReadonlySet<string>): Promise<RequestRow[]> {
    const handoff = this.handoff!;
    const repo = this.services.db.getRepository(Request);
    const chosen: RequestRow[] = [];
    const waiting: RequestRow[] = [];
    const busy = new Set<string | null>();
    let looked = 0;
    while (chosen.length < limit && looked < LOOK_AHEAD) {
      const ids = await handoff.take(limit - chosen.length);
      if (!ids.length) break;
      looked += ids.length;
      const rows = (await repo.findBy({ id: In(ids), status: 'queued' })).sort(byPriorityThenAge);
      const found = new Set(rows.map((r) => r.id));
      await handoff.done(ids.filter((id) => !found.has(id)));
      const next = await this.choose(rows, limit - chosen.length, held, busy);
      chosen.push(...next.chosen);
      waiting.push(...next.waiting);
    }
    if (waiting.length) await this.handBack(waiting);
    return chosen;
  }

  /** Jobs taken but not run here go back to the queue, for this server or another. */
  private handBack(rows: RequestRow[]): Promise<void> {
    return this.services.db.transaction((m) => this.queued(m, rows));
  }

  /** After a claim: the jobs of requests claimed here are done; those another took or stopped are too. */
  async tried(offered: RequestRow[], claimed: RequestRow[]): Promise<void> {
    if (!this.handoff) return;
    const taken = new Set(claimed.map((r) => r.id));
    const missed = offered.filter((r) => !taken.has(r.id));
    // One still queued was passed over while locked (a stop being written): it goes back.
    const still = missed.length
      ? await this.services.db.getRepository(Request).findBy({ id: In(missed.map((r) => r.id)), status: 'queued' })
      : [];
    const back = new Set(still.map((r) => r.id));
    await this.handoff.done(offered.filter((r) => !back.has(r.id)).map((r) => r.id));
    if (still.length) await this.handBack(still);
  }

  /** Claimed requests a closing server did not start are queued again: their jobs go back too. */
  givenBack(rows: RequestRow[], m: EntityManager): Promise<void> {
    return this.queued(m, rows);
  }

  /** A run whose engine stopped: its partial files go; it runs again, or fails once cut off twice. */
  async recover(row: RequestRow, own: boolean): Promise<void> {
    const { dataDir, now } = this.services;
    const again = row.attempts < RUN_ATTEMPTS;
    const log = new RequestLog(requestLogPath(dataDir, row.id), now, this.logFailure(row.id));
    const patch = again
      ? {
          status: 'queued' as const,
          message: null,
          files: [],
          progressDone: 0,
          progressTotal: 0,
          startedDate: null,
          modifiedDate: now(),
        }
      : {
          status: 'failed' as const,
          message: 'Interrupted: the app stopped during the run',
          endedDate: now(),
          modifiedDate: now(),
        };
    // Held while its files are cleaned up, so no engine starts it again before that.
    if (!(await this.kernel.store.takeOver(row, {}))) return;
    // A run that starts again makes every file anew; a failed one keeps what it had finished.
    const { files } = this.services;
    const removed = again ? await removeRequestFiles(files, row.id) : await removePartialFiles(files, row.id);
    // A server that stopped renewing its lease may be dead or only paused (SIGSTOP, a suspended
    // machine): said as what is known, how long it has been silent.
    const renewed = renewedAt(row, this.leaseMs);
    const silentS = renewed === null ? null : Math.max(0, Math.round((this.services.now().getTime() - renewed) / 1000));
    const who = own
      ? 'the app stopped while this request was running (a crash or power loss)'
      : `the server running it (${row.claimedBy ?? 'unknown'}) stopped answering${silentS !== null ? ` for ${silentS} s` : ''} while this request was running`;
    await log.line(
      `Interrupted: ${who}; ${
        again ? `started again (attempt ${row.attempts + 1} of ${RUN_ATTEMPTS})` : 'marked failed'
      }${removed ? `, ${removed} file${removed === 1 ? '' : 's'} removed` : ''}`,
    );
    // Queued again with its job (servers sharing a queue) in one transaction.
    await this.services.write(() =>
      this.services.db.transaction(async (m) => {
        if ((await this.kernel.store.settle(row.id, patch, m)) && again) await this.queued(m, [row]);
      }),
    );
    this.changed({ ...row, ...patch });
  }

  /** A run's log line that could not be written reaches the engine's log (a full or read-only disk). */
  private logFailure(requestId: string) {
    return (e: Error) =>
      this.services.log.error('A request log line could not be written', { requestId, error: e.message });
  }

  /**
   * Whether this attempt still holds its run, asked before each of its files and log lines lands
   * (fencing, issue 57 finding 3): a server paused past its lease (SIGSTOP, a suspended virtual
   * machine) wakes up in the middle of its work, and by then another server may have taken the run
   * over. The database is asked once a second at most, and always once the lease last seen is near
   * its end on the engine's clock; a lapsed lease still this server's is renewed first. Once lost,
   * the attempt writes nothing more into the run's files or log.
   */
  private attemptFence(row: RequestRow) {
    const clock = () => this.services.now().getTime();
    const renewed = renewedAt(row, this.leaseMs);
    let sureUntil = renewed === null ? 0 : renewed + (this.leaseMs * 2) / 3;
    let askedAt = performance.now();
    let lost = false;
    const holds = async (): Promise<boolean> => {
      if (lost) return false;
      if (clock() < sureUntil && performance.now() - askedAt < FENCE_ASK_EVERY_MS) return true;
      const store = this.kernel.store;
      let lease = await store.leaseOf(row.id);
      if (lease && lease.getTime() <= clock()) {
        await store.heartbeat([row.id]);
        lease = await store.leaseOf(row.id);
      }
      askedAt = performance.now();
      if (!lease || lease.getTime() <= clock()) lost = true;
      else sureUntil = lease.getTime() - this.leaseMs / 3;
      return !lost;
    };
    return {
      /** For the log: a database away for a moment does not stop a line (the outcome is fenced anyway). */
      mayWrite: () => holds().catch(() => !lost),
      /** Before a file lands: throws once the run is another server's. */
      check: async () => {
        if (!(await holds())) throw new SupersededAttempt();
      },
    };
  }

  async run(row: RequestRow, signal: AbortSignal): Promise<void> {
    const { dataDir, db, now } = this.services;
    const fence = this.attemptFence(row);
    const log = new RequestLog(requestLogPath(dataDir, row.id), now, this.logFailure(row.id), fence.mayWrite);
    const files: RequestFile[] = [];
    // The run's mail: written with its outcome, never before (see `Delivery.post`).
    const mail: OutboxRow[] = [];
    // Deliveries that failed for a passing cause, kept to be tried after the run: written with its outcome too.
    const later: DeliveryRow[] = [];
    let progress = { done: 0, total: 0 };
    let lastWrite = 0;
    let progressUnsaved = false;
    const saveProgress = async () => {
      // Elapsed time between writes, not a time of day: the monotonic clock, which a test's fixed clock does not stop.
      const t = performance.now();
      if (t - lastWrite < PROGRESS_EVERY_MS) return;
      lastWrite = t;
      this.changed({ ...row, status: 'running', progressDone: progress.done, progressTotal: progress.total });
      await this.kernel.store.settle(row.id, {
        progressDone: progress.done,
        progressTotal: progress.total,
        files,
        modifiedDate: now(),
      });
    };
    // Progress is worth a write, not a failed run: a database away for a moment is said once and the run goes on.
    const saveProgressQuietly = (): void => {
      saveProgress().then(
        () => void (progressUnsaved = false),
        (e: unknown) => {
          if (progressUnsaved) return;
          progressUnsaved = true;
          this.services.log.warn('A run’s progress could not be saved; the run goes on', {
            request: row.id,
            error: (e as Error).message,
          });
        },
      );
    };
    this.changed(row);
    await log.line(
      `Started (${row.kind}${row.scheduledFor ? `, scheduled for ${row.scheduledFor.toISOString()}` : ''})`,
    );
    let status: RequestStatus;
    let message: string | null;
    try {
      ({ status, message } = await this.execute(
        row,
        signal,
        log,
        fence.check,
        files,
        { mail, later },
        (done, total) => {
          progress = { done, total };
          saveProgressQuietly();
        },
      ));
    } catch (e) {
      // A server stopping cleanly hands its runs back: another (or this one, started again) runs them.
      if (signal.aborted && this.closing) return this.handBackAtStop(row, log);
      if (e instanceof SupersededAttempt) return this.superseded(row);
      mail.length = 0;
      later.length = 0;
      if (signal.aborted) {
        status = 'aborted';
        message = 'Stopped';
        // Nothing of a stopped run is kept: a part of a run is not what anyone asked for.
        await removeRequestFiles(this.services.files, row.id);
        files.length = 0;
      } else {
        status = 'failed';
        message = isEngineError(e) || e instanceof Error ? e.message : String(e);
        if (!isEngineError(e)) this.services.log.error('A request failed', { request: row.id, error: message });
      }
    }
    await log.line(
      `Ended ${status}${message ? `: ${message}` : ''}; ${files.length} file${files.length === 1 ? '' : 's'}`,
    );
    const end = now();
    const final = {
      status,
      message,
      files,
      endedDate: end,
      modifiedDate: end,
      progressDone: status === 'completed' ? progress.total || progress.done : progress.done,
      progressTotal: progress.total,
    };
    // The outcome and the mail telling of it land together: a crash leaves both or neither.
    const notice =
      status === 'aborted'
        ? null
        : await runNotificationMail(this.ctx, row, status, message, files.length).catch((e: unknown) => {
            this.services.log.error('A run notification could not be written', {
              request: row.id,
              error: (e as Error).message,
            });
            return null;
          });
    if (notice) {
      mail.push(notice);
      await log.line(`Notification of the outcome (${status}) queued`);
    }
    // Only while this engine still holds the run: one whose lease lapsed was taken over elsewhere.
    // A database away for a moment is waited for (up to a lease: after that another server may take
    // the run over); the guard makes a commit whose answer was lost harmless to try again, and
    // needs no lock of other servers (`guardedWrite`).
    const settled = await retryWhile(
      () =>
        this.services.guardedWrite(() =>
          db.transaction(async (m) => {
            if (!(await this.kernel.store.settle(row.id, final, m))) return false;
            await insertMail(m, mail);
            if (later.length) await m.getRepository(Delivery).insert(later);
            return true;
          }),
        ),
      {
        passing: isDatabaseUnavailable,
        giveUpAfterMs: this.outageWaitMs,
        waiting: (e, tries) =>
          tries === 1 &&
          this.services.log.warn('The database cannot be reached: a run’s outcome waits for it', {
            request: row.id,
            error: e.message,
          }),
      },
    );
    if (!settled) return this.superseded(row);
    this.services.outbox.queued(mail);
    this.services.deliveries.queued(later);
    this.changed({ ...row, ...final });
  }

  /**
   * Makes the run's files and mail. What passes is waited out and the run starts again from the
   * beginning, its log saying why: the storage under the files folder failing (a share remounted
   * read-only, a full or failing disk; a few times, then the run fails), or the database out of reach
   * (PostgreSQL restarting: until it answers, for up to a lease, after which another server may take
   * the run over).
   */
  private async execute(
    row: RequestRow,
    signal: AbortSignal,
    log: RequestLog,
    stillMine: () => Promise<void>,
    files: RequestFile[],
    written: { mail: OutboxRow[]; later: DeliveryRow[] },
    progress: (done: number, total: number) => void,
  ) {
    const { mail, later } = written;
    const retry = this.storageRetry;
    let storageTries = 0;
    let databaseTries = 0;
    // When the database first failed this run, on the engine's clock: a run that had already used most
    // of its lease still gets the whole wait (measured from its start, it got none; issue 57, finding 2).
    let outageSince: number | null = null;
    const now = () => this.services.now().getTime();
    for (;;) {
      try {
        return await executeRequest(this.ctx, row, {
          signal,
          requestId: row.id,
          files: () => files,
          log: (line) => log.line(line).catch(this.logFailure(row.id)),
          progress,
          keep: fenced(
            stillMine,
            fileKeeper(this.services, row.id, (f) => files.push(f)),
          ),
          post: (rows) => mail.push(...rows),
          later: (taskReportId, delivery) => {
            const kept = this.services.deliveries.keep(row.id, taskReportId, delivery);
            later.push(kept.row);
            return kept.words;
          },
          stillHeld: async (m) => {
            if (!(await this.kernel.store.holds(row.id, m))) throw new SupersededAttempt();
          },
        });
      } catch (e) {
        if (signal.aborted) throw e;
        const problem = `${(e as NodeJS.ErrnoException).code ?? 'error'}: ${(e as Error).message}`;
        let wait: number;
        if (!isDatabaseUnavailable(e)) outageSince = null;
        else outageSince ??= now();
        if (isStorageTransient(e) && storageTries < retry.tries) {
          wait = retryDelay(++storageTries, retry);
          await log.line(
            `The files folder failed (${problem}); starting again in ${Math.ceil(wait / 1000)} s (retry ${storageTries} of ${retry.tries})`,
          );
          this.services.log.warn('A run could not write its files; it starts again after a wait', {
            request: row.id,
            error: (e as Error).message,
          });
        } else if (outageSince !== null && now() - outageSince < this.outageWaitMs) {
          wait = retryDelay(++databaseTries, DATABASE_WAIT);
          if (databaseTries === 1) {
            await log.line(
              `The database could not be reached (${problem}); the run starts again once it answers (it waits up to ${Math.round(this.outageWaitMs / 60_000)} min)`,
            );
            this.services.log.warn('The database cannot be reached: a run starts again once it answers', {
              request: row.id,
              error: (e as Error).message,
            });
          }
        } else {
          if (outageSince !== null)
            await log
              .line(`The database stayed out of reach for ${Math.round((now() - outageSince) / 1000)} s: the run fails`)
              .catch(() => undefined);
          throw e;
        }
        await removeRequestFiles(this.services.files, row.id).catch(() => 0);
        files.length = 0;
        mail.length = 0;
        later.length = 0;
        progress(0, 0);
        await abortableDelay(wait, signal);
      }
    }
  }

  /**
   * This attempt lost its claim (a pause or a cut-off past its lease): it leaves the run to the server
   * that took it over, and says so in this server's log only (the run's log is the winner's).
   */
  private async superseded(row: RequestRow): Promise<void> {
    this.services.log.warn(
      'A run ended after another engine took it over; its outcome is left to that run, and this attempt wrote nothing more',
      { request: row.id, node: this.kernel.store.owner },
    );
  }

  /**
   * A run this server was asked to stop by its own clean stop (SIGTERM, the desktop's Quit): it goes
   * back to the queue as if never started (its attempt not counted, its files removed), with its job
   * on a shared queue, and its log says why. Nothing of it was delivered by mail (mail is written
   * with an outcome only).
   */
  private async handBackAtStop(row: RequestRow, log: RequestLog): Promise<void> {
    const removed = await removeRequestFiles(this.services.files, row.id).catch(() => 0);
    await log.line(
      `Handed back: the server (${this.kernel.store.owner}) stopped cleanly while this request was running; it starts again from the beginning when a server runs it (this attempt not counted)${removed ? `, ${removed} file${removed === 1 ? '' : 's'} removed` : ''}`,
    );
    const reset = {
      message: null,
      files: [],
      progressDone: 0,
      progressTotal: 0,
      startedDate: null,
      modifiedDate: this.services.now(),
    };
    await retryWhile(
      () =>
        this.kernel.store.release(
          [row],
          () => 'queued',
          (rows, m) => this.queued(m, rows),
          reset,
        ),
      { passing: isDatabaseUnavailable, giveUpAfterMs: HAND_BACK_WAIT_MS },
    );
    this.changed({ ...row, ...reset, status: 'queued' });
  }

  /**
   * Stops a request: a queued one at once, a running one at its next safe point (between files),
   * its partial output removed. Answers when it has stopped; false when it had already finished.
   */
  async stop(id: string): Promise<boolean> {
    if (await this.kernel.abort(id)) return true;
    const now = this.services.now();
    const res = await this.services.write(() =>
      this.services.db
        .getRepository(Request)
        .update(
          { id, status: 'queued' },
          { status: 'aborted', message: 'Stopped before it started', endedDate: now, modifiedDate: now },
        ),
    );
    if ((res.affected ?? 0) > 0) {
      const row = await this.services.db.getRepository(Request).findOneBy({ id });
      if (row) this.changed(row);
      return true;
    }
    // Running on another server sharing the database: that server is asked.
    return this.services.peers ? this.services.peers.stopElsewhere(id) : false;
  }

  /** Stops a run this server holds (asked by another server); false when it holds none by that id. */
  stopHere(id: string): Promise<boolean> {
    return this.kernel.abort(id);
  }

  async stopTasks(taskIds: string[]): Promise<number> {
    if (!taskIds.length) return 0;
    const live = await this.services.db.getRepository(Request).findBy({ taskId: In(taskIds), status: In(LIVE) });
    for (const r of live) await this.stop(r.id);
    return live.length;
  }

  private changed(row: Pick<RequestRow, 'id' | 'kind' | 'taskId' | 'status' | 'progressDone' | 'progressTotal'>) {
    this.services.emit({
      type: 'request.changed',
      payload: {
        id: row.id,
        kind: row.kind,
        taskId: row.taskId,
        status: row.status,
        progressDone: row.progressDone,
        progressTotal: row.progressTotal,
      },
    });
  }

  /**
   * Stops taking work; runs still going after `graceMs` are handed back to the queue (see
   * `handBackAtStop`), to run again at the next start or on another server.
   */
  async close({ graceMs }: { graceMs: number }): Promise<void> {
    this.closing = true;
    await this.kernel.close(true, graceMs);
    // The queue the servers share lets this one go once its runs are settled.
    await this.handoff?.close();
  }

  /** How many runs this server is running now (the desktop's Quit asks before handing them back). */
  runningCount(): number {
    return this.kernel.heldRows().length;
  }
}
