// Finding 5 (medium): rate limits locked the rightful user out. Sign-ins slow down per account and
// per address with growing delays announced in Retry-After; a valid credential is never refused
// because others failed. The clock is the engine's, moved by the test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaults, memoryKeyStore, startTestServer, type TestServer } from '../support/test-server.js';
import { covers } from '../support/covers.js';

let s: TestServer;
let now = Date.parse('2026-03-02T09:00:00Z');
const advance = (seconds: number) => (now += seconds * 1000);

const login = (email: string, password: string) =>
  s.call('POST', '/api/app/auth/login', { token: null, body: { email, password } });

async function createUser(email: string, password: string) {
  const { orgId } = await defaults(s);
  await s.ok('POST', '/api/v1/users', {
    firstName: 'Throttle',
    lastName: 'Test',
    email,
    password,
    isActive: true,
    organizations: [{ id: orgId }],
  });
}

beforeAll(async () => {
  s = await startTestServer({ now: () => new Date(now) });
  await createUser('carol@example.com', 'carol-password-1');
  await createUser('dave@example.com', 'dave-password-1');
});
afterAll(() => s.stop());

describe('sign-in throttling', () => {
  it('after 30 wrong passwords the right one is accepted once the announced wait is over', async () => {
    const codes: number[] = [];
    while (codes.filter((c) => c === 401).length < 30) {
      const r = await login('carol@example.com', 'wrong-' + codes.length);
      codes.push(r.status);
      // A guesser who waits as told is let through to fail again; one who does not is refused.
      if (r.status === 429) advance(Number(r.headers.get('retry-after')));
    }
    expect(codes.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(codes[5]).toBe(429);
    const right = await login('carol@example.com', 'carol-password-1');
    expect(right.status).toBe(429);
    const wait = Number(right.headers.get('retry-after'));
    // Growing delays are capped: the rightful user waits at most a minute.
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(right.body.error).toMatch(/try again in \d+ s/);
    advance(wait);
    expect((await login('carol@example.com', 'carol-password-1')).status).toBe(200);
    // Success clears the account's slate.
    expect((await login('carol@example.com', 'wrong-again')).status).toBe(401);
  });

  it('one account under attack does not lock out another signing in from the same address', async () => {
    for (let i = 0; i < 8; i++) await login('carol@example.com', 'wrong-' + i);
    expect((await login('carol@example.com', 'carol-password-1')).status).toBe(429);
    expect((await login('dave@example.com', 'dave-password-1')).status).toBe(200);
    advance(120);
  });

  it('throttles unknown e-mail addresses the same way, with the same answer as a wrong password', async () => {
    const unknown = await login('nobody@example.com', 'whatever-1');
    const known = await login('dave@example.com', 'wrong-password');
    expect(unknown.status).toBe(401);
    expect(unknown.body.error).toBe(known.body.error);
    for (let i = 0; i < 5; i++) await login('nobody@example.com', 'whatever-' + i);
    const r = await login('nobody@example.com', 'whatever-x');
    expect(r.status).toBe(429);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    advance(120);
  });

  it('slows a whole address down only after many failures across accounts', async () => {
    advance(15 * 60 + 1);
    const codes: number[] = [];
    for (let i = 0; i < 60; i++) codes.push((await login(`guess-${i}@example.com`, 'x-password')).status);
    expect(codes.slice(0, 50).every((c) => c === 401)).toBe(true);
    expect(codes.slice(50)).toContain(429);
    advance(15 * 60 + 1);
    expect((await login('dave@example.com', 'dave-password-1')).status).toBe(200);
  });
});

/** A sign-in from another address than the test's own (the engine's door, as HTTP calls it with the caller's IP). */
const loginFrom = async (client: string, email: string, password: string) =>
  (await s.engine.invoke('app.auth.login', { body: { email, password } }, { transport: 'http', client })).status;

describe(covers('the rightful user is never locked out by others', 'app.auth.login'), () => {
  it('a slow guesser at another address keeps no wait on the owner at their own address', async () => {
    advance(60 * 60 + 1);
    await createUser('erin@example.com', 'erin-password-1');
    // Erin signs in at her desk as she does every day.
    expect(await loginFrom('192.0.2.10', 'erin@example.com', 'erin-password-1')).toBe(200);
    const attacker: number[] = [];
    const owner: number[] = [];
    // One wrong password a minute from elsewhere, past the first ramp; Erin signs in between each.
    for (let i = 0; i < 13; i++) {
      attacker.push(await loginFrom('198.51.100.7', 'erin@example.com', `guess-${i}`));
      owner.push(await loginFrom('192.0.2.10', 'erin@example.com', 'erin-password-1'));
      advance(10);
    }
    expect(attacker.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(attacker).toContain(429);
    expect(owner).toEqual(Array(13).fill(200));
  });

  it('guessing one account from many addresses stays bounded, and the owner still gets in from home', async () => {
    advance(60 * 60 + 1);
    await createUser('frank@example.com', 'frank-password-1');
    expect(await loginFrom('192.0.2.20', 'frank@example.com', 'frank-password-1')).toBe(200);
    const codes: number[] = [];
    for (let i = 0; i < 40; i++) codes.push(await loginFrom(`203.0.113.${i + 1}`, 'frank@example.com', `guess-${i}`));
    // Twenty free failures across addresses, then every new address waits before its guess is even checked.
    expect(codes.slice(0, 20).every((c) => c === 401)).toBe(true);
    expect(codes.slice(21)).toEqual(Array(19).fill(429));
    // A right password from an address never used is held too (a guesser could not tell it from a wrong one)…
    expect(await loginFrom('203.0.113.200', 'frank@example.com', 'frank-password-1')).toBe(429);
    // …but Frank at home is not.
    expect(await loginFrom('192.0.2.20', 'frank@example.com', 'frank-password-1')).toBe(200);
  });
});

describe(covers('throttling kept in the database', 'app.auth.login'), () => {
  it('still slows guesses made before a restart, and still lets the owner in from where they sign in', async () => {
    let at = Date.parse('2026-03-09T09:00:00Z');
    const keys = memoryKeyStore();
    const first = await startTestServer({ now: () => new Date(at), keepDataDir: true, secretKeys: keys });
    const { orgId } = await defaults(first);
    await first.ok('POST', '/api/v1/users', {
      firstName: 'Grace',
      lastName: 'Restart',
      email: 'grace@example.com',
      password: 'grace-password-1',
      isActive: true,
      organizations: [{ id: orgId }],
    });
    const from = (server: TestServer, client: string, password: string) =>
      server.engine
        .invoke('app.auth.login', { body: { email: 'grace@example.com', password } }, { transport: 'http', client })
        .then((r) => r.status);
    expect(await from(first, '192.0.2.30', 'grace-password-1')).toBe(200);
    const guesses: number[] = [];
    for (let i = 0; i < 6; i++) guesses.push(await from(first, '198.51.100.30', `guess-${i}`));
    expect(guesses).toEqual([401, 401, 401, 401, 401, 429]);
    await first.stop();

    // The engine starts again on the same data (or another server on the same database starts).
    const second = await startTestServer({ dataDir: first.dataDir, now: () => new Date(at), secretKeys: keys });
    try {
      const held = await second.engine.invoke(
        'app.auth.login',
        { body: { email: 'grace@example.com', password: 'guess-6' } },
        { transport: 'http', client: '198.51.100.30' },
      );
      expect(held.status).toBe(429);
      expect(held.retryAfter).toBeGreaterThan(0);
      // Grace at her desk is known there from before the restart: not held by the guesser's count.
      expect(await from(second, '192.0.2.30', 'grace-password-1')).toBe(200);
      at += 61_000;
      expect(await from(second, '198.51.100.30', 'grace-password-1')).toBe(200);
    } finally {
      await second.stop();
    }
  });
});

describe(covers('bearer credentials', 'v1.users.list'), () => {
  it('never refuses a valid API key because others sent bad ones; the bad ones slow down with Retry-After', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 40; i++) codes.push((await s.call('GET', '/api/v1/users', { token: 'bsk_forged' + i })).status);
    expect(codes[0]).toBe(401);
    expect(codes.at(-1)).toBe(429);
    const throttled = await s.call('GET', '/api/v1/users', { token: 'bsk_forged-again' });
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    // The owner's key, from the same address, in the middle of it all.
    expect((await s.call('GET', '/api/v1/users')).status).toBe(200);
    advance(600);
  });
});
