import { join } from 'node:path';
import { LessThanOrEqual, type EntityManager } from 'typeorm';
import type { Transporter } from 'nodemailer';
import type { BaseServices, EngineServices } from '../../ops/context.js';

/** What the outbox is built from: the base, and the other servers to nudge when mail is queued. */
type OutboxServices = BaseServices & Pick<EngineServices, 'peers'>;
import { OUTBOX_WAITING } from '../../core/enumerations.js';
import type { JobKernel, JobWorker } from '../../core/jobs/job-kernel.js';
import { claimingJobKernel, type NodeLease } from '../../core/jobs/table-claims.js';
import type { RowPatch } from '../../core/jobs/claims.js';
import { retryDelay } from '../../core/jobs/backoff.js';
import { MailServer, Outbox, type MailServerRow, type OutboxRow, type OutboxStatus } from '../../model/mail.entity.js';
import type { WorkerModule } from '../../ops/worker-module.js';

export interface OutboxOptions {
  /** First retry delay; each next one doubles, up to `maxDelayMs`. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Attempts before a transient failure counts as final. */
  maxAttempts?: number;
  /** Messages sent at once (the pool's connections share them). */
  concurrency?: number;
  /** Connections kept open to one server. */
  connections?: number;
}

const TRANSIENT_CODES = new Set([
  'ECONNECTION',
  'ETIMEDOUT',
  'ESOCKET',
  'ECONNRESET',
  'EDNS',
  'ECONNREFUSED',
  'EPROTOCOL',
]);

/** A failure worth retrying: a 4xx reply, or the connection failing; 5xx and authentication are final. */
export function isTransient(e: { responseCode?: number; code?: string }): boolean {
  if (typeof e.responseCode === 'number') return e.responseCode >= 400 && e.responseCode < 500;
  return e.code !== 'EAUTH' && (TRANSIENT_CODES.has(e.code ?? '') || !e.code);
}

/**
 * The persisted outbox on the job kernel: a message is a row before it is sent, `sending` while an
 * engine holds it, `sent` once the server accepted it. Transient failures wait and retry with
 * capped exponential backoff; permanent ones end `failed` and are told in the run's log. A message
 * whose holder stopped (a crash, a dead engine) was cut off with its outcome unknown: it is marked
 * uncertain and sent again with the same Message-ID. Nothing else is ever sent twice.
 */
/** Writes mail rows in a caller's transaction, 200 to a statement. */
export async function insertMail(m: EntityManager, rows: OutboxRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 200) await m.getRepository(Outbox).insert(rows.slice(i, i + 200));
}

export class MailOutbox implements JobWorker<OutboxRow>, WorkerModule {
  readonly name = 'outbox';
  private readonly transports = new Map<string, { key: string; transport: Transporter }>();
  /** The servers of the latest batch: looked up once per batch (an edited server applies to the next), not per message. */
  private readonly servers = new Map<string, { server: MailServerRow; transport: Transporter } | null>();
  private readonly o: Required<OutboxOptions>;
  readonly kernel: JobKernel<OutboxRow>;

  constructor(
    private readonly services: OutboxServices,
    private readonly log: (requestId: string, line: string) => void,
    options: OutboxOptions = {},
    node: NodeLease,
  ) {
    this.o = {
      baseDelayMs: 2_000,
      maxDelayMs: 10 * 60_000,
      maxAttempts: 12,
      concurrency: 16,
      connections: 10,
      ...options,
    };
    this.kernel = claimingJobKernel(
      services,
      { entity: Outbox, statuses: { waiting: OUTBOX_WAITING, active: 'sending' } },
      this,
      { ...node, name: 'Outbox', concurrency: this.o.concurrency, batch: this.o.concurrency * 8 },
    );
  }

  /** At start: sends a crash cut off become uncertain, then the queue resumes. */
  start(): Promise<number> {
    return this.kernel.start();
  }

  /** A message whose sender stopped mid-send: its outcome is unknown, so it goes again, uncertain. */
  async recover(row: OutboxRow): Promise<void> {
    const patch = { status: 'uncertain' as const, uncertain: true, nextAttemptAt: this.services.now() };
    if (!(await this.kernel.store.takeOver(row, patch))) return;
    if (row.requestId)
      this.log(
        row.requestId,
        `Mail to ${row.to.join(', ')} was being sent when ${row.claimedBy === this.kernel.store.owner ? 'the app' : `the engine sending it (${row.claimedBy ?? 'unknown'})`} stopped; its outcome is unknown, so it is sent again with the same Message-ID ${row.messageId}`,
      );
    this.changed(row, 'uncertain');
  }

  /** Writes messages to the outbox (durably, before any is sent), then starts sending. */
  async enqueue(rows: OutboxRow[]): Promise<void> {
    if (!rows.length) return;
    await this.services.write(() => this.services.db.transaction((m) => insertMail(m, rows)));
    this.queued(rows);
  }

  /** After rows written in a caller's transaction (a run's outcome) have committed: screens hear, the kernel looks. */
  queued(rows: OutboxRow[]): void {
    if (!rows.length) return;
    for (const row of rows) this.changed(row, row.status);
    this.wake();
  }

  /** Tells the screens (monitoring follows its mail live). */
  changed(m: Pick<OutboxRow, 'id' | 'requestId'>, status: OutboxStatus): void {
    this.services.emit({ type: 'mail.changed', payload: { id: m.id, requestId: m.requestId, status } });
  }

  wake(): void {
    this.kernel.nudge();
    this.services.peers?.nudge('mail');
  }

  waiting(row: OutboxRow): OutboxStatus {
    return row.uncertain ? 'uncertain' : 'queued';
  }

  claimed(now: Date) {
    return { modifiedDate: now };
  }

  /** Messages due now, earliest first. */
  ready(limit: number): Promise<OutboxRow[]> {
    const due = LessThanOrEqual(this.services.now());
    return this.services.db.getRepository(Outbox).find({
      where: OUTBOX_WAITING.map((status) => ({ status, nextAttemptAt: due })),
      order: { nextAttemptAt: 'ASC' },
      take: limit,
    });
  }

  /** The earliest retry waiting, so the kernel looks again then. */
  async nextDue(): Promise<Date | null> {
    const next = await this.services.db.getRepository(Outbox).findOne({
      where: OUTBOX_WAITING.map((status) => ({ status })),
      order: { nextAttemptAt: 'ASC' },
      select: { id: true, nextAttemptAt: true },
    });
    return next?.nextAttemptAt ?? null;
  }

  async prepare(rows: OutboxRow[]): Promise<void> {
    for (const id of new Set(rows.map((m) => m.mailServerId))) this.servers.set(id, await this.transportFor(id));
  }

  private async transportFor(serverId: string): Promise<{ server: MailServerRow; transport: Transporter } | null> {
    const server = await this.services.db.getRepository(MailServer).findOneBy({ id: serverId });
    if (!server) return null;
    // A changed server gets a new pool: the key is everything the connection depends on.
    const key = JSON.stringify([server.hostName, server.smtpPort, server.ssl, server.userName, server.password]);
    const cached = this.transports.get(serverId);
    if (cached?.key === key) return { server, transport: cached.transport };
    cached?.transport.close();
    const transport = await createTransport(
      server,
      this.services.secrets.open.bind(this.services.secrets),
      true,
      this.o.connections,
    );
    this.transports.set(serverId, { key, transport });
    return { server, transport };
  }

  /** Sends one claimed message (its attempt already counted by the claim). */
  async run(m: OutboxRow): Promise<void> {
    const { now } = this.services;
    const t = this.servers.get(m.mailServerId) ?? null;
    const done = async (change: RowPatch<OutboxRow>) => {
      if (await this.kernel.store.settle(m.id, { ...change, modifiedDate: now() }))
        this.changed(m, change.status ?? m.status);
    };
    if (!t) {
      await done({ status: 'failed', lastError: 'The mail server no longer exists' });
      if (m.requestId) this.log(m.requestId, `Mail to ${m.to.join(', ')} not sent: its mail server was deleted`);
      return;
    }
    try {
      const info = await t.transport.sendMail({
        messageId: m.messageId,
        from: m.from,
        to: m.to,
        cc: m.cc,
        bcc: m.bcc,
        subject: m.subject,
        text: m.text ?? undefined,
        html: m.html ?? undefined,
        attachments: m.attachments.map((a) => ({
          filename: a.fileName,
          path: join(this.services.dataDir, a.path),
          ...(a.cid ? { cid: a.cid } : {}),
        })),
        disableFileAccess: false,
        disableUrlAccess: true,
      });
      const rejected = (info.rejected as (string | { address: string })[]).map((r) =>
        typeof r === 'string' ? r : r.address,
      );
      const errors = (info as { rejectedErrors?: { recipient?: string; response?: string }[] }).rejectedErrors ?? [];
      await done({
        status: 'sent',
        sentAt: now(),
        lastError: null,
        accepted: (info.accepted as (string | { address: string })[]).map((r) =>
          typeof r === 'string' ? r : r.address,
        ),
        rejected: rejected.map((address) => ({
          address,
          reply: errors.find((e) => e.recipient === address)?.response ?? 'refused',
        })),
      });
      if (m.requestId && rejected.length)
        this.log(
          m.requestId,
          `Mail ${m.messageId} accepted for ${info.accepted.length} recipient(s), refused for ${rejected.join(', ')}`,
        );
    } catch (err) {
      const e = err as { responseCode?: number; code?: string; response?: string; message: string };
      const attempts = m.attempts;
      const reply = (e.response ?? e.message).replace(/[\r\n]+/g, ' ').slice(0, 300);
      if (isTransient(e) && attempts < this.o.maxAttempts) {
        const delay = retryDelay(attempts, { baseMs: this.o.baseDelayMs, maxMs: this.o.maxDelayMs });
        await done({
          status: this.waiting(m),
          lastError: reply,
          nextAttemptAt: new Date(now().getTime() + delay),
        });
      } else {
        await done({ status: 'failed', lastError: reply });
        if (m.requestId) this.log(m.requestId, `Mail to ${m.to.join(', ')} failed: ${reply}`);
      }
    }
  }

  /** Lets the sends under way finish; messages claimed but not tried go back as they were. */
  async close(): Promise<void> {
    await this.kernel.close(false);
    for (const { transport } of this.transports.values()) transport.close();
    this.transports.clear();
  }
}

/** A nodemailer transport to one configured server (pooled for the outbox; single for a test mail). */
export async function createTransport(
  server: Pick<MailServerRow, 'hostName' | 'smtpPort' | 'ssl' | 'userName' | 'password'>,
  open: (sealed: string) => string,
  pool: boolean,
  connections = 5,
): Promise<Transporter> {
  const { default: nodemailer } = await import('nodemailer');
  const auth = server.userName
    ? { user: server.userName, pass: server.password ? open(server.password) : '' }
    : undefined;
  const common = {
    host: server.hostName,
    port: server.smtpPort,
    secure: server.ssl,
    auth,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
  };
  return pool
    ? nodemailer.createTransport({ ...common, pool: true, maxConnections: connections, maxMessages: 500 })
    : nodemailer.createTransport(common);
}
