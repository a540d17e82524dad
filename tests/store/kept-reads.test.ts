// List pages read through kept prepared statements (core/db.ts `allKept`), their entities made by
// a compiled hydrator (core/entity-rows.ts), and a list hidden only by importing projects counted
// from the table's size (core/list-query.ts): each must answer exactly what TypeORM's own reading
// answers, on a database holding rows of every column type.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataSource, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { DB_FILE, keptStatementsOf } from '../../engine/core/db.js';
import { keptEntities, RememberedReads } from '../../engine/core/kept-reads.js';
import { hydrator, plainEntityOf } from '../../engine/core/entity-rows.js';
import { queryAndParameters, queryText } from '../../engine/core/query-text.js';
import { Request } from '../../engine/model/requests.entity.js';
import { User } from '../../engine/model/users.entity.js';
import { Task } from '../../engine/model/tasks.entity.js';

let s: TestServer;
let db: DataSource;
let projectId: string;
const RUNS = 25;

/** Rows straight into a table: the given values, and for each other NOT NULL column without a default one of its type. */
async function insert(table: string, rows: Record<string, unknown>[]) {
  const columns = (await db.query(`PRAGMA table_info(${table})`)) as {
    name: string;
    type: string;
    notnull: number;
    dflt_value: unknown;
  }[];
  for (const row of rows) {
    const values = columns
      .filter((c) => c.name in row || (c.notnull && c.dflt_value === null))
      .map(
        (c) =>
          [
            c.name,
            c.name in row
              ? row[c.name]
              : /int|bool/i.test(c.type)
                ? 0
                : /date|time/i.test(c.type)
                  ? '2026-01-02 03:04:05.678'
                  : '',
          ] as const,
      );
    await db.query(
      `INSERT INTO ${table} (${values.map(([n]) => `"${n}"`).join(', ')}) VALUES (${values.map(() => '?').join(', ')})`,
      values.map(([, v]) => v),
    );
  }
}

beforeAll(async () => {
  s = await startTestServer({});
  db = s.engine.services.db;
  projectId = (await s.ok('POST', '/api/app/projects', { name: 'Kept reads' })).id;
  // Runs with every kind of column filled: dates, JSON, flags, numbers and empty ones.
  await insert(
    'requests',
    Array.from({ length: RUNS }, (_, i) => ({
      id: randomUUID(),
      createdDate: `2026-03-${String(1 + i).padStart(2, '0')} 10:00:00.${String(i).padStart(3, '0')}`,
      modifiedDate: '2026-04-01 00:00:00.000',
      kind: 'OnDemandReport',
      title: `Run ${i}`,
      projectId,
      status: i % 3 ? 'completed' : 'failed',
      catchUp: i % 2,
      config: JSON.stringify({ reportId: `r${i}`, format: 'Pdf' }),
      files: JSON.stringify([{ name: `f${i}.pdf`, size: i, format: 'Pdf', iteration: [] }]),
      outputFormats: JSON.stringify(['Pdf']),
      progressDone: i,
      progressTotal: RUNS,
      startedDate: i % 4 ? '2026-03-05 10:00:01.000' : null,
    })),
  );
  // A task with flags, JSON and empty columns.
  await insert('tasks', [
    {
      id: randomUUID(),
      createdDate: '2026-02-03 04:05:06.789',
      modifiedDate: '2026-02-03 04:05:06.789',
      projectId,
      name: 'Weekly',
      isActive: 1,
      testMode: 0,
      email: JSON.stringify({ subject: 'Weekly', body: 'Attached' }),
    },
  ]);
});
afterAll(() => s.stop());

describe('entities made from kept rows', () => {
  it('are the entities TypeORM makes itself, column for column, for runs, users and tasks', async () => {
    for (const [entity, alias] of [
      [Request, 'r'],
      [User, 'u'],
      [Task, 't'],
    ] as const) {
      const qb = db
        .getRepository(entity as typeof Request)
        .createQueryBuilder(alias)
        .orderBy(`${alias}.id`);
      const metadata = plainEntityOf(qb);
      expect(metadata, `${alias}: a plain entity query`).not.toBeNull();
      const raw = await keptStatementsOf(db)!.allKept(...(qb.getQueryAndParameters() as [string, unknown[]]));
      const ours = raw.map(hydrator(db, metadata!, alias));
      const theirs = await qb.getMany();
      expect(ours.length).toBeGreaterThan(0);
      expect(ours).toEqual(theirs);
    }
    const run = (await db.getRepository(Request).createQueryBuilder('r').getMany())[0];
    expect(run.createdDate).toBeInstanceOf(Date);
  });

  it('are the partial entities TypeORM makes when some columns are selected, through keptEntities', async () => {
    const qb = () =>
      db
        .getRepository(Request)
        .createQueryBuilder('r')
        .select(['r.id', 'r.createdDate', 'r.config', 'r.catchUp', 'r.startedDate'])
        .where('r.status = :status', { status: 'completed' })
        .orderBy('r.id')
        .limit(7);
    expect(plainEntityOf(qb())).not.toBeNull();
    const ours = await keptEntities(qb());
    expect(ours).toHaveLength(7);
    expect(ours).toEqual(await qb().getMany());
    expect(Object.keys(ours[0]).sort()).toEqual(['catchUp', 'config', 'createdDate', 'id', 'startedDate']);
    expect(ours[0].config).toMatchObject({ format: 'Pdf' });
    // A computed selection (named by an alias) is not a column: TypeORM makes those entities.
    expect(plainEntityOf(qb().addSelect('upper(r.title)', 'shout'))).toBeNull();
  });

  it('are left to TypeORM when the query joins', () => {
    const qb = db.getRepository(User).createQueryBuilder('u').leftJoin('user_roles', 'ur', 'ur."userId" = u.id');
    expect(plainEntityOf(qb)).toBeNull();
  });
});

describe("a query builder's SQL made once per shape", () => {
  const runs = () => db.getRepository(Request).createQueryBuilder('r');

  it('is the SQL and parameters TypeORM writes, for each shape, the second time too', () => {
    const shapes = [
      () => runs().where('r.status = :status', { status: 'failed' }).orderBy('r.createdDate', 'DESC'),
      () => runs().where('r.status = :status', { status: 'completed' }).orderBy('r.createdDate', 'DESC'),
      () =>
        runs()
          .where('r."projectId" IN (:...ids)', { ids: ['a', 'b', 'c'] })
          .orderBy('r.id'),
      () =>
        runs()
          .where('r."projectId" IN (:...ids)', { ids: ['a'] })
          .orderBy('r.id'),
      () => runs().select('COUNT(*)', 'n').where('r.status = :status', { status: 'failed' }),
      () => runs().select(['r.id', 'r.title']).where({ status: 'failed', kind: 'OnDemandReport' }),
      () => runs().where('r.status = :s', { s: 'x' }).andWhere('r.title LIKE :t', { t: '%a%' }).limit(3),
    ];
    const same = <T extends ObjectLiteral>(shape: () => SelectQueryBuilder<T>) => {
      for (let twice = 0; twice < 2; twice++) {
        expect(queryText(shape())).toBe(shape().getQuery());
        expect(queryAndParameters(shape())).toEqual(shape().getQueryAndParameters());
      }
    };
    shapes.forEach(same);
    same(() => db.getRepository(User).createQueryBuilder('u').orderBy('LOWER(u.email)').addOrderBy('u.id'));
  });

  it('differs where the conditions, the order, the columns or the entity differ', () => {
    const texts = [
      queryText(runs().where('r.status = :status')),
      queryText(runs().where('r.kind = :status')),
      queryText(runs().where('r.status = :status').orderBy('r.id')),
      queryText(runs().where('r.status = :status').orderBy('r.id', 'DESC')),
      queryText(runs().select(['r.id']).where('r.status = :status')),
      queryText(runs().where('r.status = :status').orWhere('r.kind = :status')),
      queryText(db.getRepository(Task).createQueryBuilder('r').where('r.status = :status')),
    ];
    expect(new Set(texts).size).toBe(texts.length);
  });

  it("reads the same rows as TypeORM's own SQL, parameters bound afresh each time", async () => {
    for (const status of ['failed', 'completed']) {
      const qb = runs().where('r.status = :status', { status }).orderBy('r.id');
      const ours = await keptEntities(qb);
      expect(ours.length).toBeGreaterThan(0);
      expect(ours.every((r) => r.status === status)).toBe(true);
      expect(ours).toEqual(await qb.getMany());
    }
  });

  it('is left to TypeORM for a query that joins', () => {
    const joined = () =>
      db.getRepository(User).createQueryBuilder('u').leftJoin('user_roles', 'ur', 'ur."userId" = u.id');
    expect(queryText(joined())).toBe(joined().getQuery());
    expect(queryText(joined().where('ur."targetId" = :x'))).toBe(joined().where('ur."targetId" = :x').getQuery());
  });
});

describe('a runs page read through kept statements', () => {
  it('pages newest first with dates, JSON and the total as stored', async () => {
    const page2 = await s.call('GET', '/api/v1/requests', { query: { page: 2, page_size: 10 } });
    expect(page2.status).toBe(200);
    expect(page2.body.totalItems).toBe(RUNS);
    expect(page2.body.data.map((r: { title: string }) => r.title)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Run ${RUNS - 11 - i}`),
    );
    const first = page2.body.data[0];
    expect(first.createdDate).toBe(`2026-03-15T10:00:00.014Z`);
    expect(first.projectName).toBe('Kept reads');
    const last = await s.call('GET', '/api/v1/requests', { query: { page: 3, page_size: 10 } });
    expect(last.body.data).toHaveLength(RUNS - 20);
  });

  it('leaves out the runs of a project being imported, in the page and in its count, and counts them again after', async () => {
    const other = (await s.ok('POST', '/api/app/projects', { name: 'Elsewhere' })).id;
    await insert('requests', [
      {
        id: randomUUID(),
        createdDate: '2026-05-01 00:00:00.000',
        modifiedDate: '2026-05-01 00:00:00.000',
        kind: 'OnDemandReport',
        title: 'Elsewhere run',
        projectId: other,
        status: 'completed',
        files: '[]',
        outputFormats: '[]',
      },
    ]);
    const all = await s.call('GET', '/api/v1/requests', { query: { page_size: 100 } });
    expect(all.body.totalItems, JSON.stringify(all.body).slice(0, 300)).toBe(RUNS + 1);
    await db.query('UPDATE projects SET importing = 1 WHERE id = ?', [projectId]);
    try {
      const hidden = await s.call('GET', '/api/v1/requests', { query: { page_size: 100 } });
      expect(hidden.body.totalItems).toBe(1);
      expect(hidden.body.data.map((r: { title: string }) => r.title)).toEqual(['Elsewhere run']);
    } finally {
      await db.query('UPDATE projects SET importing = 0 WHERE id = ?', [projectId]);
    }
    const again = await s.call('GET', '/api/v1/requests', { query: { page_size: 100 } });
    expect(again.body.totalItems).toBe(RUNS + 1);
  });

  it('counts with the filters as well as the hidden projects', async () => {
    const failed = await s.call('GET', '/api/v1/requests', { query: { status: 'failed', page_size: 100 } });
    expect(failed.status).toBe(200);
    const expected = Array.from({ length: RUNS }, (_, i) => i).filter((i) => i % 3 === 0).length;
    expect(failed.body.totalItems).toBe(expected);
    expect(failed.body.data).toHaveLength(expected);
    expect(failed.body.data.every((r: { status: string }) => r.status === 'failed')).toBe(true);
  });
});

describe('kept statements', () => {
  it('keep at most their bound, answer each text with its own rows, and close with the engine', async () => {
    const kept = keptStatementsOf(db)!;
    for (let i = 0; i < 260; i++)
      expect(await kept.allKept(`SELECT ${i} AS n, ? AS v`, [`v${i}`])).toEqual([{ n: i, v: `v${i}` }]);
    // The first ones were finalized to keep the bound; asked again, they are prepared anew.
    expect(await kept.allKept('SELECT 0 AS n, ? AS v', ['again'])).toEqual([{ n: 0, v: 'again' }]);
  });

  it('answers many runs of one statement at once, each with its own values', async () => {
    const kept = keptStatementsOf(db)!;
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => kept.allKept('SELECT ? AS v', [i])));
    expect(answers.map((rows) => rows[0].v)).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it('reject a statement SQLite cannot prepare with its message, and go on answering the others', async () => {
    const kept = keptStatementsOf(db)!;
    await expect(kept.allKept('SELECT * FROM no_such_table', [])).rejects.toThrow(/no such table/);
    await expect(kept.allKept('SELECT * FROM no_such_table', [])).rejects.toThrow(/no such table/);
    expect(await kept.allKept('SELECT 1 AS one', [])).toEqual([{ one: 1 }]);
  });
});

describe('reads remembered until the database changes', () => {
  it('answer from memory while nothing is written, and read again after any write', async () => {
    const remembered = new RememberedReads<string>();
    let reads = 0;
    const name = () =>
      remembered.get(db, projectId, async () => {
        reads++;
        const [row] = (await db.query('SELECT name FROM projects WHERE id = ?', [projectId])) as { name: string }[];
        return row.name;
      });
    expect(await name()).toBe('Kept reads');
    expect(await name()).toBe('Kept reads');
    expect(reads).toBe(1);
    // A rename through the API is a write: the next read sees the new name.
    await s.ok('PUT', `/api/v2/projects/${projectId}`, { name: 'Kept reads, renamed' });
    expect(await name()).toBe('Kept reads, renamed');
    expect(reads).toBe(2);
    await s.ok('PUT', `/api/v2/projects/${projectId}`, { name: 'Kept reads' });
  });

  it('are read again when another connection has committed since', async () => {
    const remembered = new RememberedReads<number>();
    const count = () =>
      remembered.get(db, 'count', async () =>
        Number(((await db.query('SELECT COUNT(*) AS n FROM groups')) as { n: number }[])[0].n),
      );
    const before = await count();
    // Another connection to the same file (another process would be the same to SQLite) adds a group.
    const other = new sqlite3.Database(join(s.dataDir, DB_FILE));
    await new Promise<void>((resolve, reject) =>
      other.run(
        `INSERT INTO groups (id, name, "createdDate", "modifiedDate") VALUES (?, 'Other', datetime('now'), datetime('now'))`,
        [randomUUID()],
        (e) => (e ? reject(e) : resolve()),
      ),
    );
    await new Promise<void>((resolve) => other.close(() => resolve()));
    // A signed-in call asks SQLite whether the file moved; the remembered count is then read again.
    await s.ok('GET', '/api/app/auth/me');
    expect(await count()).toBe(before + 1);
  });
});
