// Set B's user lifecycle over HTTP: invitations received by a real SMTP server on loopback whose
// link sets the password once (a second use and an expired link refused); a change named by its
// type; the transfer of what a user owns and holds, after which (and only after which) they can be
// deleted; recipients joining their organizations and "All users".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, signedInUserWith, defaults, type TestServer } from '../support/test-server.js';
import { startSmtp, type TestSmtp } from '../support/smtp.js';
import { covers } from '../support/covers.js';
import { until } from '../support/until.js';
import { sql } from '../../engine/core/sql.js';
import { Invitation } from '../../engine/model/invitations.entity.js';

let s: TestServer;
let smtp: TestSmtp;
let orgId: string;

beforeAll(async () => {
  smtp = await startSmtp();
  s = await startTestServer({ mail: { baseDelayMs: 20, maxDelayMs: 200 } });
  orgId = (await defaults(s)).orgId;
});
afterAll(async () => {
  await s.stop();
  await smtp.close();
});

const login = (email: string, password: string) =>
  s.call('POST', '/api/app/auth/login', { token: null, body: { email, password } });
const fields = (r: { body: { errorDetails?: { field: string }[] | null } }) =>
  (r.body.errorDetails ?? []).map((e) => e.field);

describe(
  covers(
    'the user lifecycle',
    'v2.users.invite',
    'v2.users.update',
    'v2.users.transfer',
    'v2.users.delete',
    'v2.recipients.create',
    'app.invitations.accept',
    'app.invitations.check',
  ),
  () => {
    it('invites by mail; the link sets the password once, and an expired one is refused', async () => {
      const body = {
        emails: ['ivy@example.com', 'IGOR@example.com'],
        organizations: [{ organizationID: orgId, roleName: 'Hub users' }],
      };
      // The caller's rights come first: one who may create users but not assign roles is refused for
      // that, mail server or not (before, the missing server answered first and hid the refusal).
      const creator = await signedInUserWith(s, { viewUser: true, createUser: true }, 'inviter');
      const refused = await s.call('POST', '/api/v2/users/invite', { body, token: creator.token });
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatch(/Only a tenant administrator may assign roles/);
      // Without a mail server nothing is created: an invitation that cannot travel is no invitation.
      const early = await s.call('POST', '/api/v2/users/invite', { body });
      expect(early.status).toBe(409);
      expect(
        (await s.ok('GET', '/api/v1/users', undefined, { get_all: true })).map((u: { email: string }) => u.email),
      ).not.toContain('ivy@example.com');
      await s.ok('POST', '/api/v1/mail-servers', {
        name: 'Loopback',
        fromName: 'Broadsheet',
        fromAddress: 'admin@example.com',
        hostName: '127.0.0.1',
        smtpPort: smtp.port,
        ssl: false,
      });
      const bad = await s.call('POST', '/api/v2/users/invite', {
        body: { emails: ['ok@example.com', 'not an address'] },
      });
      expect(fields(bad)).toEqual(['body.emails.1']);

      const owner = (await s.ok('GET', '/api/app/auth/me')).user.email as string;
      const answer = await s.ok('POST', '/api/v2/users/invite', { ...body, emails: [...body.emails, owner] });
      expect(answer.invited.map((x: { email: string }) => x.email)).toEqual(['ivy@example.com', 'igor@example.com']);
      expect(answer.skipped).toEqual([{ email: owner, reason: 'already a user' }]);
      const mails = await until(
        () => smtp.received.filter((m) => /invites you to Broadsheet/.test(m.parsed.subject ?? '')),
        (x) => x.length >= 2,
      );
      const tokenFor = (address: string) => {
        const mail = mails.find((m) => m.envelopeTo.includes(address))!;
        const link = /(http:\/\/\S+\/#\/invitation\/([A-Za-z0-9_-]+))/.exec(mail.parsed.text ?? '')!;
        expect(link[1].startsWith(`${s.url}/#/invitation/`)).toBe(true);
        return link[2];
      };
      // Invited with the role named, in the organization; no password yet, so no sign-in.
      const ivy = (await s.ok('GET', '/api/v1/users', undefined, { get_all: true })).find(
        (u: { email: string }) => u.email === 'ivy@example.com',
      );
      expect(ivy.roles.map((r: { name: string }) => r.name)).toEqual(['Hub users']);
      expect((await login('ivy@example.com', 'ivy-password-1')).status).toBe(401);

      const token = tokenFor('ivy@example.com');
      // Before its page asks anything, the link says whether it opens, and for whom (nobody signed in).
      const open = (await s.call('POST', '/api/app/invitations/check', { token: null, body: { token } })).body.data;
      expect(open).toMatchObject({ valid: true, email: 'ivy@example.com', problem: null });
      const short = await s.call('POST', '/api/app/invitations/accept', {
        token: null,
        body: { token, password: 'short' },
      });
      expect(fields(short)).toEqual(['body.password']);
      expect(
        (
          await s.call('POST', '/api/app/invitations/accept', {
            token: null,
            body: { token, password: 'ivy-password-1', firstName: 'Ivy', lastName: 'Ivanova' },
          })
        ).status,
      ).toBe(200);
      expect((await login('ivy@example.com', 'ivy-password-1')).status).toBe(200);
      const [named] = await sql(
        s.engine.services.db,
        'SELECT "firstName", "lastName" FROM users WHERE email = \'ivy@example.com\'',
      );
      expect(named).toEqual({ firstName: 'Ivy', lastName: 'Ivanova' });
      const used = (await s.call('POST', '/api/app/invitations/check', { token: null, body: { token } })).body.data;
      expect(used).toMatchObject({ valid: false, email: null });
      expect(used.problem).toContain('used already or has expired');
      expect(
        (await s.call('POST', '/api/app/invitations/check', { token: null, body: { token: 'no-such-token' } })).body
          .data.valid,
      ).toBe(false);
      // The link works once.
      const again = await s.call('POST', '/api/app/invitations/accept', {
        token: null,
        body: { token, password: 'taken-over-1' },
      });
      expect(fields(again)).toEqual(['body.token']);
      expect((await login('ivy@example.com', 'taken-over-1')).status).toBe(401);
      // An expired link.
      await s.engine.services.db
        .createQueryBuilder()
        .update(Invitation)
        .set({ expiresAt: new Date('2000-01-01T00:00:00Z') })
        .execute();
      const late = await s.call('POST', '/api/app/invitations/accept', {
        token: null,
        body: { token: tokenFor('igor@example.com'), password: 'igor-password-1' },
      });
      expect(fields(late)).toEqual(['body.token']);
    });

    it('changes one thing of a user by its type, and names the allowed types for an unknown one', async () => {
      const who = (await signedInUserWith(s, { viewUser: true }, 'changed')).userId;
      const group = await s.ok('POST', '/api/v1/groups', { name: 'Analysts', organizationId: orgId });
      const unknown = await s.call('PUT', `/api/v2/users/${who}`, {
        body: { type: 'favouriteColour', value: 'green' },
      });
      expect(fields(unknown)).toEqual(['body.type']);
      expect(unknown.body.errorDetails?.[0].message).toContain(
        'userStatus, organizations, groups, organizationRoles, license, tenantAdminRole',
      );
      expect(
        fields(await s.call('PUT', `/api/v2/users/${who}`, { body: { type: 'organizations', value: 'all of them' } })),
      ).toEqual(['body.value']);
      expect(
        (await s.ok('PUT', `/api/v2/users/${who}`, { type: 'groups', value: [group.id] })).groups.map(
          (g: { name: string }) => g.name,
        ),
      ).toContain('Analysts');
      expect((await s.ok('PUT', `/api/v2/users/${who}`, { type: 'license', value: 'Viewer' })).type).toBe('recipient');
      expect((await s.ok('PUT', `/api/v2/users/${who}`, { type: 'userStatus', value: 'Inactive' })).isActive).toBe(
        false,
      );
      expect((await s.ok('PUT', `/api/v2/users/${who}`, { type: 'tenantAdminRole', value: true })).isTenantAdmin).toBe(
        true,
      );
      // Someone who may edit users but is no administrator cannot hand out the tenant-admin role.
      const editor = await signedInUserWith(s, { viewUser: true, editUser: true }, 'editor');
      const refused = await s.call('PUT', `/api/v2/users/${who}`, {
        token: editor.token,
        body: { type: 'tenantAdminRole', value: false },
      });
      expect(refused.status).toBe(403);
    });

    it('transfers what a user owns and holds, after which they can be deleted', async () => {
      const leaving = await signedInUserWith(
        s,
        { viewProject: true, updateProject: true, viewTask: true, createTask: true, editTask: true },
        'leaving',
      );
      const staying = await signedInUserWith(s, { viewProject: true }, 'staying');
      const project = (
        await s.call('POST', '/api/app/projects', {
          token: leaving.token,
          body: { name: "Leaving's project", organizationId: orgId },
        })
      ).body.data;
      const report = (
        await s.call('POST', '/api/v2/reports', {
          token: leaving.token,
          body: { name: "Leaving's report", projectID: project.id, type: 'Html' },
        })
      ).body.data;
      const task = await s.ok('POST', '/api/v2/tasks', { name: 'Weekly', projectID: project.id });
      await s.ok('POST', `/api/v1/tasks/${task.id}/recipients`, [
        { id: leaving.userId, type: 'user', sendEmail: true, seeInHub: true },
      ]);
      const flags = Object.fromEntries(
        (await import('../../engine/model/members.entity.js')).PERMISSION_FLAGS.map((f) => [f, f === 'viewReport']),
      );
      await s.ok('PUT', `/api/v2/reports/${report.id}/permissions`, {
        members: [{ id: leaving.userId, type: 'user' }],
        permissions: flags,
      });

      const refused = await s.call('DELETE', `/api/v2/users/${leaving.userId}`);
      expect(refused.status).toBe(409);
      expect(refused.body.error).toMatch(/1 project, 1 report/);
      expect(
        fields(
          await s.call('POST', `/api/v2/users/${leaving.userId}/transfer`, {
            body: { newUserID: leaving.userId, transferContent: true, transferPermissions: true },
          }),
        ),
      ).toEqual(['body.newUserID']);
      const moved = await s.ok('POST', `/api/v2/users/${leaving.userId}/transfer`, {
        newUserID: staying.userId,
        transferContent: true,
        transferPermissions: true,
      });
      expect(moved.content).toBeGreaterThanOrEqual(2);
      expect((await s.ok('DELETE', `/api/v2/users/${leaving.userId}`)).deleted).toBe(1);

      const db = s.engine.services.db;
      expect((await sql(db, 'SELECT "createdBy" FROM projects WHERE id = ?', [project.id]))[0].createdBy).toBe(
        staying.userId,
      );
      expect((await sql(db, 'SELECT "createdBy" FROM reports WHERE id = ?', [report.id]))[0].createdBy).toBe(
        staying.userId,
      );
      const held = await s.ok('GET', `/api/app/reports/${report.id}/permissions`);
      expect(
        held.map((m: { memberId: string; permissions: { viewReport: boolean } }) => [
          m.memberId,
          m.permissions.viewReport,
        ]),
      ).toEqual([[staying.userId, true]]);
      const recipients = await s.ok('GET', `/api/v1/tasks/${task.id}/recipients`, undefined, { get_all: true });
      expect(recipients.map((r: { id: string }) => r.id)).toEqual([staying.userId]);
      // The roles came along: the staying user may now edit tasks.
      expect(
        (
          await s.call('PUT', `/api/v1/tasks/${task.id}`, {
            token: staying.token,
            body: { name: 'Weekly, kept', isActive: true },
          })
        ).status,
      ).toBe(200);
    });

    it('adds a recipient to the organizations named and to "All users"', async () => {
      const r = await s.ok('POST', '/api/v2/recipients', {
        firstName: 'Rhea',
        lastName: 'Reader',
        email: 'RHEA@example.com',
        organizations: [orgId],
      });
      expect(r).toMatchObject({ type: 'recipient', email: 'rhea@example.com' });
      expect(r.organizations.map((o: { id: string }) => o.id)).toEqual([orgId]);
      expect(r.groups.map((g: { name: string }) => g.name)).toContain('All users');
      expect(
        fields(await s.call('POST', '/api/v2/recipients', { body: { firstName: 'No', lastName: 'Org', email: null } })),
      ).toEqual(['body.organizations']);
    });
  },
);
