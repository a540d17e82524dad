// The list pages people wait on, each a 10-row page through the whole HTTP path (signed in with the
// owner's API key, sorted, with the page's related data), beside the floor: the same work done bare —
// a bare Fastify route on the same machine answering the same page, its count and the related rows
// the page shows, in bare SQL on the same database connection. (Until this session the floor was the
// SQL alone, so the ratio charged a list with the HTTP trip every call makes; that trip is measured
// on its own below, as the fixed cost of a signed-in call.) Warmed; p50 of 300.
import { figure } from './verdicts.js';
import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import type { Engine } from '../../engine/engine.js';
import { startHttpServer } from '../../engine/http/server.js';
import { INSTALLATION } from './installation.js';
import { pct } from './stats.js';

const f2 = (x: number) => x.toFixed(2);

interface ListCase {
  name: string;
  path: (page: number) => string;
  total: number;
  /** The same page and count in bare SQL. */
  bare: (page: number) => [string, unknown[]][];
  /** The related rows the page shows (a user's roles, a file's folder), in bare SQL over the page's rows. */
  related?: (rows: Record<string, unknown>[]) => [string, unknown[]];
  /** What a row of the right page must show: the sort key of its first row. */
  first: (row: Record<string, unknown>) => unknown;
  bareFirst: (row: Record<string, unknown>) => unknown;
}

const cases = (): ListCase[] => [
  {
    name: 'users (by full name, with roles, groups, organizations)',
    path: (p) => `/api/v1/users?page=${p}&page_size=10&sort_by=FullName`,
    total: INSTALLATION.users + 1,
    bare: (p) => [
      [
        "SELECT * FROM users u ORDER BY LOWER(u.firstName || ' ' || u.lastName), u.id LIMIT 10 OFFSET ?",
        [(p - 1) * 10],
      ],
      ['SELECT COUNT(*) n FROM users', []],
    ],
    related: (rows) => {
      const ids = rows.map((r) => r.id);
      const link = (table: string, target: string) =>
        `SELECT l.userId, t.id FROM ${table} l JOIN ${target} t ON t.id = l.targetId WHERE l.userId IN (${ids.map(() => '?').join(',')})`;
      return [
        `${link('user_roles', 'roles')} UNION ALL ${link('user_organizations', 'organizations')} UNION ALL ${link('user_groups', 'groups')}`,
        [...ids, ...ids, ...ids],
      ];
    },
    first: (r) => r.email,
    bareFirst: (r) => r.email,
  },
  {
    name: 'reports (by name)',
    path: (p) => `/api/v1/reports?page=${p}&page_size=10&sort_by=Name`,
    total: INSTALLATION.reports,
    bare: (p) => [
      ['SELECT * FROM reports r ORDER BY LOWER(r.name), r.id LIMIT 10 OFFSET ?', [(p - 1) * 10]],
      ['SELECT COUNT(*) n FROM reports', []],
    ],
    first: (r) => r.name,
    bareFirst: (r) => r.name,
  },
  {
    name: 'tasks (by name)',
    path: (p) => `/api/v1/tasks?page=${p}&page_size=10&sort_by=Name`,
    total: INSTALLATION.tasks,
    bare: (p) => [
      ['SELECT * FROM tasks t ORDER BY LOWER(t.name), t.id LIMIT 10 OFFSET ?', [(p - 1) * 10]],
      ['SELECT COUNT(*) n FROM tasks', []],
    ],
    first: (r) => r.name,
    bareFirst: (r) => r.name,
  },
  {
    name: 'requests (newest first)',
    path: (p) => `/api/v1/requests?page=${p}&page_size=10`,
    total: INSTALLATION.requests,
    bare: (p) => [
      ['SELECT * FROM requests r ORDER BY r.createdDate DESC, r.id DESC LIMIT 10 OFFSET ?', [(p - 1) * 10]],
      ['SELECT COUNT(*) n FROM requests', []],
    ],
    // Each run's project name and its mail by status, with a failure's reply.
    related: (rows) => {
      const marks = rows.map(() => '?').join(',');
      return [
        `SELECT id, name, NULL AS status, NULL AS n, NULL AS lastError FROM projects WHERE id IN (${marks})
         UNION ALL SELECT requestId, NULL, status, COUNT(*), MAX(lastError) FROM outbox WHERE requestId IN (${marks}) GROUP BY requestId, status`,
        [...rows.map((r) => r.projectId), ...rows.map((r) => r.id)],
      ];
    },
    first: (r) => r.id,
    bareFirst: (r) => r.id,
  },
  {
    name: 'hub files (by name, with stars and folders)',
    path: (p) => `/api/v1/files?page=${p}&page_size=10&sort_by=Name&sort_direction=asc`,
    total: INSTALLATION.hubFiles,
    bare: (p) => [
      ['SELECT * FROM hub_files f ORDER BY LOWER(f.name), f.id LIMIT 10 OFFSET ?', [(p - 1) * 10]],
      ['SELECT COUNT(*) n FROM hub_files', []],
    ],
    related: (rows) => [
      `SELECT id, location FROM hub_folders WHERE id IN (${rows.map(() => '?').join(',')})`,
      rows.map((r) => r.hubFolderId),
    ],
    first: (r) => r.id,
    bareFirst: (r) => r.id,
  },
];

async function getJson(url: string, headers: Record<string, string>) {
  const res = await fetch(url, { headers });
  const body = (await res.json()) as { data: Record<string, unknown>[]; totalItems?: number };
  if (!res.ok) throw new Error(`${url}: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
  return body;
}

/** The floor's server: a bare Fastify route answering a case's page, count and related rows from bare SQL. */
async function bareListServer(engine: Engine, listCases: ListCase[]) {
  const db = engine.services.db;
  const bare = Fastify();
  bare.get<{ Params: { c: string; page: string } }>('/list/:c/:page', async (req) => {
    const c = listCases[Number(req.params.c)];
    const page = Number(req.params.page);
    const answers: Record<string, unknown>[][] = [];
    for (const [sql, params] of c.bare(page)) answers.push(await db.query(sql, params));
    const related = c.related ? await db.query(...c.related(answers[0])) : [];
    return { isSuccess: true, data: answers[0], totalItems: answers[1][0].n, related };
  });
  await bare.listen({ port: 0, host: '127.0.0.1' });
  return { server: bare, url: `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}` };
}

export async function listsBench(engine: Engine, ownerKey: string) {
  const server = await startHttpServer(engine, { port: 0 });
  const headers = { authorization: `Bearer ${ownerKey}` };
  const listCases = cases();
  const bareList = await bareListServer(engine, listCases);
  const rows: Record<string, string>[] = [];
  for (const [index, c] of listCases.entries()) {
    const pages = Math.floor(c.total / 10);
    const bareUrl = (page: number) => `${bareList.url}/list/${index}/${page}`;
    for (let i = 0; i < 30; i++) {
      await getJson(`${server.url}${c.path(1 + i)}`, headers);
      await getJson(bareUrl(1 + i), {});
    }
    const api: number[] = [];
    const bare: number[] = [];
    let checked = 0;
    for (let i = 0; i < 300; i++) {
      const page = 1 + ((i * 37) % pages);
      const t = performance.now();
      const body = await getJson(`${server.url}${c.path(page)}`, headers);
      api.push(performance.now() - t);
      const b = performance.now();
      const floorBody = await getJson(bareUrl(page), {});
      bare.push(performance.now() - b);
      if (body.data.length !== 10) throw new Error(`${c.name}: page ${page} has ${body.data.length} rows`);
      // A sample of pages: the API's page starts where the bare query's does, and counts the same.
      if (i % 30 === 0) {
        if (c.first(body.data[0]) !== c.bareFirst(floorBody.data[0]) || body.totalItems !== floorBody.totalItems)
          throw new Error(
            `${c.name}: page ${page} differs from the bare query's: ${JSON.stringify(body.data[0]).slice(0, 300)} (${body.totalItems}) / ${JSON.stringify(floorBody.data[0]).slice(0, 300)} (${floorBody.totalItems})`,
          );
        checked++;
      }
    }
    const p50 = pct(api, 50);
    const floor = pct(bare, 50);
    rows.push({
      list: c.name,
      page: `p50 ${f2(p50)} ms  p95 ${f2(pct(api, 95))} ms`,
      floor: `p50 ${f2(floor)} ms (bare route: page + count${c.related ? ' + related rows' : ''} in bare SQL)`,
      ratio: `${figure({ id: `lists.${c.name.split(' ')[0]}`, measure: `a 10-row page of ${c.name}, to the bare route`, value: p50 / floor, unit: '×', goal: { atMost: 1.3 } }).toFixed(2)}x (goal 1.3x)`,
      checked: `${checked} pages start on the bare query's row, same total`,
    });
  }
  await bareList.server.close();

  // The fixed cost of a signed-in call: the smallest operation, beside a bare Fastify answer.
  const bareServer = Fastify();
  bareServer.get('/x', async () => ({ isSuccess: true, data: { id: 'x' } }));
  await bareServer.listen({ port: 0, host: '127.0.0.1' });
  const bareUrl = `http://127.0.0.1:${(bareServer.server.address() as AddressInfo).port}/x`;
  const me: number[] = [];
  const floor: number[] = [];
  for (let i = 0; i < 1200; i++) {
    const t = performance.now();
    const body = await getJson(`${server.url}/api/app/auth/me`, headers);
    if (i >= 200) me.push(performance.now() - t);
    if (!(body.data as unknown as { user?: unknown }).user) throw new Error('me answered no user');
    const b = performance.now();
    await (await fetch(bareUrl)).json();
    if (i >= 200) floor.push(performance.now() - b);
  }
  rows.push({
    list: 'one signed-in call (app.auth.me)',
    page: `p50 ${f2(pct(me, 50))} ms`,
    floor: `p50 ${f2(pct(floor, 50))} ms (bare Fastify route)`,
    ratio: `fixed cost ${f2(figure({ id: 'lists.signed-in-call', measure: 'a signed-in call (app.auth.me) over a bare route', value: pct(me, 50) - pct(floor, 50), unit: 'ms', goal: { atMost: 2 }, floor: pct(floor, 50) }))} ms over the bare route (goal 2 ms)`,
    checked: 'each answer names the user',
  });
  await bareServer.close();
  await server.close();
  return rows;
}
