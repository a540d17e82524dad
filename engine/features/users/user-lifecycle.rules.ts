import { lazySchema } from '../../core/lazy-schema.js';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { In, IsNull } from 'typeorm';
import { z } from 'zod';
import type { OpContext } from '../../ops/context.js';
import { me } from '../../ops/context.js';
import { badInput, conflict, EngineError, fieldError } from '../../core/errors.js';
import { EMAIL_PATTERN, v } from '../../core/validation.js';
import { findOr404 } from '../../core/rows.js';
import { passwordProblem } from '../../core/passwords.js';
import { Organization } from '../../model/organizations.entity.js';
import { Role } from '../../model/roles.entity.js';
import { MemberPermission } from '../../model/members.entity.js';
import { defaultMailServer } from '../mail/mail-servers.rules.js';
import { Outbox, type OutboxRow } from '../../model/mail.entity.js';
import { plainMessage } from '../mail/plain-message.js';
import {
  isTenantAdministrator,
  memberFlagsBeyondOwn,
  outranks,
  refuseGroupJoinBeyondOwn,
  refuseOrganizationsBeyondOwn,
  refuseUserChangeBeyondRights,
} from '../../access/privilege.js';
import { principalFor } from '../../access/principal.js';
import { foreignIds } from '../../core/organization-boundary.js';
import { User, UserGroup, UserOrganization, UserRole, type UserRow } from '../../model/users.entity.js';
import { Session } from '../../model/sessions.entity.js';
import { Invitation } from '../../model/invitations.entity.js';
import { linkedIds, saveUser, userDto, type UserFields } from './users.rules.js';
import { sql } from '../../core/sql.js';

// Set B's user lifecycle: a change named by its type, the transfer of what a user owns and holds,
// and invitations by mail whose one-time link sets the password.

/** The kinds of change `v2.users.update` takes, and the shape of each one's value. */
const CHANGES = {
  userStatus: z.union([z.boolean(), z.enum(['Active', 'Inactive']).transform((s) => s === 'Active')]),
  organizations: z.array(v.uuid()).max(1000),
  groups: z.array(v.uuid()).max(1000),
  organizationRoles: z.array(v.uuid()).max(1000),
  license: z.enum(['Designer', 'Viewer'], { message: 'must be one of: Designer, Viewer' }),
  tenantAdminRole: z.boolean(),
} as const;
export type UserChangeType = keyof typeof CHANGES;
const CHANGE_TYPES = Object.keys(CHANGES) as UserChangeType[];

export const UserUpdateB = lazySchema(() => z.object({ type: v.text(64), value: z.unknown() }));

/** The user as the form would save them, with one thing changed. */
function asFields(u: UserRow): UserFields {
  return {
    kind: u.kind,
    firstName: u.firstName,
    lastName: u.lastName,
    email: u.email,
    domainAccount: u.domainAccount,
    isActive: u.isActive,
    sendNotification: u.sendNotification,
    isoLanguage: u.isoLanguage,
  };
}

/**
 * One change of a user, named by `type`: status, organizations, groups, roles (the organization
 * roles), license (Designer: a user; Viewer: a recipient) or the tenant-admin role. Every change
 * goes through the same rules as the user form (nobody grants beyond their own rights).
 */
export async function updateUserByType(ctx: OpContext, id: string, f: z.output<typeof UserUpdateB>) {
  const type = CHANGE_TYPES.find((t) => t.toLowerCase() === f.type.toLowerCase());
  if (!type) throw fieldError('body.type', `must be one of: ${CHANGE_TYPES.join(', ')}`);
  const parsed = CHANGES[type].safeParse(f.value);
  if (!parsed.success)
    throw badInput(
      `The value does not fit the change "${type}"`,
      parsed.error.issues.map((i) => ({ field: ['body.value', ...i.path].join('.'), message: i.message })),
    );
  const value = parsed.data;
  const user = await findOr404(ctx, User, id, 'User');
  const fields = asFields(user);
  switch (type) {
    case 'userStatus':
      return saveUser(ctx, id, { ...fields, isActive: value as boolean });
    case 'organizations':
      return saveUser(ctx, id, { ...fields, organizationIds: value as string[] });
    case 'groups':
      return saveUser(ctx, id, { ...fields, groupIds: value as string[] });
    case 'organizationRoles':
      return saveUser(ctx, id, { ...fields, roleIds: value as string[] });
    case 'license': {
      const kind = value === 'Designer' ? 'user' : 'recipient';
      if (kind === user.kind) return userDto(ctx, user);
      const roleIds = await linkedIds(ctx, UserRole, id);
      await refuseUserChangeBeyondRights(ctx, user, roleIds, { kind });
      await ctx.db.getRepository(User).update(id, { kind, modifiedDate: ctx.now(), modifiedBy: me(ctx).user.id });
      return userDto(ctx, { ...user, kind });
    }
    case 'tenantAdminRole': {
      if (!isTenantAdministrator(me(ctx)))
        throw new EngineError(403, 'Only a tenant administrator gives or takes the tenant-admin role', [
          { field: 'body.value', message: 'needs a tenant administrator' },
        ]);
      if (user.isTenantOwner)
        throw conflict('The tenant owner keeps every right', [{ field: 'params.id', message: 'is the tenant owner' }]);
      await ctx.db.transaction(async (m) => {
        await m
          .getRepository(User)
          .update(id, { isTenantAdmin: value as boolean, modifiedDate: ctx.now(), modifiedBy: me(ctx).user.id });
        // Losing it ends their sessions: what they may do is decided again at their next sign-in.
        if (!value) await m.getRepository(Session).delete({ userId: id });
      });
      return userDto(ctx, { ...user, isTenantAdmin: value as boolean });
    }
  }
}

export const TransferB = lazySchema(() =>
  z.object({ newUserID: v.uuid(), transferContent: v.bool(), transferPermissions: v.bool() }),
);

/** Tables whose rows a user owns (`createdBy`): what `v2.users.delete` refuses to orphan. */
const OWNED = ['projects', 'reports', 'tasks', 'resources'] as const;

/**
 * Gives another user what one user owns (content: the rows they created) and holds (permissions:
 * roles, groups, organizations, member permissions, task recipient entries), so the first can be
 * deleted. A member permission both hold on one object is merged (a flag either held is kept).
 */
export async function transferUser(ctx: OpContext, id: string, f: z.output<typeof TransferB>) {
  const from = await findOr404(ctx, User, id, 'User');
  if (f.newUserID === id) throw fieldError('body.newUserID', 'must be another user');
  const to = await ctx.db.getRepository(User).findOneBy({ id: f.newUserID });
  // Someone outside the caller's organizations is not there for them: the same answer as no one.
  if (!to || (await foreignIds(ctx, User as never, [to.id])).length)
    throw fieldError('body.newUserID', 'is not a user');
  await refuseTransferBeyondRights(ctx, from, to, f);
  let content = 0;
  let permissions = 0;
  await ctx.db.transaction(async (m) => {
    if (f.transferContent) {
      for (const table of OWNED) {
        // Counted first: the driver does not answer how many rows an UPDATE changed.
        content += Number((await sql(m, `SELECT COUNT(*) AS n FROM ${table} WHERE "createdBy" = ?`, [from.id]))[0].n);
        await sql(m, `UPDATE ${table} SET "createdBy" = ? WHERE "createdBy" = ?`, [to.id, from.id]);
      }
    }
    if (f.transferPermissions) {
      for (const link of [UserRole, UserGroup, UserOrganization]) {
        const mine = await m.getRepository(link).findBy({ userId: from.id });
        const theirs = new Set((await m.getRepository(link).findBy({ userId: to.id })).map((l) => l.targetId));
        const added = mine.filter((l) => !theirs.has(l.targetId)).map((l) => ({ userId: to.id, targetId: l.targetId }));
        if (added.length) await m.getRepository(link).insert(added);
        permissions += added.length;
      }
      const held = await m.getRepository(MemberPermission).findBy({ memberId: from.id });
      const theirs = held.length
        ? await m.getRepository(MemberPermission).findBy({ memberId: to.id, objectId: In(held.map((h) => h.objectId)) })
        : [];
      for (const h of held) {
        const same = theirs.find((t) => t.objectId === h.objectId);
        if (same) {
          const merged = Object.fromEntries(
            Object.keys({ ...h.permissions, ...same.permissions }).map((k) => [
              k,
              !!(h.permissions as Record<string, boolean>)[k] || !!(same.permissions as Record<string, boolean>)[k],
            ]),
          );
          await m
            .getRepository(MemberPermission)
            .update(same.id, { permissions: merged as typeof same.permissions, modifiedDate: ctx.now() });
          await m.getRepository(MemberPermission).delete(h.id);
        } else
          await m
            .getRepository(MemberPermission)
            .update(h.id, { memberId: to.id, memberType: 'user', modifiedDate: ctx.now() });
        permissions++;
      }
      // Task recipient entries: the new user receives what the old one did (unless already named,
      // where the old entry stays to go with the old user).
      await sql(
        m,
        `UPDATE task_recipients SET "recipientId" = ? WHERE type = 'user' AND "recipientId" = ?
         AND NOT EXISTS (SELECT 1 FROM task_recipients x WHERE x."taskId" = task_recipients."taskId" AND x."recipientId" = ?)`,
        [to.id, from.id, to.id],
      );
    }
  });
  return { from: from.id, to: to.id, content, permissions };
}

const refuseTransfer = (field: string, message: string) => new EngineError(403, message, [{ field, message }]);

/**
 * A transfer grants: the receiver gains what the giver held (roles, organizations, groups and their
 * member permissions, member permissions) and becomes the creator of what the giver made. Outside a
 * tenant administrator, the caller must hold all of it themselves, exactly as if they granted it by hand.
 */
async function refuseTransferBeyondRights(ctx: OpContext, from: UserRow, to: UserRow, f: z.output<typeof TransferB>) {
  const actor = me(ctx);
  if (isTenantAdministrator(actor)) return;
  if (isTenantAdministrator(from) || outranks(await principalFor(ctx, from, 'session', ''), actor)) {
    throw refuseTransfer(
      'params.id',
      `${from.firstName} ${from.lastName} has rights you do not hold; only a tenant administrator transfers what they own and hold`.replace(
        /\s+/g,
        ' ',
      ),
    );
  }
  if (f.transferPermissions) {
    const gained = async (entity: typeof UserRole) => {
      const theirs = await linkedIds(ctx, entity, to.id);
      return (await linkedIds(ctx, entity, from.id)).filter((x) => !theirs.includes(x));
    };
    if ((await gained(UserRole)).length)
      throw refuseTransfer(
        'body.transferPermissions',
        'Only a tenant administrator may assign roles, and the transfer would give roles',
      );
    refuseOrganizationsBeyondOwn(ctx, await gained(UserOrganization), 'body.transferPermissions');
    await refuseGroupJoinBeyondOwn(ctx, await gained(UserGroup), 'body.transferPermissions');
    const beyond = await memberFlagsBeyondOwn(
      ctx,
      await ctx.db.getRepository(MemberPermission).findBy({ memberId: from.id }),
    );
    if (beyond)
      throw refuseTransfer(
        'body.transferPermissions',
        `The member permissions to transfer include ${beyond}, which you do not hold`,
      );
  }
  if (f.transferContent) {
    // The creator of a project in permissions mode holds every flag on it.
    const guarded = Number(
      (
        await sql(ctx.db, 'SELECT COUNT(*) AS n FROM projects WHERE "createdBy" = ? AND "permissionsMode" = TRUE', [
          from.id,
        ])
      )[0].n,
    );
    if (guarded)
      throw refuseTransfer(
        'body.transferContent',
        'Projects in permissions mode change creator only through a tenant administrator: their creator holds every permission on them',
      );
  }
}

export const InviteB = lazySchema(() =>
  z.object({
    emails: z
      .array(z.string().trim().toLowerCase().max(320).regex(EMAIL_PATTERN, { message: 'must be an e-mail address' }))
      .min(1, { message: 'must name at least one address' })
      .max(500),
    tenantAdminRole: v.nstr(64),
    organizations: z
      .array(z.object({ organizationID: v.uuid(), roleName: v.nstr(200) }))
      .max(100)
      .nullable()
      .optional(),
  }),
);

const INVITATION_DAYS = 7;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * Invites people by e-mail: each address becomes a user (without a password) in the organizations
 * named, with their roles; each gets a mail through the outbox with a link that sets the password
 * once and expires in seven days. Addresses already in use are left out and named in the answer.
 */
export async function inviteUsers(ctx: OpContext, f: z.output<typeof InviteB>) {
  const admin = !!f.tenantAdminRole?.trim();
  if (admin && !isTenantAdministrator(me(ctx)))
    throw new EngineError(403, 'Only a tenant administrator invites tenant administrators', [
      { field: 'body.tenantAdminRole', message: 'needs a tenant administrator' },
    ]);
  const orgs = f.organizations ?? [];
  const roleIds: string[] = [];
  for (const [i, o] of orgs.entries()) {
    if (!(await ctx.db.getRepository(Organization).existsBy({ id: o.organizationID })))
      throw fieldError(`body.organizations.${i}.organizationID`, 'is not an organization');
    if (o.roleName?.trim()) {
      const role = await ctx.db.getRepository(Role).findOneBy({ name: o.roleName.trim() });
      if (!role) throw fieldError(`body.organizations.${i}.roleName`, 'is not a role');
      roleIds.push(role.id);
    }
  }
  // The caller's rights over what the invitation gives are weighed first: a refusal is never hidden
  // behind a missing mail server.
  await refuseUserChangeBeyondRights(ctx, null, [], {
    roleIds: roleIds.length ? roleIds : null,
    isActive: true,
    organizationIds: orgs.map((o) => o.organizationID),
    currentOrganizationIds: [],
  });
  const server = await defaultMailServer(ctx);
  if (!server) throw conflict('Set up a mail server before inviting people: invitations travel by mail');
  const emails = [...new Set(f.emails)];
  const taken = new Set((await ctx.db.getRepository(User).findBy({ email: In(emails) })).map((u) => u.email));
  const invited: { email: string; userId: string }[] = [];
  const now = ctx.now();
  const link = (token: string) => `${ctx.address?.http ?? 'http://127.0.0.1'}/#/invitation/${token}`;
  const mails: OutboxRow[] = [];
  for (const email of emails.filter((e) => !taken.has(e))) {
    const user = await saveUser(ctx, null, {
      kind: 'user',
      firstName: email.split('@')[0],
      lastName: '',
      email,
      isActive: true,
      roleIds: roleIds.length ? roleIds : null,
      organizationIds: orgs.map((o) => o.organizationID),
    });
    if (admin) await ctx.db.getRepository(User).update(user.id, { isTenantAdmin: true });
    const token = randomBytes(32).toString('base64url');
    await ctx.db.getRepository(Invitation).insert({
      id: randomUUID(),
      createdDate: now,
      userId: user.id,
      tokenHash: sha256(token),
      expiresAt: new Date(now.getTime() + INVITATION_DAYS * 86400_000),
      usedAt: null,
    });
    mails.push(
      plainMessage(server, now, {
        requestId: null,
        to: [email],
        subject: `${me(ctx).user.firstName} ${me(ctx).user.lastName} invites you to Broadsheet`.replace(/\s+/g, ' '),
        text: `You are invited to Broadsheet, where reports are made and shared.\n\nChoose your password here (the link works once, for ${INVITATION_DAYS} days):\n${link(token)}\n\nYou sign in with ${email}.`,
      }),
    );
    invited.push({ email, userId: user.id });
  }
  // Written by this operation itself (it holds the write queue already), then handed to the sender.
  if (mails.length) await ctx.db.getRepository(Outbox).insert(mails);
  ctx.outbox.wake();
  return { invited, skipped: emails.filter((e) => taken.has(e)).map((email) => ({ email, reason: 'already a user' })) };
}

// The invited person names themselves as they choose their password (the invitation knew only an address).
export const AcceptInvitation = lazySchema(() =>
  z.object({
    token: v.text(200),
    password: z.string().max(1024),
    firstName: v.nstr(200),
    lastName: v.nstr(200),
  }),
);
export const CheckInvitation = lazySchema(() => z.object({ token: v.text(200) }));

const USED_OR_EXPIRED = 'this invitation link was used already or has expired; ask for a new one';
const liveInvitation = async (ctx: OpContext, token: string) => {
  const inv = await ctx.db.getRepository(Invitation).findOneBy({ tokenHash: sha256(token) });
  return inv && !inv.usedAt && inv.expiresAt > ctx.now() ? inv : null;
};

/** Whether a link still opens (before its page shows a password form): its address and the name known so far, or why not. */
export async function checkInvitation(ctx: OpContext, f: z.output<typeof CheckInvitation>) {
  const inv = await liveInvitation(ctx, f.token);
  if (!inv) return { valid: false, email: null, firstName: null, lastName: null, problem: USED_OR_EXPIRED };
  const user = await ctx.db.getRepository(User).findOneByOrFail({ id: inv.userId });
  return { valid: true, email: user.email, firstName: user.firstName, lastName: user.lastName, problem: null };
}

/** Sets the invited user's password (and name, when given) from their link, once; a used or expired link is refused. */
export async function acceptInvitation(ctx: OpContext, f: z.output<typeof AcceptInvitation>) {
  const inv = await liveInvitation(ctx, f.token);
  if (!inv) throw fieldError('body.token', USED_OR_EXPIRED);
  const problem = passwordProblem(f.password);
  if (problem) throw fieldError('body.password', problem);
  const user = await ctx.db.getRepository(User).findOneByOrFail({ id: inv.userId });
  const passwordHash = await ctx.passwords.hash(f.password);
  await ctx.db.transaction(async (m) => {
    // Marked used in the same transaction that sets the password: a second use finds it used.
    const used = await m.getRepository(Invitation).update({ id: inv.id, usedAt: IsNull() }, { usedAt: ctx.now() });
    if (!used.affected) throw fieldError('body.token', 'this invitation link was used already');
    const named = {
      ...(f.firstName?.trim() ? { firstName: f.firstName.trim() } : {}),
      ...(f.lastName?.trim() ? { lastName: f.lastName.trim() } : {}),
    };
    await m.getRepository(User).update(user.id, { passwordHash, isActive: true, ...named, modifiedDate: ctx.now() });
  });
  return { email: user.email };
}
