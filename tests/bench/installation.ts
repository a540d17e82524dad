// A working installation for the start and list benches: the demo, 10,000 users (each with a role,
// a group and an organization), 2,000 reports and 2,000 tasks in a project, 10,000 schedules on
// those tasks, 10,000 finished requests, and 1,500 hub files (each with its file on disk). Rows go
// in with plain SQL, filled from the tables' own columns, so the seed does not depend on the
// code it measures.
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Engine } from '../../engine/engine.js';

export const INSTALLATION = {
  users: 10_000,
  reports: 2_000,
  tasks: 2_000,
  schedules: 10_000,
  requests: 10_000,
  hubFiles: 1_500,
};

type Row = Record<string, unknown>;
type Db = Engine['services']['db'];

/** Inserts rows into a table: given values, and for each other NOT NULL column without a default a value of its type. */
async function insertRows(db: Db, table: string, rows: Row[]) {
  const columns = (await db.query(`PRAGMA table_info(${table})`)) as {
    name: string;
    type: string;
    notnull: number;
    dflt_value: unknown;
  }[];
  const stamp = new Date().toISOString().replace('T', ' ').replace('Z', '');
  const filler = (type: string) =>
    /int|bool/i.test(type) ? 0 : /date|time/i.test(type) ? stamp : /json|text|char|clob/i.test(type) ? '' : 0;
  const names = columns.map((c) => c.name);
  const runner = db.createQueryRunner();
  await runner.startTransaction();
  try {
    for (let i = 0; i < rows.length; i += 200) {
      const values: unknown[] = [];
      // A column given no value takes its default, else a value of its type when it may not be null.
      const tuples = rows.slice(i, i + 200).map((r) => {
        const cells = columns.map((c) => {
          if (c.name in r || c.name === 'createdDate' || c.name === 'modifiedDate')
            values.push(c.name in r ? r[c.name] : stamp);
          else if (c.dflt_value !== null) return `(${String(c.dflt_value)})`;
          else if (c.notnull) values.push(filler(c.type));
          else return 'NULL';
          return '?';
        });
        return `(${cells.join(', ')})`;
      });
      await runner.query(
        `INSERT INTO ${table} (${names.map((n) => `"${n}"`).join(', ')}) VALUES ${tuples.join(', ')}`,
        values,
      );
    }
    await runner.commitTransaction();
  } finally {
    await runner.release();
  }
}

/** Fills an engine's folder with a working installation; returns the ids a bench needs. */
export async function seedInstallation(engine: Engine) {
  const db = engine.services.db;
  await engine.demoReady;
  const [{ id: orgId }] = await db.query('SELECT id FROM organizations LIMIT 1');
  const [{ id: groupId }] = await db.query('SELECT id FROM groups LIMIT 1');
  const [{ id: roleId }] = await db.query("SELECT id FROM roles WHERE name = 'Hub users'");
  const [{ id: projectId }] = await db.query("SELECT id FROM projects WHERE name = 'Sales reporting (demo)'");
  const [{ id: ownerId }] = await db.query('SELECT id FROM users WHERE isTenantOwner = 1');

  const users = Array.from({ length: INSTALLATION.users }, (_, i) => ({
    id: randomUUID(),
    kind: i % 5 ? 'user' : 'recipient',
    firstName: `First${i % 97}`,
    lastName: `Last${i}`,
    email: `user${i}@bench.example`,
    isActive: i % 7 ? 1 : 0,
  }));
  await insertRows(db, 'users', users);
  for (const [table, targetId] of [
    ['user_organizations', orgId],
    ['user_groups', groupId],
    ['user_roles', roleId],
  ])
    await insertRows(
      db,
      table,
      users.map((u) => ({ userId: u.id, targetId })),
    );

  const reports = Array.from({ length: INSTALLATION.reports }, (_, i) => ({
    id: randomUUID(),
    projectId,
    name: `Report ${String(i).padStart(5, '0')}`,
    type: 'Pdf',
    iterationFields: '[]',
    dynamicNames: '[]',
    document: '{"blocks":[]}',
    filterIds: '[]',
  }));
  await insertRows(db, 'reports', reports);
  const tasks = Array.from({ length: INSTALLATION.tasks }, (_, i) => ({
    id: randomUUID(),
    projectId,
    name: `Task ${String(i).padStart(5, '0')}`,
    isActive: 1,
  }));
  await insertRows(db, 'tasks', tasks);
  const taskReports = tasks.map((t, i) => ({
    id: randomUUID(),
    taskId: t.id,
    reportId: reports[i % reports.length].id,
    format: 'Pdf',
    options: JSON.stringify({ conditionIds: [], filterIds: [], storageServices: [], maxFileOccurrences: 3 }),
  }));
  await insertRows(db, 'task_reports', taskReports);
  const now = new Date();
  const sqlDate = (d: Date) => d.toISOString().replace('T', ' ').replace('Z', '');
  await insertRows(
    db,
    'task_triggers',
    Array.from({ length: INSTALLATION.schedules }, (_, i) => ({
      id: randomUUID(),
      taskId: tasks[i % tasks.length].id,
      kind: 'Schedule',
      name: `S${i}`,
      isActive: 1,
      timeZone: ['Europe/Paris', 'America/New_York', 'Asia/Tokyo', 'UTC'][i % 4],
      schedule: JSON.stringify({ frequency: 'Daily', atHour: 6 + (i % 12), atMinut: (i * 7) % 60 }),
      startDate: sqlDate(now),
      endDate: sqlDate(new Date(now.getTime() + 365 * 86400_000)),
    })),
  );
  await insertRows(
    db,
    'requests',
    Array.from({ length: INSTALLATION.requests }, (_, i) => ({
      id: randomUUID(),
      kind: 'task',
      title: `Task ${String(i % tasks.length).padStart(5, '0')}`,
      projectId,
      taskId: tasks[i % tasks.length].id,
      status: i % 10 ? 'completed' : 'failed',
      execution: 'Parallel',
      outputFormats: 'Pdf',
      files: '[]',
      createdBy: ownerId,
      createdDate: sqlDate(new Date(now.getTime() - i * 60_000)),
      startedDate: sqlDate(new Date(now.getTime() - i * 60_000)),
      endedDate: sqlDate(new Date(now.getTime() - i * 60_000 + 5_000)),
    })),
  );
  const [{ id: folderId }] = await db.query("SELECT id FROM hub_folders WHERE location = '/'");
  const pdf = Buffer.from('%PDF-1.4\n% bench file\n%%EOF\n');
  const files = Array.from({ length: INSTALLATION.hubFiles }, (_, i) => {
    const tr = taskReports[i % taskReports.length];
    return {
      id: randomUUID(),
      occurrence: randomUUID(),
      taskId: tr.taskId,
      taskReportId: tr.id,
      reportId: tr.reportId,
      reportName: 'Report',
      hubFolderId: folderId,
      kind: 'iteration',
      iterationKey: `Customer ${i}`,
      name: `Statement ${String(i).padStart(5, '0')}`,
      extension: 'pdf',
      typeMime: 'application/pdf',
      size: pdf.length,
    };
  });
  await insertRows(
    db,
    'hub_files',
    files.map(({ occurrence, ...f }) => ({ ...f, latestOccurrenceId: occurrence })),
  );
  await insertRows(
    db,
    'hub_file_occurrences',
    files.map((f) => ({
      id: f.occurrence,
      fileId: f.id,
      name: f.name,
      extension: 'pdf',
      typeMime: f.typeMime,
      size: f.size,
    })),
  );
  for (const f of files) {
    const dir = join(engine.services.dataDir, 'files', 'hub', f.id);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, `${f.occurrence}.pdf`), pdf);
  }
  // The schedules' next fire times, as saving them through the API would have stored.
  await engine.scheduler.reload();
  return { projectId, ownerId };
}
