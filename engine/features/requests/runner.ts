import type { EngineServices, OpContext } from '../../ops/context.js';
import { isEngineError } from '../../core/errors.js';
import { FINISHED, Request, type RequestFile, type RequestRow, type RequestStatus } from './requests.entity.js';
import { executeRequest, fileKeeper } from './execute-request.js';
import { RequestLog, removePartialFiles, removeRequestFiles, requestLogPath } from './request-output.js';
import { runNotificationMail } from '../mail/notifications.js';
import { Outbox } from '../mail/mail.entity.js';

/** How many requests run at once; each keeps the render pool busy with its own files in flight. */
const DEFAULT_CONCURRENCY = 2;
/** Progress is written and pushed at most this often per request. */
const PROGRESS_EVERY_MS = 250;

interface Running {
  row: RequestRow;
  controller: AbortController;
  done: Promise<void>;
}

/**
 * Runs queued requests: by priority (higher first), then age; a trigger's `Serial` execution waits
 * for the task's other runs, `Parallel` does not. State lives in SQLite, so a restart picks up the
 * queue, and requests a crash left `running` are marked `failed` with a log line saying so.
 */
export class RequestRunner {
  private readonly running = new Map<string, Running>();
  private pumping = false;
  private again = false;
  private closed = false;

  constructor(
    private readonly services: EngineServices,
    private readonly concurrency = DEFAULT_CONCURRENCY,
  ) {}

  private get ctx(): OpContext {
    return { ...this.services, principal: null, transport: 'internal', client: 'runner' };
  }

  /** At start: runs a crash interrupted are failed (never left stuck), their half-written files removed. */
  async recover(): Promise<number> {
    const stuck = await this.services.db.getRepository(Request).findBy({ status: 'running' });
    for (const row of stuck) {
      const removed = await removePartialFiles(this.services.dataDir, row.id);
      const log = new RequestLog(
        requestLogPath(this.services.dataDir, row.id),
        this.services.now,
        this.logFailure(row.id),
      );
      await log.line(
        `Interrupted: the app stopped while this request was running (crash or power loss); marked failed${removed ? `, ${removed} unfinished file${removed === 1 ? '' : 's'} removed` : ''}`,
      );
      await this.services.write(() =>
        this.services.db.getRepository(Request).update(
          { id: row.id, status: 'running' },
          {
            status: 'failed',
            message: 'Interrupted: the app stopped during the run',
            endedDate: this.services.now(),
            modifiedDate: this.services.now(),
          },
        ),
      );
      this.changed({ ...row, status: 'failed' });
    }
    return stuck.length;
  }

  /** Looks for queued work (after a request is queued, and whenever one finishes). */
  wake(): void {
    if (this.closed) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    void this.pump()
      .catch((e: unknown) =>
        this.services.log.error('The request queue could not be read', { error: (e as Error).message }),
      )
      .finally(() => {
        this.pumping = false;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  isRunning(id: string): boolean {
    return this.running.has(id);
  }

  private async pump() {
    while (!this.closed && this.running.size < this.concurrency) {
      const next = await this.nextEligible();
      if (!next) return;
      const claimed = await this.services.write(async () => {
        const now = this.services.now();
        const res = await this.services.db
          .getRepository(Request)
          .update({ id: next.id, status: 'queued' }, { status: 'running', startedDate: now, modifiedDate: now });
        return (res.affected ?? 0) > 0;
      });
      if (!claimed) continue;
      this.start({ ...next, status: 'running', startedDate: this.services.now() });
    }
  }

  private async nextEligible(): Promise<RequestRow | null> {
    const queued = await this.services.db
      .getRepository(Request)
      .find({ where: { status: 'queued' }, order: { priority: 'DESC', createdDate: 'ASC' }, take: 100 });
    const busyTasks = new Set([...this.running.values()].map((r) => r.row.taskId).filter(Boolean));
    return (
      queued.find(
        (r) => !this.running.has(r.id) && !(r.execution === 'Serial' && r.taskId && busyTasks.has(r.taskId)),
      ) ?? null
    );
  }

  private start(row: RequestRow) {
    const controller = new AbortController();
    const entry: Running = { row, controller, done: Promise.resolve() };
    this.running.set(row.id, entry);
    entry.done = this.execute(row, controller).finally(() => {
      this.running.delete(row.id);
      this.wake();
    });
  }

  /** A run's log line that could not be written reaches the engine's log (a full or read-only disk). */
  private logFailure(requestId: string) {
    return (e: Error) =>
      this.services.log.error('A request log line could not be written', { requestId, error: e.message });
  }

  private async execute(row: RequestRow, controller: AbortController) {
    const { dataDir, db, now } = this.services;
    const log = new RequestLog(requestLogPath(dataDir, row.id), now, this.logFailure(row.id));
    const files: RequestFile[] = [];
    let progress = { done: 0, total: 0 };
    let lastWrite = 0;
    const saveProgress = async (force = false) => {
      // Elapsed time between writes, not a time of day: the monotonic clock, which a test's fixed clock does not stop.
      const t = performance.now();
      if (!force && t - lastWrite < PROGRESS_EVERY_MS) return;
      lastWrite = t;
      this.changed({ ...row, status: 'running', progressDone: progress.done, progressTotal: progress.total });
      await this.services.write(() =>
        db
          .getRepository(Request)
          .update(
            { id: row.id, status: 'running' },
            { progressDone: progress.done, progressTotal: progress.total, files, modifiedDate: now() },
          ),
      );
    };
    this.changed(row);
    await log.line(
      `Started (${row.kind}${row.scheduledFor ? `, scheduled for ${row.scheduledFor.toISOString()}` : ''})`,
    );
    let status: RequestStatus;
    let message: string | null;
    try {
      const outcome = await executeRequest(this.ctx, row, {
        signal: controller.signal,
        requestId: row.id,
        files: () => files,
        log: (line) => void log.line(line),
        progress: (done, total) => {
          progress = { done, total };
          void saveProgress();
        },
        keep: fileKeeper(this.services, row.id, (f) => files.push(f)),
      });
      ({ status, message } = outcome);
    } catch (e) {
      if (controller.signal.aborted) {
        status = 'aborted';
        message = this.closed ? 'Stopped because the app closed' : 'Stopped';
        // Nothing of a stopped run is kept: a part of a run is not what anyone asked for.
        await removeRequestFiles(dataDir, row.id);
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
    if (notice) await log.line(`Notification of the outcome (${status}) queued`);
    await this.services.write(() =>
      db.transaction(async (m) => {
        await m.getRepository(Request).update({ id: row.id }, final);
        if (notice) await m.getRepository(Outbox).insert(notice);
      }),
    );
    if (notice) this.services.outbox.wake();
    this.changed({ ...row, ...final });
  }

  /**
   * Stops a request: a queued one at once, a running one at its next safe point (between files),
   * its partial output removed. Answers when it has stopped; false when it had already finished.
   */
  async stop(id: string): Promise<boolean> {
    const run = this.running.get(id);
    if (run) {
      run.controller.abort();
      await run.done;
      return true;
    }
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
    return false;
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

  /** Waits for running requests to stop (they end `aborted`, saying the app closed). */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.running.values()];
    for (const r of all) r.controller.abort();
    await Promise.all(all.map((r) => r.done));
  }

  static isFinished(status: RequestStatus) {
    return FINISHED.includes(status);
  }
}
