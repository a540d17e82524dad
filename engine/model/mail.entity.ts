import { EntitySchema } from 'typeorm';
import { baseColumns, flag, int, ref, text, when, type BaseRow } from '../core/entity-base.js';
import { claimColumns, type ClaimColumns } from '../core/jobs/claims.js';
import type { OutboxStatus } from '../core/enumerations.js';
import { boundByOrganization, projectInside } from '../core/organization-boundary.js';

/** An SMTP server mail goes out through (set A 2.15); its password sealed, never answered. */
export interface MailServerRow extends BaseRow {
  name: string;
  description: string | null;
  fromAddress: string | null;
  fromName: string;
  emailPrefix: string | null;
  hostName: string;
  smtpPort: number;
  ssl: boolean;
  userName: string | null;
  password: string | null;
  testEmail: string | null;
}

export const MailServer = new EntitySchema<MailServerRow>({
  name: 'MailServer',
  tableName: 'mail_servers',
  columns: {
    ...baseColumns,
    name: text(false),
    description: text(),
    fromAddress: text(),
    fromName: text(false),
    emailPrefix: text(),
    hostName: text(false),
    smtpPort: int(false),
    ssl: flag(),
    userName: text(),
    password: text(),
    testEmail: text(),
  },
});

export { OUTBOX_STATUSES, type OutboxStatus } from '../core/enumerations.js';

/** A file attached to a message: a path under the data folder, read when the message is sent. */
export interface OutboxAttachment {
  fileName: string;
  path: string;
  /** Set when the HTML body shows the file inline (`<img src="cid:…">`). */
  cid?: string;
}

/**
 * One message of the outbox, written before it is sent, with its Message-ID fixed then: a resend
 * after an unknown outcome carries the same id, so receivers and tests can tell it is the same mail.
 */
export interface OutboxRow extends BaseRow, ClaimColumns {
  requestId: string | null;
  mailServerId: string;
  messageId: string;
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  text: string | null;
  html: string | null;
  attachments: OutboxAttachment[];
  status: OutboxStatus;
  attempts: number;
  nextAttemptAt: Date;
  lastError: string | null;
  /** Per recipient, as the server answered: accepted, or refused with its reply. */
  accepted: string[];
  rejected: { address: string; reply: string }[];
  /** True once a send was cut off with its outcome unknown (a crash or a lost connection mid-send). */
  uncertain: boolean;
  sentAt: Date | null;
}

export const Outbox = new EntitySchema<OutboxRow>({
  name: 'Outbox',
  tableName: 'outbox',
  columns: {
    ...baseColumns,
    requestId: ref(),
    mailServerId: ref(false),
    messageId: text(false),
    from: text(false),
    to: { type: 'simple-json' },
    cc: { type: 'simple-json' },
    bcc: { type: 'simple-json' },
    subject: text(false),
    text: text(),
    html: text(),
    attachments: { type: 'simple-json' },
    status: { type: 'varchar', length: 10 },
    attempts: { type: 'integer', default: 0 },
    nextAttemptAt: when(false),
    lastError: text(),
    accepted: { type: 'simple-json' },
    rejected: { type: 'simple-json' },
    uncertain: flag(),
    sentAt: when(),
    ...claimColumns,
  },
  indices: [
    { name: 'IDX_outbox_due', columns: ['status', 'nextAttemptAt'] },
    { name: 'IDX_outbox_request', columns: ['requestId'] },
    { name: 'IDX_outbox_lease', columns: ['status', 'leaseUntil'] },
  ],
  uniques: [{ name: 'UQ_outbox_message_id', columns: ['messageId'] }],
});

// A mail belongs to the organization of the run that sent it (a test mail, of no run, to whoever may see the outbox).
boundByOrganization(
  Outbox,
  (x) =>
    `${x}."requestId" IS NULL OR ${x}."requestId" IN (SELECT br.id FROM requests br WHERE ${projectInside('br."projectId"')})`,
);
