import { randomUUID } from 'node:crypto';
import { newBase } from '../../core/entity-base.js';
import type { MailServerRow, OutboxRow } from './mail.entity.js';

/** What a plain-text message of the product's own (a notification, an invitation) says. */
export interface PlainMessage {
  requestId: string | null;
  to: string[];
  cc?: string[];
  bcc?: string[];
  subject: string;
  text: string;
}

/** An outbox row for a plain-text message from the server's sender, queued to go now. */
export function plainMessage(server: MailServerRow, now: Date, m: PlainMessage): OutboxRow {
  const from = server.fromAddress || `broadsheet@${server.hostName}`;
  return {
    ...newBase(now),
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
    html: null,
    attachments: [],
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
