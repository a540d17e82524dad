import { describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createEngine } from '../../engine/engine.js';
import { SecretBox } from '../../engine/core/secrets.js';
import { buildCatalogue } from '../../engine/ops/dispatch.js';
import { OPERATIONS } from '../../engine/catalogue.js';
import { parseListQuery } from '../../engine/core/list-query.js';
import { Throttle } from '../../engine/core/throttle.js';
import { passwordHashing } from '../../engine/core/passwords.js';
import { memoryKeyStore } from '../support/test-server.js';
import type { AnyOp } from '../../engine/ops/op.js';
import { covers } from '../support/covers.js';

describe(covers('first start and the database', 'v1.trustedOrigins.create'), () => {
  it('seeds an empty folder once, and a restart finds the same records', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'bs-engine-'));
    const keys = memoryKeyStore();
    const first = await createEngine({ dataDir, secretKeys: keys, ownerEmail: 'Boss@Example.com' });
    expect(first.firstStart.created).toBe(true);
    const db = first.services.db;
    expect(await db.query('SELECT displayName FROM organizations')).toEqual([{ displayName: 'Default' }]);
    expect((await db.query('SELECT name FROM roles ORDER BY name')).map((r: { name: string }) => r.name)).toEqual([
      'Administrator',
      'Designer',
      'Hub users',
      'Publisher',
    ]);
    expect(await db.query('SELECT name FROM groups')).toEqual([{ name: 'All users' }]);
    expect(await db.query('SELECT email, isTenantOwner FROM users')).toEqual([
      { email: 'boss@example.com', isTenantOwner: 1 },
    ]);
    expect((await db.query('PRAGMA journal_mode'))[0].journal_mode).toBe('wal');
    expect((await db.query('PRAGMA foreign_keys'))[0].foreign_keys).toBe(1);
    expect((await db.query('SELECT name FROM migrations')).map((m: { name: string }) => m.name)).toEqual([
      'Initial1763683200000',
      'UserListIndexes1763769600000',
      'ReportsFromData1763856000000',
      'ProjectImportState1764115200000',
      'Tasks1764201600000',
      'ConditionsRequests1764288000000',
      'MailOutbox1764374400000',
      'StorageServices1764460800000',
      'SftpKeys1764547200000',
      'Hub1764633600000',
      'SftpHostKeys1764720000000',
      'Subscriptions1764806400000',
      'MemberPermissions1764892800000',
      'Invitations1764979200000',
      'DirectorySync1765065600000',
      'DirectorySchedulesAsked1765152000000',
      'ReportTemplates1765238400000',
      'JobLeases1765324800000',
      'ListOrderIndexes1765411200000',
      'SignInOutcomes1765497600000',
      'SsoTickets1765584000000',
      'ProviderProvisioning1765670400000',
      'SessionSignOut1765756800000',
      'UserTimeZone1765843200000',
      'CloudStorage1765929600000',
      'LiveData1766102400000',
      'ReloadQueue1766188800000',
      'OrganizationWalls1766275200000',
      'DeliveryQueue1766361600000',
      'HubOccurrencesByRun1766448000000',
    ]);
    await first.close();
    const second = await createEngine({ dataDir, secretKeys: keys });
    expect(second.firstStart).toEqual({ created: false, ownerId: first.firstStart.ownerId });
    expect(await second.services.db.query('SELECT COUNT(*) n FROM organizations')).toEqual([{ n: 1 }]);
    await second.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('answers an internal fault as a 500 envelope without the input', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'bs-engine-'));
    const logged: string[] = [];
    const engine = await createEngine({
      dataDir,
      secretKeys: memoryKeyStore(),
      logger: { info() {}, warn() {}, error: (m, f) => logged.push(m + JSON.stringify(f)) },
    });
    const key = await engine.issueOwnerKey();
    await engine.services.db.query('DROP TABLE trusted_origins');
    const res = await engine.invoke(
      'v1.trustedOrigins.create',
      { body: { name: 'x', address: 'https://secret-host.test' } },
      { token: key, transport: 'internal' },
    );
    expect(res.status).toBe(500);
    expect(res.envelope.error).toMatch(/Internal error/);
    expect(logged.join()).not.toContain('secret-host');
    await engine.close();
    await rm(dataDir, { recursive: true, force: true });
  });
});

describe('catalogue', () => {
  it('fails at start on a duplicate id', () => {
    const op = OPERATIONS[0] as AnyOp;
    expect(() => buildCatalogue([op, op])).toThrow(/Duplicate operation id/);
  });

  it('declares a permission, a path under its prefix, and an id of the right set for every operation', () => {
    for (const op of OPERATIONS as readonly AnyOp[]) {
      // app.* operations live under /api/app, except the /api/v1 paths the reference clients call.
      const prefixes = op.id.startsWith('v1.')
        ? ['/api/v1/']
        : op.id.startsWith('v2.')
          ? ['/api/v2/']
          : ['/api/app/', '/api/v1/'];
      expect(
        prefixes.some((p) => op.http.path.startsWith(p)),
        op.id,
      ).toBe(true);
      expect(op.permission, op.id).toBeTruthy();
    }
  });
});

describe('secret box', () => {
  it('seals and opens, never stores plain text, and detects tampering', async () => {
    const box = await SecretBox.open(memoryKeyStore());
    const sealed = box.seal('smtp-pass');
    expect(sealed).not.toContain('smtp-pass');
    expect(box.open(sealed)).toBe('smtp-pass');
    const raw = Buffer.from(sealed.slice(7), 'base64');
    raw[raw.length - 1] ^= 1;
    expect(() => box.open('enc:v1:' + raw.toString('base64'))).toThrow();
    const other = await SecretBox.open({ load: async () => randomBytes(32), save: async () => {} });
    expect(() => other.open(sealed)).toThrow();
    expect(box.sealOrKeep(undefined, sealed)).toBe(sealed);
    expect(box.sealOrKeep(null, sealed)).toBe(sealed);
  });
});

describe('passwords', () => {
  it('hashes with scrypt at OWASP cost and verifies', async () => {
    const passwords = passwordHashing();
    const h = await passwords.hash('pa55word!');
    expect(h).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(await passwords.verify('pa55word!', h)).toBe(true);
    expect(await passwords.verify('pa55word?', h)).toBe(false);
  });

  it("verifies a hash made at another cost by the cost it names, and refuses a cost that isn't a power of two", async () => {
    const cheap = passwordHashing({ N: 2 ** 12 });
    const h = await cheap.hash('pa55word!');
    expect(h).toMatch(/^scrypt\$4096\$8\$1\$/);
    expect(await passwordHashing().verify('pa55word!', h)).toBe(true);
    expect(await cheap.verify('pa55word!', null)).toBe(false);
    expect(() => passwordHashing({ N: 3000 })).toThrow(/power of two/);
  });
});

describe('list parameters', () => {
  const spec = { sort: { Name: 'x.name', CreatedDate: 'x.c' }, text: { name: 'x.name' }, bool: { is_active: 'x.a' } };
  it('applies the documented defaults', () => {
    expect(parseListQuery(spec, {})).toMatchObject({
      page: 1,
      pageSize: 10,
      getAll: false,
      sortDirection: 'asc',
      sortBy: null,
      text: [],
    });
  });
  it('reads operators and case-insensitive sort names', () => {
    const q = parseListQuery(spec, {
      'name[StartsWith]': 'Ab',
      sort_by: 'createddate',
      sort_direction: 'DESC',
      is_active: 'TRUE',
    });
    expect(q).toMatchObject({
      sortBy: 'CreatedDate',
      sortDirection: 'desc',
      text: [{ param: 'name', op: 'startswith', value: 'Ab' }],
      bool: { is_active: true },
    });
  });
  it('collects every problem in one answer', () => {
    try {
      parseListQuery(spec, { page: '0', page_size: '500', sort_by: 'secret' });
      expect.unreachable();
    } catch (e) {
      expect((e as { details: { field: string }[] }).details.map((d) => d.field)).toEqual([
        'query.page',
        'query.page_size',
        'query.sort_by',
      ]);
    }
  });
});

describe('throttle', () => {
  it('lets the free failures through, then doubles the wait up to its cap, and forgets after the window', () => {
    let now = 0;
    const t = new Throttle({ free: 3, baseMs: 1000, maxMs: 4000, forgetMs: 60_000 }, () => now);
    for (let i = 0; i < 3; i++) t.fail('k');
    expect(t.retryAfter('k')).toBe(1000);
    t.fail('k');
    expect(t.retryAfter('k')).toBe(2000);
    t.fail('k');
    t.fail('k');
    expect(t.retryAfter('k')).toBe(4000);
    expect(t.retryAfter('other')).toBe(0);
    now = 4000;
    expect(t.retryAfter('k')).toBe(0);
    now = 70_000;
    t.fail('k');
    expect(t.retryAfter('k')).toBe(0);
  });
});
