// Mail throughput through the persisted outbox to a loopback SMTP server (smtp-server), one PDF
// attached to each message, pooled; against its practical limit: nodemailer's own pooled transport
// sending the same messages to the same server with the same connections, warmed, no outbox. The
// server runs in a process of its own (smtp-receiver.mjs), as a real mail server would.
import { figure } from './verdicts.js';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { fork, type ChildProcess } from 'node:child_process';
import { simpleParser } from 'mailparser';
import nodemailer from 'nodemailer';
import { createEngine } from '../../engine/engine.js';
import { newBase } from '../../engine/core/entity-base.js';
import { MailServer, Outbox, type OutboxRow } from '../../engine/model/mail.entity.js';

const f1 = (x: number) => x.toFixed(1);

/** Sends a command to the receiver (or none: its first message) and waits for its answer. */
function ask<T>(child: ChildProcess, command?: Record<string, unknown>): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as T));
    if (command) child.send(command);
  });
}

export async function mailBench(messages = 1000) {
  const receiver = fork(join(process.cwd(), 'tests', 'bench', 'smtp-receiver.mjs'), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = (await ask<{ port: number }>(receiver)).port;
  const arrived = async () => (await ask<{ count: number }>(receiver, { cmd: 'count' })).count;

  const dataDir = await mkdtemp(join(tmpdir(), 'bs-bench-mail-'));
  const key = randomBytes(32);
  const engine = await createEngine({
    dataDir,
    secretKeys: { load: async () => key, save: async () => {} },
    demo: false,
  });
  // A one-page PDF of about 30 KB, as a report run leaves it.
  const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(30_000), Buffer.from('\n%%EOF\n')]);
  await mkdir(join(dataDir, 'files', 'bench'), { recursive: true });
  await writeFile(join(dataDir, 'files', 'bench', 'Statement.pdf'), pdf);
  const server = {
    ...newBase(new Date()),
    name: 'Loopback',
    description: null,
    fromAddress: 'reports@example.com',
    fromName: 'Reports',
    emailPrefix: null,
    hostName: '127.0.0.1',
    smtpPort: port,
    ssl: false,
    userName: null,
    password: null,
    testEmail: null,
  };
  await engine.services.db.getRepository(MailServer).insert(server);

  // The limit: nodemailer pooled with the outbox's connections (10), as many messages in flight as it keeps (16).
  const direct = nodemailer.createTransport({
    host: '127.0.0.1',
    port,
    secure: false,
    pool: true,
    maxConnections: 10,
    maxMessages: 500,
  });
  const mail = (i: number) => ({
    messageId: `<${randomUUID()}@example.com>`,
    from: '"Reports" <reports@example.com>',
    to: `r${i}@example.com`,
    subject: `Statement ${i}`,
    text: 'Attached.',
    attachments: [{ filename: 'Statement.pdf', path: join(dataDir, 'files', 'bench', 'Statement.pdf') }],
  });
  await Promise.all(Array.from({ length: 50 }, (_, i) => direct.sendMail(mail(i))));
  await ask(receiver, { cmd: 'reset' });
  const d0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < messages) await direct.sendMail(mail(next++));
    }),
  );
  const directMs = performance.now() - d0;
  direct.close();
  if ((await arrived()) !== messages) throw new Error(`direct: ${await arrived()} of ${messages} arrived`);
  await ask(receiver, { cmd: 'reset' });

  // The outbox: written first, then sent; timed from enqueue to the last row marked sent.
  const rows: OutboxRow[] = Array.from({ length: messages }, (_, i) => ({
    ...newBase(new Date()),
    requestId: null,
    mailServerId: server.id,
    messageId: `<${randomUUID()}@example.com>`,
    from: '"Reports" <reports@example.com>',
    to: [`r${i}@example.com`],
    cc: [],
    bcc: [],
    subject: `Statement ${i}`,
    text: 'Attached.',
    html: null,
    attachments: [{ fileName: 'Statement.pdf', path: 'files/bench/Statement.pdf' }],
    status: 'queued' as const,
    attempts: 0,
    claimedBy: null,
    leaseUntil: null,
    nextAttemptAt: new Date(),
    lastError: null,
    accepted: [],
    rejected: [],
    uncertain: false,
    sentAt: null,
  }));
  const o0 = performance.now();
  await engine.outbox.enqueue(rows);
  for (;;) {
    const sent = await engine.services.db.getRepository(Outbox).countBy({ status: 'sent' });
    if (sent === messages) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  const outboxMs = performance.now() - o0;
  if ((await arrived()) !== messages) throw new Error(`outbox: ${await arrived()} of ${messages} arrived`);
  const { sample } = await ask<{ sample: (string | null)[] }>(receiver, {
    cmd: 'sample',
    indices: [0, Math.floor(messages / 2), messages - 1],
  });
  for (const [i, b64] of sample.entries()) {
    if (!b64) throw new Error(`sample ${i} did not arrive`);
    const parsed = await simpleParser(Buffer.from(b64, 'base64'));
    if (!parsed.attachments[0] || Buffer.compare(parsed.attachments[0].content, pdf) !== 0)
      throw new Error(`message ${i} lacks its attachment`);
  }
  await engine.close();
  await new Promise((r) => {
    receiver.once('exit', r);
    receiver.send({ cmd: 'close' });
  });
  await rm(dataDir, { recursive: true, force: true });
  const ours = (messages / outboxMs) * 1000;
  const limit = (messages / directMs) * 1000;
  return [
    {
      messages,
      'attachment KiB': Math.round(pdf.length / 1024),
      'outbox msg/s': f1(ours),
      'limit msg/s (nodemailer pooled, 10 connections)': f1(limit),
      'of limit': `${Math.round(figure({ id: 'mail.outbox', measure: "mail through the outbox, of nodemailer's pool", value: (ours / limit) * 100, unit: '%', goal: { atLeast: 80 } }))}%`,
      checked: '3 messages parsed back (mailparser), attachment bytes equal',
    },
  ];
}
