// A reload of many schedules (what a first start, an upgrade or changed rules do): read, computed
// and written a page at a time, every schedule's next fire time is the rule's, a pending slot is
// kept, inactive schedules are left alone, and the engine keeps answering while it computes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { fixtures } from '../support/samples.js';
import { TaskTrigger, type TaskTriggerRow } from '../../engine/model/tasks.entity.js';
import { nextFireTimes } from '../../engine/features/schedules/fire-times.js';
import { scheduleOf } from '../../engine/features/schedules/schedule-spec.js';
import { newBase } from '../../engine/core/entity-base.js';

let s: TestServer;
const clock = new Date('2026-03-20T09:17:00Z');
let taskId: string;
// More than two pages of the reload (500 a page), so pages follow one another and the last is short.
const COUNT = 1_234;
const ZONES = ['Europe/Paris', 'America/New_York', 'Asia/Tokyo', 'UTC', 'Australia/Sydney'];

beforeAll(async () => {
  s = await startTestServer({ now: () => clock, schedulerTimers: false });
  const { projectId } = await (await fixtures(s)).make.connected();
  taskId = (await s.ok('POST', '/api/v2/tasks', { name: 'Many schedules', projectID: projectId })).id;
});
afterAll(() => s.stop());

/** Schedules of varied rules, written straight to the table as an upgrade or an import would leave them. */
function schedules(count: number, isActive = true): TaskTriggerRow[] {
  return Array.from({ length: count }, (_, i) => ({
    ...newBase(clock),
    taskId,
    kind: 'Schedule' as const,
    name: `S${i}`,
    description: null,
    isActive,
    execution: null,
    priority: null,
    timeZone: ZONES[i % ZONES.length],
    schedule: {
      frequency: (['Daily', 'Weekly', 'Hourly', 'Monthly'] as const)[i % 4],
      day: 1 + (i % 28),
      month: null,
      atHour: i % 24,
      atMinut: (i * 7) % 60,
      everyHours: 1 + (i % 5),
      fromHour: i % 8,
      fromMinut: i % 60,
      toHour: 8 + (i % 16),
      toMinut: 0,
      weeklyDays: ['Monday', 'Tuesday, Friday', 'Sunday', 'Wednesday, Saturday'][i % 4],
    },
    appId: null,
    analyticsEvent: null,
    startDate: new Date('2026-01-01T00:00:00Z'),
    endDate: new Date('2027-01-01T00:00:00Z'),
    lastFireTime: null,
    lastScheduledFor: null,
    nextFireTime: null,
  }));
}

const insert = (rows: TaskTriggerRow[]) =>
  s.engine.services.write(() =>
    s.engine.services.db.transaction(async (m) => {
      for (let i = 0; i < rows.length; i += 200) await m.getRepository(TaskTrigger).insert(rows.slice(i, i + 200));
    }),
  );
const stored = async () =>
  new Map((await s.engine.services.db.getRepository(TaskTrigger).findBy({ taskId })).map((t) => [t.name, t]));

describe('a reload of many schedules', () => {
  it("gives every active schedule its rule's next fire time, keeps a pending slot and leaves inactive ones alone", async () => {
    const active = schedules(COUNT);
    const inactive = schedules(3, false).map((r, i) => ({ ...r, name: `Off${i}` }));
    // A slot that came due and has not run yet: a reload must not move it on (it runs as a catch-up).
    const pendingAt = nextFireTimes(scheduleOf(active[7])!, new Date('2026-02-01T00:00:00Z'), 1)[0];
    expect(pendingAt < clock).toBe(true);
    active[7] = { ...active[7], nextFireTime: pendingAt, lastScheduledFor: new Date('2026-01-15T00:00:00Z') };
    await insert([...active, ...inactive]);

    expect(await s.engine.scheduler.reload()).toBeGreaterThanOrEqual(COUNT);

    const byName = await stored();
    for (const [i, row] of active.entries()) {
      const got = byName.get(row.name)!.nextFireTime?.toISOString();
      const want = i === 7 ? pendingAt : nextFireTimes(scheduleOf(row)!, clock, 1)[0];
      expect(got, `${row.name} (${row.timeZone}, ${row.schedule!.frequency})`).toBe(want.toISOString());
    }
    for (const row of inactive) expect(byName.get(row.name)!.nextFireTime).toBeNull();
  });

  it('computes only the schedules that have no next fire time when asked for those alone', async () => {
    const before = await stored();
    const marker = new Date('2031-01-01T00:00:00Z');
    // Every stored time is set to a marker but one's, cleared: only that one may be computed.
    const triggers = s.engine.services.db.getRepository(TaskTrigger);
    await s.engine.services.write(() => triggers.update({ taskId, isActive: true }, { nextFireTime: marker }));
    const cleared = before.get('S600')!;
    await s.engine.services.write(() => triggers.update({ id: cleared.id }, { nextFireTime: null }));

    await s.engine.scheduler.reload(true);

    const after = await stored();
    expect(after.get('S600')!.nextFireTime?.toISOString()).toBe(before.get('S600')!.nextFireTime?.toISOString());
    const others = [...after.values()].filter((t) => t.isActive && t.name !== 'S600');
    expect(others.length).toBe(COUNT - 1);
    expect(others.every((t) => t.nextFireTime?.getTime() === marker.getTime())).toBe(true);
  });

  it('lets the event loop turn every 100 schedules at most, so the engine answers during a reload', async () => {
    await s.engine.services.write(() =>
      s.engine.services.db.getRepository(TaskTrigger).update({ taskId }, { nextFireTime: null }),
    );
    // Schedules computed between two turns of the event loop, counted through the task source's rule.
    const source = (s.engine.scheduler as unknown as { sources: { spec: (row: never) => unknown }[] }).sources[0];
    const spec = source.spec;
    let sinceTurn = 0;
    let mostBetweenTurns = 0;
    source.spec = (row) => {
      mostBetweenTurns = Math.max(mostBetweenTurns, ++sinceTurn);
      return spec(row);
    };
    let reloading = true;
    const turn = () => {
      sinceTurn = 0;
      if (reloading) setImmediate(turn);
    };
    setImmediate(turn);
    try {
      await s.engine.scheduler.reload();
    } finally {
      source.spec = spec;
      reloading = false;
    }
    // A page is 500 schedules: computed in one go, the engine would not answer for all of them.
    expect(mostBetweenTurns).toBeGreaterThan(0);
    expect(mostBetweenTurns).toBeLessThanOrEqual(100);
  });
});
