import { join } from 'node:path';
import { In, LessThanOrEqual } from 'typeorm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { EngineServices } from '../../ops/context.js';
import { MailServer, Outbox, type MailServerRow, type OutboxRow, type OutboxStatus } from './mail.entity.js';

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
 * The persisted outbox: a message is a row before it is sent, `sending` while it is, `sent` once
 * the server accepted it. Transient failures wait and retry with capped exponential backoff;
 * permanent ones end `failed` and are told in the run's log. A message found `sending` at start
 * was cut off by a crash with its outcome unknown: it is marked uncertain and sent again with the
 * same Message-ID. Nothing else is ever sent twice.
 */
export class MailOutbox {
  private readonly transports = new Map<string, { key: string; transport: Transporter }>();
  private timer: NodeJS.Timeout | null = null;
  private pumping: Promise<void> | null = null;
  private again = false;
  private closed = false;
  private readonly o: Required<OutboxOptions>;

  constructor(
    private readonly services: EngineServices,
    private readonly log: (requestId: string, line: string) => void,
    options: OutboxOptions = {},
  ) {
    this.o = {
      baseDelayMs: 2_000,
      maxDelayMs: 10 * 60_000,
      maxAttempts: 12,
      concurrency: 16,
      connections: 10,
      ...options,
    };
  }

  /** At start: sends a crash cut off become uncertain, then the queue resumes. */
  async recover(): Promise<number> {
    const cut = await this.services.db.getRepository(Outbox).findBy({ status: 'sending' });
    if (cut.length) {
      await this.services.write(() =>
        this.services.db
          .getRepository(Outbox)
          .update(
            { id: In(cut.map((m) => m.id)) },
            { status: 'uncertain', uncertain: true, nextAttemptAt: this.services.now() },
          ),
      );
      for (const m of cut)
        if (m.requestId)
          this.log(
            m.requestId,
            `Mail to ${m.to.join(', ')} was being sent when the app stopped; its outcome is unknown, so it is sent again with the same Message-ID ${m.messageId}`,
          );
    }
    this.wake();
    return cut.length;
  }

  /** Writes messages to the outbox (durably, before any is sent), then starts sending. */
  async enqueue(rows: OutboxRow[]): Promise<void> {
    if (!rows.length) return;
    await this.services.write(() =>
      this.services.db.transaction(async (m) => {
        for (let i = 0; i < rows.length; i += 200) await m.getRepository(Outbox).insert(rows.slice(i, i + 200));
      }),
    );
    for (const row of rows) this.changed(row, row.status);
    this.wake();
  }

  /** Tells the screens (monitoring follows its mail live). */
  changed(m: Pick<OutboxRow, 'id' | 'requestId'>, status: OutboxStatus): void {
    this.services.emit({ type: 'mail.changed', payload: { id: m.id, requestId: m.requestId, status } });
  }

  wake(): void {
    if (this.closed) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = this.pump()
      .catch((e: unknown) => this.services.log.error('The outbox could not send', { error: (e as Error).message }))
      .finally(() => {
        this.pumping = null;
        if (this.again) {
          this.again = false;
          this.wake();
        } else void this.arm();
      });
  }

  private async pump() {
    const { db } = this.services;
    for (;;) {
      if (this.closed) return;
      const due = await db.getRepository(Outbox).find({
        where: [
          { status: 'queued', nextAttemptAt: LessThanOrEqual(this.services.now()) },
          { status: 'uncertain', nextAttemptAt: LessThanOrEqual(this.services.now()) },
        ],
        order: { nextAttemptAt: 'ASC' },
        take: this.o.concurrency * 8,
      });
      if (!due.length) return;
      // Marked `sending` before the first byte leaves: a crash from here on makes them uncertain.
      await this.services.write(() =>
        db
          .getRepository(Outbox)
          .update({ id: In(due.map((m) => m.id)) }, { status: 'sending', modifiedDate: this.services.now() }),
      );
      // One look-up of each server per batch, not one per message.
      const transports = new Map<string, { server: MailServerRow; transport: Transporter } | null>();
      for (const id of new Set(due.map((m) => m.mailServerId))) transports.set(id, await this.transportFor(id));
      let next = 0;
      const worker = async () => {
        while (next < due.length && !this.closed) {
          const m = due[next++];
          await this.send(m, transports.get(m.mailServerId) ?? null);
        }
      };
      await Promise.all(Array.from({ length: Math.min(this.o.concurrency, due.length) }, worker));
      // Closing stops between messages: those not tried go back as they were (nothing unknown about them).
      const untried = due.slice(next);
      if (untried.length)
        await this.services.write(() =>
          db
            .getRepository(Outbox)
            .update({ id: In(untried.map((m) => m.id)), status: 'sending' }, { status: 'queued' }),
        );
    }
  }

  private async transportFor(serverId: string): Promise<{ server: MailServerRow; transport: Transporter } | null> {
    const server = await this.services.db.getRepository(MailServer).findOneBy({ id: serverId });
    if (!server) return null;
    // A changed server gets a new pool: the key is everything the connection depends on.
    const key = JSON.stringify([server.hostName, server.smtpPort, server.ssl, server.userName, server.password]);
    const cached = this.transports.get(serverId);
    if (cached?.key === key) return { server, transport: cached.transport };
    cached?.transport.close();
    const transport = createTransport(
      server,
      this.services.secrets.open.bind(this.services.secrets),
      true,
      this.o.connections,
    );
    this.transports.set(serverId, { key, transport });
    return { server, transport };
  }

  private async send(m: OutboxRow, t: { server: MailServerRow; transport: Transporter } | null) {
    const { db, now } = this.services;
    const done = async (change: Partial<OutboxRow>) => {
      await this.services.write(() =>
        db.getRepository(Outbox).update({ id: m.id }, { ...change, modifiedDate: now() }),
      );
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
        attempts: m.attempts + 1,
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
      const attempts = m.attempts + 1;
      const reply = (e.response ?? e.message).replace(/[\r\n]+/g, ' ').slice(0, 300);
      if (isTransient(e) && attempts < this.o.maxAttempts) {
        const delay = Math.min(this.o.maxDelayMs, this.o.baseDelayMs * 2 ** (attempts - 1));
        await done({
          status: m.uncertain ? 'uncertain' : 'queued',
          attempts,
          lastError: reply,
          nextAttemptAt: new Date(now().getTime() + delay),
        });
      } else {
        await done({ status: 'failed', attempts, lastError: reply });
        if (m.requestId) this.log(m.requestId, `Mail to ${m.to.join(', ')} failed: ${reply}`);
      }
    }
  }

  private async arm() {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    const next = await this.services.db.getRepository(Outbox).findOne({
      where: [{ status: 'queued' }, { status: 'uncertain' }],
      order: { nextAttemptAt: 'ASC' },
      select: { id: true, nextAttemptAt: true },
    });
    if (!next || this.closed) return;
    const wait = Math.max(0, next.nextAttemptAt.getTime() - this.services.now().getTime());
    this.timer = setTimeout(() => this.wake(), Math.min(wait, 5_000));
    this.timer.unref?.();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.pumping;
    for (const { transport } of this.transports.values()) transport.close();
    this.transports.clear();
  }
}

/** A nodemailer transport to one configured server (pooled for the outbox; single for a test mail). */
export function createTransport(
  server: Pick<MailServerRow, 'hostName' | 'smtpPort' | 'ssl' | 'userName' | 'password'>,
  open: (sealed: string) => string,
  pool: boolean,
  connections = 5,
): Transporter {
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
