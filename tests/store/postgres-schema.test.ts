// Issue 26's ground floor: the engine's entities on Debian's PostgreSQL, started by the test on a
// Unix socket of its own. Every entity builds its table there with its indexes and foreign keys,
// and rows written through the same repositories the features use read back as they went in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataSource } from 'typeorm';
import { entitiesFor } from '../../engine/core/dialect.js';
import { ENTITIES } from '../../engine/entities.js';
import { newBase } from '../../engine/core/entity-base.js';
import { User } from '../../engine/features/users/users.entity.js';
import { Organization } from '../../engine/features/organizations/organizations.entity.js';
import { ReportTemplate } from '../../engine/features/reports/report-template.entity.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';

let pg: TestPostgres;
let ds: DataSource;

beforeAll(async () => {
  pg = await startPostgres();
  ds = new DataSource({
    type: 'postgres',
    host: pg.socketDir,
    username: pg.user,
    database: pg.database,
    entities: entitiesFor('postgres', ENTITIES),
    synchronize: true,
    logging: false,
  });
  await ds.initialize();
}, 60_000);
afterAll(async () => {
  await ds?.destroy();
  await pg?.close();
});

describe('the entities on PostgreSQL', () => {
  it('build a table for every entity, with their indexes and foreign keys', async () => {
    const tables = (
      await ds.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")
    ).map((r: { table_name: string }) => r.table_name);
    const expected = ENTITIES.map((e) => e.options.tableName ?? e.options.name);
    expect(tables.sort()).toEqual([...new Set(expected)].sort());
    const [{ n: foreignKeys }] = await ds.query(
      "SELECT COUNT(*)::int AS n FROM information_schema.table_constraints WHERE constraint_type = 'FOREIGN KEY'",
    );
    expect(foreignKeys).toBeGreaterThan(30);
    const timestamps = await ds.query(
      "SELECT DISTINCT data_type FROM information_schema.columns WHERE column_name = 'createdDate'",
    );
    expect(timestamps).toEqual([{ data_type: 'timestamp with time zone' }]);
  });

  it('keeps what the features write: dates to the millisecond, flags and text in any script', async () => {
    const now = new Date('2026-03-29T01:30:15.123Z');
    const org = { ...newBase(now), name: 'acme', displayName: 'Acme', description: null, themeId: newBase(now).id };
    await ds.getRepository(Organization).insert(org);
    const user = {
      ...newBase(now),
      kind: 'user',
      firstName: 'Zoë',
      lastName: "O'Brien",
      email: 'zoe@example.com',
      passwordHash: null,
      isActive: true,
      isTenantOwner: false,
      isTenantAdmin: true,
    };
    await ds.getRepository(User).insert(user as never);
    const read = await ds.getRepository(User).findOneByOrFail({ id: user.id });
    expect(read).toMatchObject({ firstName: 'Zoë', lastName: "O'Brien", isActive: true, isTenantAdmin: true });
    expect(read.createdDate.toISOString()).toBe(now.toISOString());
    // Stored files (a report's template) are bytes there, not text.
    const column = await ds.query(
      "SELECT data_type FROM information_schema.columns WHERE table_name = $1 AND column_name = 'data'",
      [ReportTemplate.options.tableName ?? ReportTemplate.options.name],
    );
    expect(column).toEqual([{ data_type: 'bytea' }]);
  });
});
