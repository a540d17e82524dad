// One's own details: anyone signed in (a hub reader without any administration right) changes their
// name, language and time zone; the e-mail they sign in with only with their current password, and
// never to another account's; a time zone or language that is not one is refused by name; and a new
// schedule of theirs starts in their zone (the screen reads it from `app.auth.me`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { covers } from '../support/covers.js';
import { signedInUserWith, startTestServer, type TestServer } from '../support/test-server.js';

let s: TestServer;
let reader: { token: string; userId: string };
const OWNER = { firstName: 'Owen', lastName: 'Owner', email: 'owen@example.com', password: 'owen-password-1' };

beforeAll(async () => {
  s = await startTestServer();
  await s.ok('POST', '/api/app/setup', OWNER);
  reader = await signedInUserWith(s, { previewPublishedReport: true }, 'reader');
});
afterAll(async () => {
  await s?.stop();
});

const me = async (token: string) => (await s.call('GET', '/api/app/auth/me', { token })).body.data.user;
const update = (token: string, body: Record<string, unknown>) =>
  s.call('PUT', '/api/app/auth/profile', { token, body });

describe(covers('your own details', 'app.auth.updateProfile', 'app.auth.me'), () => {
  it('saves name, language and time zone for someone with no administration right', async () => {
    const before = await me(reader.token);
    const res = await update(reader.token, {
      firstName: 'Rita',
      lastName: 'Reader',
      email: before.email,
      isoLanguage: 'fr',
      timeZone: 'Europe/Paris',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const after = await me(reader.token);
    expect([after.fullName, after.isoLanguage, after.timeZone]).toEqual(['Rita Reader', 'fr', 'Europe/Paris']);
    // An administrator sees the same person.
    const listed = await s.ok('GET', '/api/v1/users', undefined, { get_all: true });
    expect(listed.find((u: { id: string }) => u.id === reader.userId).fullName).toBe('Rita Reader');
  });

  it('refuses a time zone or language that is not one, by field, and changes nothing', async () => {
    const before = await me(reader.token);
    const zone = await update(reader.token, { ...before, isoLanguage: 'fr', timeZone: 'Mars/Olympus' });
    expect(zone.status).toBe(400);
    expect(zone.body.errorDetails?.[0]).toMatchObject({ field: 'body.timeZone' });
    expect(JSON.stringify(zone.body)).toContain('Mars/Olympus');
    const lang = await update(reader.token, { ...before, isoLanguage: 'French', timeZone: null });
    expect(lang.status).toBe(400);
    expect(JSON.stringify(lang.body)).toContain('isoLanguage');
    expect(await me(reader.token)).toMatchObject({ timeZone: 'Europe/Paris', isoLanguage: 'fr' });
  });

  it('changes the e-mail one signs in with only with the current password, and never to a taken one', async () => {
    const before = await me(reader.token);
    const body = { ...before, email: 'rita@example.com', timeZone: before.timeZone };
    const pick = ({ firstName, lastName, email, isoLanguage, timeZone }: typeof body) => ({
      firstName,
      lastName,
      email,
      isoLanguage,
      timeZone,
    });
    const without = await update(reader.token, pick(body));
    expect(without.status).toBe(400);
    expect(JSON.stringify(without.body)).toContain('body.currentPassword');
    const taken = await update(reader.token, {
      ...pick(body),
      email: OWNER.email,
      currentPassword: 'correct horse battery',
    });
    expect(taken.status).toBe(409);
    const ok = await update(reader.token, { ...pick(body), currentPassword: 'correct horse battery' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const login = await s.call('POST', '/api/app/auth/login', {
      token: null,
      body: { email: 'rita@example.com', password: 'correct horse battery' },
    });
    expect(login.status).toBe(200);
    expect((await me(reader.token)).email).toBe('rita@example.com');
  });

  it('is refused to no one signed in', async () => {
    const res = await update(null as unknown as string, {
      firstName: 'X',
      lastName: 'Y',
      email: 'x@example.com',
      isoLanguage: null,
      timeZone: null,
    });
    expect(res.status).toBe(401);
  });
});
