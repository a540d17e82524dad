// A 10-row page of reports for a user whose member permissions open 1,000 of a project's 10,000
// reports (permissions mode on), beside the same page for an administrator, who passes member checks:
// the same HTTP path, server, pages and sort, warmed; the pages are checked to hold only what the
// user may view.
import { figure } from './verdicts.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createEngine } from '../../engine/engine.js';
import { startHttpServer } from '../../engine/http/server.js';
import { newBase } from '../../engine/core/entity-base.js';
import { Report, type ReportRow } from '../../engine/model/reports.entity.js';
import {
  MemberPermission,
  PERMISSION_FLAGS,
  type MemberPermissionRow,
  type PermissionSet,
} from '../../engine/model/members.entity.js';
import { pct } from './stats.js';

const set = (on: string[]) => Object.fromEntries(PERMISSION_FLAGS.map((f) => [f, on.includes(f)])) as PermissionSet;

export async function membersBench(reports = 10_000, granted = 1_000) {
  const dataDir = await mkdtemp(join(tmpdir(), 'bs-bench-members-'));
  const key = randomBytes(32);
  const engine = await createEngine({
    dataDir,
    secretKeys: { load: async () => key, save: async () => {} },
    demo: false,
  });
  const ownerKey = await engine.issueOwnerKey();
  const server = await startHttpServer(engine, { port: 0 });
  const api = async (method: string, path: string, token: string, body?: unknown) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as { data: any; totalItems?: number };
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const org = (await api('GET', '/api/v1/organizations', ownerKey)).data[0].id;
  const project = (
    await api('POST', '/api/app/projects', ownerKey, { name: 'Ten thousand reports', organizationId: org })
  ).data;
  const role = (
    await api('POST', '/api/v1/roles', ownerKey, {
      name: 'Designers',
      permissions: { viewProject: true },
      isActive: true,
      allProjects: true,
    })
  ).data;
  const user = (
    await api('POST', '/api/v1/users', ownerKey, {
      firstName: 'Mia',
      lastName: 'Member',
      email: 'mia@bench.example',
      password: 'correct horse battery',
      isActive: true,
      roles: [{ id: role.id }],
      organizations: [{ id: org }],
    })
  ).data;
  const login = (
    await api('POST', '/api/app/auth/login', '', { email: 'mia@bench.example', password: 'correct horse battery' })
  ).data.token as string;
  // The administrator signs in the same way (a session, not the owner's API key), so only the member checks differ.
  const adminUser = (
    await api('POST', '/api/v1/users', ownerKey, {
      firstName: 'Ada',
      lastName: 'Admin',
      email: 'ada@bench.example',
      password: 'correct horse battery',
      isActive: true,
      roles: [{ id: role.id }],
      organizations: [{ id: org }],
    })
  ).data;
  await engine.services.db.query('UPDATE users SET isTenantAdmin = 1 WHERE id = ?', [adminUser.id]);
  const adminLogin = (
    await api('POST', '/api/app/auth/login', '', { email: 'ada@bench.example', password: 'correct horse battery' })
  ).data.token as string;

  const db = engine.services.db;
  const rows: ReportRow[] = Array.from({ length: reports }, (_, i) => ({
    ...newBase(new Date()),
    projectId: project.id,
    connectionId: null,
    name: `Report ${String(i).padStart(5, '0')}`,
    description: null,
    type: 'Html',
    isIteration: false,
    iterationFields: [],
    dynamicNameSeparator: null,
    dynamicNames: [],
    document: { blocks: [] },
    filterIds: [],
    templateFile: null,
    createdBy: null,
    modifiedBy: null,
  }));
  for (let i = 0; i < rows.length; i += 500) await db.getRepository(Report).insert(rows.slice(i, i + 500));
  // Every tenth report is opened to the user; the project itself only shows to them.
  const allowed = new Set(rows.filter((_, i) => i % (reports / granted) === 0).map((r) => r.id));
  const grants: MemberPermissionRow[] = [...allowed].map((id) => ({
    ...newBase(new Date()),
    objectType: 'report',
    objectId: id,
    projectId: project.id,
    memberId: user.id,
    memberType: 'user',
    permissions: set(['viewReport']),
  }));
  for (let i = 0; i < grants.length; i += 500)
    await db.getRepository(MemberPermission).insert(grants.slice(i, i + 500));
  await api('PUT', `/api/v2/projects/${project.id}/permissions`, ownerKey, {
    members: [{ id: user.id, type: 'user' }],
    permissions: set(['viewProject']),
  });
  await db.query('UPDATE projects SET permissionsMode = 1 WHERE id = ?', [project.id]);

  const page = (token: string, n: number) => api('GET', `/api/v1/reports?page=${n}&page_size=10&sort_by=Name`, token);
  for (let i = 1; i <= 30; i++) {
    await page(login, i);
    await page(adminLogin, i);
  }
  const member: number[] = [];
  const admin: number[] = [];
  let checked = 0;
  for (let i = 0; i < 300; i++) {
    const n = 1 + ((i * 37) % (granted / 10));
    let t = performance.now();
    const mine = await page(login, n);
    member.push(performance.now() - t);
    t = performance.now();
    const all = await page(adminLogin, n);
    admin.push(performance.now() - t);
    if (mine.data.length !== 10 || all.data.length !== 10) throw new Error('expected 10 rows a page');
    if (i % 50 === 0) {
      if (mine.totalItems !== granted || !mine.data.every((r: { id: string }) => allowed.has(r.id)))
        throw new Error('the member saw a report not opened to them');
      checked++;
    }
  }
  await server.close();
  await engine.close();
  await rm(dataDir, { recursive: true, force: true });
  const ratio = pct(member, 50) / pct(admin, 50);
  return [
    {
      reports,
      'opened to the member': granted,
      'member p50 ms': pct(member, 50).toFixed(2),
      'member p95 ms': pct(member, 95).toFixed(2),
      'administrator p50 ms': pct(admin, 50).toFixed(2),
      'ratio (aim < 2x)': `${figure({ id: 'members.page', measure: "a member's page of reports, to the administrator's", value: ratio, unit: '×', goal: { atMost: 2 } }).toFixed(2)}x`,
      checked: `${checked} pages: only opened reports, total ${granted}`,
    },
  ];
}
