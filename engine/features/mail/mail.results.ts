import { z } from 'zod';
import { lazySchema } from '../../core/lazy-schema.js';

// What this feature's operations answer in `data` (for a list: one item); see `result` on defineOp.

export const MailServerResult = lazySchema(() =>
  z.object({
    password: z.null(),
    hasPassword: z.boolean(),
    createdDate: z.string().nullable(),
    modifiedDate: z.string().nullable(),
    name: z.string(),
    description: z.string().nullable(),
    fromAddress: z.string().nullable(),
    fromName: z.string(),
    emailPrefix: z.string().nullable(),
    hostName: z.string(),
    smtpPort: z.number(),
    ssl: z.boolean(),
    userName: z.string().nullable(),
    testEmail: z.string().nullable(),
    id: z.string(),
  }),
);

export const MailServersTestResult = lazySchema(() =>
  z.object({
    sent: z.boolean(),
    accepted: z.array(z.string()),
    rejected: z.array(z.string()),
    response: z.string(),
    messageId: z.string(),
  }),
);

export const MailServersListResult = lazySchema(() => z.array(MailServerResult));

export const TasksDryRunResult = lazySchema(() =>
  z.object({
    taskId: z.string(),
    taskName: z.string(),
    testMode: z.boolean(),
    files: z.array(
      z.object({
        report: z.string(),
        format: z.string(),
        attached: z.boolean(),
        perIterationValue: z.boolean(),
        conditions: z.number(),
        /**
         * What its conditions answer now: `hold`, `fail` (it would be left out), or `perValue` (asked
         * of each iteration value by the run).
         */
        conditionsNow: z.enum(['hold', 'fail', 'perValue']).nullable(),
      }),
    ),
    /** What would go wrong or reach nobody. */
    warnings: z.array(z.string()),
    /** How the task works, said so it is not a surprise: not something wrong. */
    information: z.array(z.string()),
    recipients: z.array(
      z.object({
        name: z.string(),
        email: z.string().nullable(),
        via: z.array(z.string()),
        byEmail: z.boolean(),
        inHub: z.boolean(),
        notes: z.array(z.string()),
      }),
    ),
  }),
);

export const OutboxResult = lazySchema(() =>
  z.object({
    id: z.string(),
    requestId: z.string().nullable(),
    messageId: z.string(),
    to: z.array(z.string()),
    cc: z.array(z.string()),
    subject: z.string(),
    attachments: z.array(z.string()),
    status: z.enum(['failed', 'queued', 'uncertain', 'sending', 'sent', 'cancelled']),
    attempts: z.number(),
    uncertain: z.boolean(),
    lastError: z.string().nullable(),
    explanation: z.string().nullable(),
    accepted: z.array(z.string()),
    rejected: z.array(z.object({ address: z.string(), reply: z.string() })),
    createdDate: z.string().nullable(),
    nextAttemptAt: z.string().nullable(),
    sentAt: z.string().nullable(),
  }),
);
