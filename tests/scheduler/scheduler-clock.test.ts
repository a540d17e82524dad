// The scheduler with an injected clock: each frequency fires at the right local times, across DST
// in Europe/Paris and America/New_York; a missed stretch runs once as a catch-up; the end date holds;
// a changed or disabled schedule takes effect at once; no slot ever runs twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { fixtures } from '../support/samples.js';
import { covers } from '../support/covers.js';
import { TaskTrigger } from '../../engine/model/tasks.entity.js';
import { Request } from '../../engine/model/requests.entity.js';

let s: TestServer;
let clock = new Date('2026-01-01T00:00:00Z');
let projectId: string;

beforeAll(async () => {
  s = await startTestServer({ now: () => clock, schedulerTimers: false });
  projectId = (await (await fixtures(s)).make.connected()).projectId;
});
afterAll(() => s.stop());

const local = (iso: string, timeZone: string) => new Date(iso).toLocaleString('sv-SE', { timeZone }).slice(0, 16);

async function scheduled(body: Record<string, unknown>, from: string) {
  clock = new Date(from);
  const task = await s.ok('POST', '/api/v2/tasks', { name: `Task ${Math.random()}`, projectID: projectId });
  const trigger = await s.ok('POST', `/api/v1/tasks/${task.id}/triggers/schedules`, {
    name: 'Schedule',
    startDate: from,
    endDate: '2030-01-01T00:00:00Z',
    ...body,
  });
  return { taskId: task.id as string, triggerId: trigger.id as string };
}

// Read from the database, not over HTTP: the clock runs years ahead, past the owner key's expiry.
const trigger = async (t: { taskId: string; triggerId: string }) => {
  const row = await s.engine.services.db.getRepository(TaskTrigger).findOneByOrFail({ id: t.triggerId });
  return { nextFireTime: row.nextFireTime?.toISOString() ?? null };
};
const slots = async (taskId: string) =>
  (await s.engine.services.db.getRepository(Request).find({ where: { taskId }, order: { scheduledFor: 'ASC' } })).map(
    (r) => ({ scheduledFor: r.scheduledFor!.toISOString(), catchUp: r.catchUp, kind: r.kind }),
  );

/** Moves the clock to each next fire time in turn (plus a little), ticking there: what a live scheduler does. */
async function follow(t: { taskId: string; triggerId: string }, count: number) {
  for (let i = 0; i < count; i++) {
    const next = (await trigger(t)).nextFireTime;
    if (!next) break;
    clock = new Date(Date.parse(next) + 20);
    await s.engine.scheduler.tick();
  }
  return slots(t.taskId);
}

describe(covers('the scheduler over time', 'v1.taskSchedules.create', 'v1.taskSchedules.update'), () => {
  const cases: [string, Record<string, unknown>, string, string[]][] = [
    [
      'Daily across the spring-forward gap in Paris (02:30 runs at 03:00 that day)',
      { frequency: 'Daily', atHour: 2, atMinut: 30, timeZone: 'Europe/Paris' },
      '2026-03-27T12:00:00Z',
      ['2026-03-28 02:30', '2026-03-29 03:00', '2026-03-30 02:30'],
    ],
    [
      'Daily across the fall-back overlap in Paris (02:30 runs once)',
      { frequency: 'Daily', atHour: 2, atMinut: 30, timeZone: 'Europe/Paris' },
      '2026-10-24T12:00:00Z',
      ['2026-10-25 02:30', '2026-10-26 02:30', '2026-10-27 02:30'],
    ],
    [
      'Daily across the spring-forward gap in New York',
      { frequency: 'Daily', atHour: 2, atMinut: 15, timeZone: 'America/New_York' },
      '2026-03-07T12:00:00Z',
      ['2026-03-08 03:00', '2026-03-09 02:15'],
    ],
    [
      'Daily across the fall-back overlap in New York (01:30 runs once)',
      { frequency: 'Daily', atHour: 1, atMinut: 30, timeZone: 'America/New_York' },
      '2026-10-31T12:00:00Z',
      ['2026-11-01 01:30', '2026-11-02 01:30'],
    ],
    [
      'Hourly, every 2 hours from 08:00 to 12:00',
      {
        frequency: 'Hourly',
        everyHours: 2,
        fromHour: 8,
        fromMinut: 0,
        toHour: 12,
        toMinut: 0,
        timeZone: 'Europe/Paris',
      },
      '2026-05-04T00:00:00Z',
      ['2026-05-04 08:00', '2026-05-04 10:00', '2026-05-04 12:00', '2026-05-05 08:00'],
    ],
    [
      'Weekly on Monday and Thursday',
      { frequency: 'Weekly', weeklyDays: 'Monday, Thursday', atHour: 7, atMinut: 0, timeZone: 'Europe/Paris' },
      '2026-05-01T00:00:00Z',
      ['2026-05-04 07:00', '2026-05-07 07:00', '2026-05-11 07:00'],
    ],
    [
      'Monthly on the 15th',
      { frequency: 'Monthly', day: 15, atHour: 9, atMinut: 0, timeZone: 'America/New_York' },
      '2026-01-20T00:00:00Z',
      ['2026-02-15 09:00', '2026-03-15 09:00', '2026-04-15 09:00'],
    ],
    [
      'Yearly on March 1st',
      { frequency: 'Yearly', month: 3, day: 1, atHour: 6, atMinut: 0, timeZone: 'Europe/Paris' },
      '2026-06-01T00:00:00Z',
      ['2027-03-01 06:00', '2028-03-01 06:00'],
    ],
  ];
  for (const [name, body, from, expected] of cases) {
    it(name, async () => {
      const t = await scheduled(body, from);
      const runs = await follow(t, expected.length);
      expect(runs.map((r) => local(r.scheduledFor, body.timeZone as string))).toEqual(expected);
      expect(runs.every((r) => !r.catchUp && r.kind === 'ScheduledTask')).toBe(true);
    });
  }

  it('runs a Once schedule once, then has nothing next', async () => {
    const t = await scheduled({ frequency: 'Once', timeZone: 'Europe/Paris' }, '2026-06-01T10:00:00Z');
    await s.ok('PUT', `/api/v1/tasks/${t.taskId}/triggers/schedules/${t.triggerId}`, {
      name: 'Once',
      frequency: 'Once',
      timeZone: 'Europe/Paris',
      startDate: '2026-06-02T10:00:00Z',
      endDate: '2030-01-01T00:00:00Z',
    });
    const runs = await follow(t, 3);
    expect(runs.map((r) => r.scheduledFor)).toEqual(['2026-06-02T10:00:00.000Z']);
    expect((await trigger(t)).nextFireTime).toBeNull();
  });

  it('runs a stretch missed while closed or asleep once, flagged as a catch-up, and never twice', async () => {
    const t = await scheduled(
      { frequency: 'Daily', atHour: 7, atMinut: 0, timeZone: 'Europe/Paris' },
      '2026-07-01T00:00:00Z',
    );
    clock = new Date('2026-07-05T12:00:00Z');
    await s.engine.scheduler.tick();
    await s.engine.scheduler.tick();
    const runs = await slots(t.taskId);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ scheduledFor: '2026-07-05T05:00:00.000Z', catchUp: true });
    expect((await trigger(t)).nextFireTime).toBe('2026-07-06T05:00:00.000Z');
  });

  it('respects the end date', async () => {
    const t = await scheduled(
      { frequency: 'Daily', atHour: 7, atMinut: 0, timeZone: 'Europe/Paris' },
      '2026-08-01T00:00:00Z',
    );
    await s.ok('PUT', `/api/v1/tasks/${t.taskId}/triggers/schedules/${t.triggerId}`, {
      name: 'Short',
      frequency: 'Daily',
      atHour: 7,
      atMinut: 0,
      timeZone: 'Europe/Paris',
      startDate: '2026-08-01T00:00:00Z',
      endDate: '2026-08-03T12:00:00Z',
    });
    const runs = await follow(t, 10);
    expect(runs.map((r) => local(r.scheduledFor, 'Europe/Paris'))).toEqual([
      '2026-08-01 07:00',
      '2026-08-02 07:00',
      '2026-08-03 07:00',
    ]);
    expect((await trigger(t)).nextFireTime).toBeNull();
  });

  it('takes a change or a disable into account at once', async () => {
    const t = await scheduled(
      { frequency: 'Daily', atHour: 7, atMinut: 0, timeZone: 'Europe/Paris' },
      '2026-09-01T00:00:00Z',
    );
    expect((await trigger(t)).nextFireTime).toBe('2026-09-01T05:00:00.000Z');
    await s.ok('PUT', `/api/v1/tasks/${t.taskId}/triggers/schedules/${t.triggerId}`, {
      name: 'Later',
      frequency: 'Daily',
      atHour: 9,
      atMinut: 15,
      timeZone: 'Europe/Paris',
      startDate: '2026-08-01T00:00:00Z',
      endDate: '2030-01-01T00:00:00Z',
    });
    expect((await trigger(t)).nextFireTime).toBe('2026-09-01T07:15:00.000Z');
    await s.ok('PUT', `/api/v1/tasks/${t.taskId}/triggers/schedules/${t.triggerId}`, {
      name: 'Off',
      isActive: false,
      frequency: 'Daily',
      atHour: 9,
      atMinut: 15,
      timeZone: 'Europe/Paris',
      startDate: '2026-08-01T00:00:00Z',
      endDate: '2030-01-01T00:00:00Z',
    });
    expect((await trigger(t)).nextFireTime).toBeNull();
    clock = new Date('2026-09-03T00:00:00Z');
    await s.engine.scheduler.tick();
    expect(await slots(t.taskId)).toHaveLength(0);
  });

  it("lets a disabled task's slots pass without running them later", async () => {
    const t = await scheduled(
      { frequency: 'Daily', atHour: 7, atMinut: 0, timeZone: 'Europe/Paris' },
      '2026-10-01T00:00:00Z',
    );
    await s.ok('PUT', '/api/v1/tasks/enable', [{ id: t.taskId, isActive: false }]);
    clock = new Date('2026-10-03T12:00:00Z');
    await s.engine.scheduler.tick();
    await s.ok('PUT', '/api/v1/tasks/enable', [{ id: t.taskId, isActive: true }]);
    await s.engine.scheduler.tick();
    expect(await slots(t.taskId)).toHaveLength(0);
    expect((await trigger(t)).nextFireTime).toBe('2026-10-04T05:00:00.000Z');
  });
});
