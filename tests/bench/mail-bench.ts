// Mail throughput through the persisted outbox to a loopback SMTP server (smtp-server), one PDF
// attached to each message, pooled; against its practical limit: nodemailer's own pooled transport
// sending the same messages to the same server with the same connections, warmed, no outbox.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import nodemailer from 'nodemailer';
import { createEngine } from '../../engine/engine.js';
import { newBase } from '../../engine/core/entity-base.js';
import { MailServer, Outbox, type OutboxRow } from '../../engine/features/mail/mail.entity.js';

const f1 = (x: number) => x.toFixed(1);

export async function mailBench(messages = 1000) {
  const raw: Buffer[] = [];
  const smtp = new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS', 'AUTH'], logger: false, size: 10 * 1024 * 1024,
    onData(stream, _session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        raw.push(Buffer.concat(chunks));
        cb();
      });
    },
  });
  smtp.on('error', () => {});
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
  const port = (smtp.server.address() as AddressInfo).port;

  const dataDir = await mkdtemp(join(tmpdir(), 'bs-bench-mail-'));
  const key = randomBytes(32);
  const engine = await createEngine({ dataDir, secretKeys: { load: async () => key, save: async () => {} }, demo: false });
  // A one-page PDF of about 30 KB, as a report run leaves it.
  const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(30_000), Buffer.from('\n%%EOF\n')]);
  await mkdir(join(dataDir, 'files', 'bench'), { recursive: true });
  await writeFile(join(dataDir, 'files', 'bench', 'Statement.pdf'), pdf);
  const server = { ...newBase(new Date()), name: 'Loopback', description: null, fromAddress: 'reports@example.com', fromName: 'Reports', emailPrefix: null, hostName: '127.0.0.1', smtpPort: port, ssl: false, userName: null, password: null, testEmail: null };
  await engine.services.db.getRepository(MailServer).insert(server);

  // The limit: nodemailer pooled, 5 connections, as many messages in flight as the outbox keeps.
  const direct = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, pool: true, maxConnections: 5, maxMessages: 500 });
  const mail = (i: number) => ({ messageId: `<${randomUUID()}@example.com>`, from: '"Reports" <reports@example.com>', to: `r${i}@example.com`, subject: `Statement ${i}`, text: 'Attached.', attachments: [{ filename: 'Statement.pdf', path: join(dataDir, 'files', 'bench', 'Statement.pdf') }] });
  await Promise.all(Array.from({ length: 50 }, (_, i) => direct.sendMail(mail(i))));
  raw.length = 0;
  const d0 = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (next < messages) await direct.sendMail(mail(next++));
  }));
  const directMs = performance.now() - d0;
  direct.close();
  if (raw.length !== messages) throw new Error(`direct: ${raw.length} of ${messages} arrived`);
  raw.length = 0;

  // The outbox: written first, then sent; timed from enqueue to the last row marked sent.
  const rows: OutboxRow[] = Array.from({ length: messages }, (_, i) => ({
    ...newBase(new Date()), requestId: null, mailServerId: server.id, messageId: `<${randomUUID()}@example.com>`, from: '"Reports" <reports@example.com>',
    to: [`r${i}@example.com`], cc: [], bcc: [], subject: `Statement ${i}`, text: 'Attached.', html: null,
    attachments: [{ fileName: 'Statement.pdf', path: 'files/bench/Statement.pdf' }], status: 'queued' as const, attempts: 0, nextAttemptAt: new Date(), lastError: null,
    accepted: [], rejected: [], uncertain: false, sentAt: null,
  }));
  const o0 = performance.now();
  await engine.outbox.enqueue(rows);
  for (;;) {
    const sent = await engine.services.db.getRepository(Outbox).countBy({ status: 'sent' });
    if (sent === messages) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  const outboxMs = performance.now() - o0;
  if (raw.length !== messages) throw new Error(`outbox: ${raw.length} of ${messages} arrived`);
  for (const i of [0, Math.floor(messages / 2), messages - 1]) {
    const parsed = await simpleParser(raw[i]);
    if (!parsed.attachments[0] || Buffer.compare(parsed.attachments[0].content, pdf) !== 0) throw new Error(`message ${i} lacks its attachment`);
  }
  await engine.close();
  await new Promise<void>((r) => smtp.close(() => r()));
  await rm(dataDir, { recursive: true, force: true });
  const ours = (messages / outboxMs) * 1000;
  const limit = (messages / directMs) * 1000;
  return [{
    messages, 'attachment KiB': Math.round(pdf.length / 1024), 'outbox msg/s': f1(ours), 'limit msg/s (nodemailer pooled, 5 connections)': f1(limit),
    'of limit': `${Math.round((ours / limit) * 100)}%`, checked: '3 messages parsed back (mailparser), attachment bytes equal',
  }];
}
