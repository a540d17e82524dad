import { lazySchema } from '../../core/lazy-schema.js';
import { z } from 'zod';
import { randomUUID } from 'node:crypto';
import type { OpContext } from '../../ops/context.js';
import { iso, newBase } from '../../core/entity-base.js';
import { badInput } from '../../core/errors.js';
import { findOr404 } from '../../core/rows.js';
import { email, nemail, v } from '../../core/validation.js';
import { MailServer, type MailServerRow } from '../../model/mail.entity.js';
import { createTransport } from './outbox.js';

/** Set A 2.15. */
export const MailServerInput = lazySchema(() =>
  z.object({
    name: v.text(),
    description: v.nstr(),
    fromAddress: nemail(),
    fromName: v.header(),
    emailPrefix: v.nheader(100),
    hostName: v.text(253).refine((h) => /^[A-Za-z0-9.-]+$|^\[[0-9a-fA-F:.]+\]$/.test(h), {
      message: 'must be a host name or an IP address',
    }),
    smtpPort: z.number().int({ message: 'must be a whole number' }).min(1).max(65535),
    ssl: v.obool(),
    userName: v.nstr(320),
    password: z.string().max(1000).nullable().optional(),
    testEmail: nemail(),
  }),
);
export type MailServerInput = z.output<typeof MailServerInput>;

export function mailServerDto(m: MailServerRow) {
  const { password, ...rest } = m;
  // The interface names `password`; its value is never answered.
  return {
    ...rest,
    password: null,
    hasPassword: password !== null,
    createdDate: iso(m.createdDate),
    modifiedDate: iso(m.modifiedDate),
  };
}

export async function saveMailServer(ctx: OpContext, id: string | null, f: MailServerInput) {
  const current = id ? await findOr404(ctx, MailServer, id, 'Mail server') : null;
  const row: MailServerRow = {
    ...(current ?? newBase(ctx.now())),
    name: f.name,
    description: f.description ?? null,
    fromAddress: f.fromAddress ?? null,
    fromName: f.fromName,
    emailPrefix: f.emailPrefix ?? null,
    hostName: f.hostName,
    smtpPort: f.smtpPort,
    ssl: f.ssl ?? false,
    userName: f.userName ?? null,
    password: ctx.secrets.sealOrKeep(f.password, current?.password ?? null),
    testEmail: f.testEmail ?? null,
    modifiedDate: ctx.now(),
  };
  await ctx.db.getRepository(MailServer).save(row);
  return mailServerDto(row);
}

export async function listMailServers(ctx: OpContext) {
  return (await ctx.db.getRepository(MailServer).find({ order: { createdDate: 'ASC' } })).map(mailServerDto);
}

export async function deleteMailServer(ctx: OpContext, id: string) {
  await findOr404(ctx, MailServer, id, 'Mail server');
  await ctx.db.getRepository(MailServer).delete({ id });
  return { deleted: 1 };
}

/** The mail server mail goes out through: the first configured. */
export async function defaultMailServer(ctx: Pick<OpContext, 'db'>): Promise<MailServerRow | null> {
  return ctx.db.getRepository(MailServer).findOne({ where: {}, order: { createdDate: 'ASC' } });
}

/**
 * Sends a real test mail with the settings given (the stored password when none is given and a
 * server of that host exists) and answers the server's reply. A server that cannot be reached, or
 * refuses the sign-in, is a 400 naming the field to fix.
 */
export async function testMailServer(ctx: OpContext, f: MailServerInput) {
  if (!f.testEmail)
    throw badInput('Give an address to send the test mail to', [
      { field: 'body.testEmail', message: 'is required to send a test mail' },
    ]);
  const stored = f.password
    ? null
    : await ctx.db
        .getRepository(MailServer)
        .findOneBy({ hostName: f.hostName, smtpPort: f.smtpPort, userName: f.userName ?? undefined });
  const password = f.password ? ctx.secrets.seal(f.password) : (stored?.password ?? null);
  const transport = await createTransport(
    { hostName: f.hostName, smtpPort: f.smtpPort, ssl: f.ssl ?? false, userName: f.userName ?? null, password },
    ctx.secrets.open.bind(ctx.secrets),
    false,
  );
  const from = f.fromAddress ?? `broadsheet@${f.hostName}`;
  try {
    const info = await transport.sendMail({
      messageId: `<${randomUUID()}@${from.split('@')[1]}>`,
      from: { name: f.fromName, address: from },
      to: email().parse(f.testEmail),
      subject: `Broadsheet test mail from ${f.name}`,
      text: `This message was sent by Broadsheet to test the mail server "${f.name}" (${f.hostName}:${f.smtpPort}).`,
    });
    // The server's own words for each recipient, as plain addresses (nodemailer may give address objects).
    const addresses = (list: unknown[]) =>
      list.map((a) => (typeof a === 'string' ? a : (a as { address: string }).address));
    return {
      sent: true,
      accepted: addresses(info.accepted),
      rejected: addresses(info.rejected),
      response: String(info.response),
      messageId: String(info.messageId),
    };
  } catch (err) {
    const e = err as { code?: string; responseCode?: number; response?: string; message: string };
    const reply = (e.response ?? e.message).replace(/[\r\n]+/g, ' ').slice(0, 300);
    const field = e.code === 'EAUTH' ? 'body.userName' : e.responseCode ? 'body.testEmail' : 'body.hostName';
    const what =
      e.code === 'EAUTH'
        ? `${f.hostName} refused the sign-in`
        : e.responseCode
          ? `${f.hostName} refused the test mail`
          : `${f.hostName}:${f.smtpPort} could not be reached`;
    throw badInput(`${what}: ${reply}`, [{ field, message: `${what}: ${reply}` }]);
  } finally {
    transport.close();
  }
}
