import { randomUUID } from 'node:crypto';
import { newBase } from '../../core/entity-base.js';
import type { MailServerRow, OutboxAttachment, OutboxRow } from '../../model/mail.entity.js';
import { UNCLAIMED } from '../../core/jobs/claims.js';

/** What a message says: plain text of the product's own (a notification, an invitation), or a task's with its files. */
export interface PlainMessage {
  requestId: string | null;
  to: string[];
  cc?: string[];
  bcc?: string[];
  subject: string;
  text: string;
  html?: string | null;
  attachments?: OutboxAttachment[];
  /** The sender's address when not the server's own (a task's e-mail names one). */
  fromAddress?: string | null;
}

/** An outbox row for a message from the server (under its sender's name), queued to go now: the one place rows are made. */
export function plainMessage(server: MailServerRow, now: Date, m: PlainMessage): OutboxRow {
  const from = m.fromAddress || server.fromAddress || `broadsheet@${server.hostName}`;
  return {
    ...newBase(now),
    ...UNCLAIMED,
    requestId: m.requestId,
    mailServerId: server.id,
    messageId: `<${randomUUID()}@${from.split('@')[1] ?? 'broadsheet.local'}>`,
    from: `"${server.fromName.replace(/["\\]/g, '')}" <${from}>`,
    to: m.to,
    cc: m.cc ?? [],
    bcc: m.bcc ?? [],
    // A subject is one line: a line break in it would start a header of its own.
    subject: m.subject.replace(/[\r\n]+/g, ' '),
    text: m.text,
    html: m.html ?? null,
    attachments: m.attachments ?? [],
    status: 'queued',
    attempts: 0,
    nextAttemptAt: now,
    lastError: null,
    accepted: [],
    rejected: [],
    uncertain: false,
    sentAt: null,
  };
}
