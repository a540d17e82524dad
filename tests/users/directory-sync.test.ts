// User directories synchronized from Debian's slapd on loopback: 1,000 people in 20 groups become
// users and groups of the directory's organization with its default role; a person removed is
// deactivated, a changed e-mail reaches the user, a group losing a member loses it here too; a
// wrong password and an unreachable server end as failed runs naming the setting; the schedule runs
// a sync whose time has come. Every run is recorded with its log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Attribute, Change } from 'ldapts';
import { startTestServer, defaults, type TestServer } from '../support/test-server.js';
import {
  startSlapd,
  personDn,
  ADMIN_DN,
  ADMIN_PASSWORD,
  BASE_DN,
  type TestSlapd,
  type Person,
} from '../support/slapd.js';
import { covers } from '../support/covers.js';
import { startSmtp, type TestSmtp } from '../support/smtp.js';
import { until } from '../support/until.js';
import { outboxIdle } from '../support/outbox.js';
import { sql } from '../../engine/core/sql.js';
import { UserDirectory } from '../../engine/model/user-directories.entity.js';

const PEOPLE: Person[] = Array.from({ length: 1000 }, (_, i) => {
  const n = String(i + 1).padStart(4, '0');
  return {
    uid: `person${n}`,
    givenName: `Given${n}`,
    sn: `Family${n}`,
    mail: `person${n}@corp.example.com`,
    password: i < 5 ? `directory pass ${n}` : undefined,
  };
});
const GROUPS = Array.from({ length: 20 }, (_, g) => ({
  cn: `team${String(g + 1).padStart(2, '0')}`,
  members: PEOPLE.filter((_, i) => i % 20 === g).map((p) => p.uid),
}));

let s: TestServer;
let ldap: TestSlapd;
let smtp: TestSmtp;
let d: Awaited<ReturnType<typeof defaults>>;
let directoryId: string;

const settings = (over: Record<string, unknown> = {}) => ({
  type: 'LDAP',
  name: 'Corporate LDAP',
  hostName: '127.0.0.1',
  port: ldap.port,
  userName: ADMIN_DN,
  password: ADMIN_PASSWORD,
  userDirectoryName: BASE_DN,
  sendNotification: false,
  defaultUserRole: d.hubRoleId,
  synchronization: 'Manual',
  organizationId: d.orgId,
  ...over,
});
const sync = () => s.ok('POST', `/api/app/user-directories/${directoryId}/sync`);
const db = () => s.engine.services.db;
const userByEmail = async (email: string) =>
  (
    await sql<{ id: string; email: string; isActive: boolean | number; firstName: string; directoryKey: string }>(
      db(),
      'SELECT id, email, "isActive", "firstName", "directoryKey" FROM users WHERE email = ?',
      [email],
    )
  ).map((u) => ({ ...u, isActive: Number(u.isActive) }))[0];
const memberCount = async (group: string) =>
  Number(
    (
      await sql(db(), 'SELECT COUNT(*) AS n FROM user_groups l JOIN groups g ON g.id = l."targetId" WHERE g.name = ?', [
        group,
      ])
    )[0].n,
  );

beforeAll(async () => {
  ldap = await startSlapd(PEOPLE, GROUPS);
  smtp = await startSmtp();
  s = await startTestServer({ schedulerTimers: false });
  d = await defaults(s);
  directoryId = (await s.ok('POST', '/api/v1/user-directories', settings())).id;
}, 120_000);
afterAll(async () => {
  await s?.stop();
  await ldap?.close();
  await smtp?.close();
});

describe(
  covers(
    'user directory synchronization',
    'app.auth.login',
    'app.userDirectories.sync',
    'app.userDirectories.syncs',
    'app.userDirectories.test',
    'v1.userDirectories.update',
  ),
  () => {
    it('tests the connection without synchronizing: found people, or the setting to fix named', async () => {
      const ok = await s.ok('POST', `/api/app/user-directories/${directoryId}/test`);
      expect(ok.message).toBe(
        `Signed in to ldap://127.0.0.1:${ldap.port} as "${ADMIN_DN}" and found people under "${BASE_DN}" with (objectClass=inetOrgPerson)`,
      );
      expect(await sql(db(), 'SELECT id FROM directory_syncs WHERE "directoryId" = ?', [directoryId])).toEqual([]);
      const wrong = (
        await s.ok('POST', '/api/v1/user-directories', settings({ name: 'Wrong password', password: 'nope' }))
      ).id;
      const refused = await s.call('POST', `/api/app/user-directories/${wrong}/test`);
      expect(refused.status).toBe(400);
      expect(refused.body.errorDetails?.[0].field).toBe('password');
      expect(refused.body.error).toContain('the user name or password is wrong');
      const nobody = (
        await s.ok(
          'POST',
          '/api/v1/user-directories',
          settings({ name: 'Nobody matches', filter: '(uid=nobody-here)' }),
        )
      ).id;
      const empty = await s.call('POST', `/api/app/user-directories/${nobody}/test`);
      expect(empty.body.errorDetails?.[0].field).toBe('filter');
      expect(empty.body.error).toContain('but nobody under');
      await s.ok('DELETE', '/api/v1/user-directories', [wrong, nobody]);
    });

    it('creates 1,000 users in the directory organization with its default role, and its 20 groups with their members', async () => {
      const run = await sync();
      expect(run).toMatchObject({
        status: 'completed',
        trigger: 'manual',
        created: 1000,
        updated: 0,
        deactivated: 0,
        groups: 20,
        field: null,
      });
      const users = await s.ok('GET', '/api/v1/users', undefined, {
        get_all: true,
        email: 'person0042@corp.example.com',
      });
      const p42 = users.find((u: { email: string }) => u.email === 'person0042@corp.example.com');
      expect(p42).toMatchObject({
        firstName: 'Given0042',
        lastName: 'Family0042',
        isActive: true,
        directoryId,
        hasPassword: false,
      });
      expect(p42.organizations.map((o: { id: string }) => o.id)).toEqual([d.orgId]);
      expect(p42.roles.map((r: { id: string }) => r.id)).toEqual([d.hubRoleId]);
      expect(p42.groups.map((g: { name: string }) => g.name).sort()).toEqual(['All users', 'team02']);
      for (const g of GROUPS) expect(await memberCount(g.cn)).toBe(50);
      // A second run with nothing changed changes nothing.
      expect(await sync()).toMatchObject({ status: 'completed', created: 0, updated: 0, deactivated: 0, groups: 20 });
    });

    it('synchronizes once when asked twice at once: the second is told one is under way', async () => {
      const count = async () =>
        Number(
          (await sql(db(), 'SELECT COUNT(*) AS n FROM directory_syncs WHERE "directoryId" = ?', [directoryId]))[0].n,
        );
      const before = await count();
      const path = `/api/app/user-directories/${directoryId}/sync`;
      const answers = await Promise.all([s.call('POST', path), s.call('POST', path)]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      const refused = answers.find((a) => a.status === 409)!;
      expect(refused.body.error).toContain('"Corporate LDAP" is being synchronized now');
      expect((await count()) - before).toBe(1);
    });

    it('deactivates a person removed, updates a changed e-mail and follows group membership', async () => {
      await ldap.admin(async (c) => {
        await c.del(personDn('person0002'));
        await c.modify(
          personDn('person0003'),
          new Change({
            operation: 'replace',
            modification: new Attribute({ type: 'mail', values: ['renamed0003@corp.example.com'] }),
          }),
        );
        await c.modify(
          `cn=team01,ou=groups,${BASE_DN}`,
          new Change({
            operation: 'delete',
            modification: new Attribute({ type: 'member', values: [personDn('person0021')] }),
          }),
        );
      });
      const before = await userByEmail('person0002@corp.example.com');
      const run = await sync();
      expect(run).toMatchObject({ status: 'completed', created: 0, updated: 1, deactivated: 1 });
      expect(run.log).toMatch(/Given0002 Family0002: deactivated/);
      expect((await userByEmail('person0002@corp.example.com')).isActive).toBe(0);
      expect(await userByEmail('person0003@corp.example.com')).toBeUndefined();
      expect(await userByEmail('renamed0003@corp.example.com')).toMatchObject({
        firstName: 'Given0003',
        directoryKey: 'person0003',
      });
      // person0002 was in team02 (by removal from the directory, their entry went from the group's view too).
      expect(await memberCount('team01')).toBe(49);
      // The deactivated user is still there: what they own stays.
      expect((await sql(db(), 'SELECT COUNT(*) AS n FROM users WHERE id = ?', [before.id]))[0].n).toBe(1);
    });

    it('lets its people sign in with their directory password, asked of the directory each time', async () => {
      const signIn = (email: string, password: string) =>
        s.call('POST', '/api/app/auth/login', { token: null, body: { email, password } });
      const ok = await signIn('person0001@corp.example.com', 'directory pass 0001');
      expect(ok.status).toBe(200);
      expect(ok.body.data.user).toMatchObject({ email: 'person0001@corp.example.com', directoryId });
      const me = await s.call('GET', '/api/app/auth/me', { token: ok.body.data.token });
      expect(me.body.data.user.email).toBe('person0001@corp.example.com');
      // Another person's password, or none the directory holds, is refused alike.
      expect((await signIn('person0001@corp.example.com', 'directory pass 0004')).status).toBe(401);
      expect((await signIn('person0010@corp.example.com', 'anything at all')).status).toBe(401);
      // A person deactivated (removed from the directory) cannot sign in, whatever the password.
      expect((await signIn('person0002@corp.example.com', 'directory pass 0002')).status).toBe(401);
      // A password changed in the directory takes effect at once: nothing of it is kept here.
      await ldap.admin((c) =>
        c.modify(
          personDn('person0004'),
          new Change({
            operation: 'replace',
            modification: new Attribute({ type: 'userPassword', values: ['changed in the directory'] }),
          }),
        ),
      );
      expect((await signIn('person0004@corp.example.com', 'directory pass 0004')).status).toBe(401);
      expect((await signIn('person0004@corp.example.com', 'changed in the directory')).status).toBe(200);
      // A directory that cannot be reached is named, rather than the password blamed.
      await s.ok('PUT', `/api/v1/user-directories/${directoryId}`, settings({ port: 1 }));
      const down = await signIn('person0005@corp.example.com', 'directory pass 0005');
      expect(down.status).toBe(503);
      expect(down.body.error).toBe(
        'Your directory "Corporate LDAP" could not be reached to check your password; try again later or ask your administrator',
      );
      await s.ok('PUT', `/api/v1/user-directories/${directoryId}`, settings());
      expect((await signIn('person0005@corp.example.com', 'directory pass 0005')).status).toBe(200);
    });

    it('records a wrong password and an unreachable server as failed runs naming the setting, changing nobody', async () => {
      await s.ok('PUT', `/api/v1/user-directories/${directoryId}`, settings({ password: 'not-the-password' }));
      const denied = await sync();
      expect(denied).toMatchObject({ status: 'failed', field: 'password', created: 0, deactivated: 0 });
      expect(denied.message).toBe(
        `The directory refused the sign-in of "${ADMIN_DN}": the user name or password is wrong`,
      );
      await s.ok('PUT', `/api/v1/user-directories/${directoryId}`, settings({ port: 1 }));
      const unreachable = await sync();
      expect(unreachable).toMatchObject({ status: 'failed', field: 'hostName' });
      expect((await userByEmail('person0001@corp.example.com')).isActive).toBe(1);
      const status = await s.ok('GET', `/api/app/user-directories/${directoryId}/syncs`);
      expect(status.syncStatus).toBe('Failed');
      expect(status.syncs.map((r: { status: string }) => r.status)).toEqual([
        'failed',
        'failed',
        'completed',
        'completed',
        'completed',
        'completed',
      ]);
      // The password is never returned.
      expect(JSON.stringify(await s.ok('GET', '/api/v1/user-directories', undefined, { get_all: true }))).not.toContain(
        ADMIN_PASSWORD,
      );
    });

    it('runs a scheduled synchronization once its time has come, and refuses a time of day it cannot read', async () => {
      expect(
        (
          await s.call('PUT', `/api/v1/user-directories/${directoryId}`, {
            body: settings({ synchronization: 'Daily', frequencyTime: '25:00' }),
          })
        ).body.errorDetails?.[0].field,
      ).toBe('body.frequencyTime');
      expect(
        (
          await s.call('PUT', `/api/v1/user-directories/${directoryId}`, {
            body: settings({ synchronization: 'Daily', timeZone: 'Mars/Olympus' }),
          })
        ).body.errorDetails?.[0].field,
      ).toBe('body.timeZone');
      await s.ok(
        'PUT',
        `/api/v1/user-directories/${directoryId}`,
        settings({ synchronization: 'Hourly', frequencyTime: '00:15', timeZone: 'UTC', password: null }),
      );
      const count = async () =>
        Number(
          (await sql(db(), 'SELECT COUNT(*) AS n FROM directory_syncs WHERE "directoryId" = ?', [directoryId]))[0].n,
        );
      const before = await count();
      // Nothing is due right after saving: the stored next fire time is the next :15.
      await s.engine.scheduler.tick();
      expect(await count()).toBe(before);
      const status = await s.ok('GET', `/api/app/user-directories/${directoryId}/syncs`);
      expect(new Date(status.nextSync).getUTCMinutes()).toBe(15);
      expect(new Date(status.nextSync).getTime()).toBeGreaterThan(Date.now());
      // The machine slept through two slots: the latest runs once, as a scheduled sync (a catch-up).
      await db()
        .getRepository(UserDirectory)
        .update(directoryId, { nextFireTime: new Date(Date.now() - 2 * 3600_000) });
      await s.engine.scheduler.tick();
      await s.engine.scheduler.tick();
      expect(await count()).toBe(before + 1);
      const latest = await until(
        async () => (await s.ok('GET', `/api/app/user-directories/${directoryId}/syncs`)).syncs[0],
        (row) => row.status === 'completed' || row.status === 'failed',
      );
      expect(latest).toMatchObject({ trigger: 'schedule', status: 'completed' });
      const after = await s.ok('GET', `/api/app/user-directories/${directoryId}/syncs`);
      expect(new Date(after.nextSync).getTime()).toBeGreaterThan(Date.now());
    });

    it('welcomes the people a sync brings by mail when the directory asks for it, and says so when there is no mail server', async () => {
      const add = (uid: string, mail?: string) =>
        ldap.admin((c) =>
          c.add(personDn(uid), {
            objectClass: ['inetOrgPerson'],
            uid,
            cn: `New ${uid}`,
            givenName: 'New',
            sn: uid,
            ...(mail ? { mail } : {}),
          }),
        );
      await s.ok('PUT', `/api/v1/user-directories/${directoryId}`, settings({ sendNotification: true }));
      await add('newcomer1', 'newcomer1@corp.example.com');
      const unsent = await sync();
      expect(unsent).toMatchObject({ status: 'completed', created: 1 });
      expect(unsent.log).toMatch(/Welcome mails are not sent: no mail server is set up/);

      await s.ok('POST', '/api/v1/mail-servers', {
        name: 'Loopback',
        fromName: 'Broadsheet',
        fromAddress: 'admin@corp.example.com',
        hostName: '127.0.0.1',
        smtpPort: smtp.port,
        ssl: false,
      });
      await add('newcomer2', 'newcomer2@corp.example.com');
      await add('newcomer3');
      const sent = await sync();
      expect(sent).toMatchObject({ status: 'completed', created: 2 });
      expect(sent.log).toMatch(/Welcome mails queued: 1/);
      const [mail] = await until(
        () => smtp.received.filter((m) => m.parsed.subject === 'Your Broadsheet account'),
        (x) => x.length >= 1,
      );
      expect(mail.envelopeTo).toEqual(['newcomer2@corp.example.com']);
      expect(mail.parsed.text).toContain('your account comes from the directory "Corporate LDAP"');
      expect(mail.parsed.text).toContain(
        `Sign in at ${s.url} with newcomer2@corp.example.com and your directory password.`,
      );
      // People already known are not welcomed again, and nobody else was mailed.
      expect(await sync()).toMatchObject({ status: 'completed', created: 0 });
      await outboxIdle(s);
      expect(smtp.received.filter((m) => m.parsed.subject === 'Your Broadsheet account')).toHaveLength(1);
    });
  },
);
