import { z } from 'zod';
import type { OpContext } from '../../ops/context.js';
import { iso, newBase } from '../../core/entity-base.js';
import { findOr404 } from '../../core/rows.js';
import { v } from '../../core/validation.js';
import { AnalyticsApp } from '../../model/analytics-apps.entity.js';
import { AppReloadSchedule, type AppReloadScheduleRow } from '../../model/data-connections.entity.js';
import { describeSchedule, nextFireTimes } from '../schedules/fire-times.js';
import { endAfterStart, scheduleFields } from '../schedules/schedule-fields.js';
import { nextFireAfterChange, scheduleOf, storedSchedule } from '../schedules/schedule-spec.js';

// When an app reloads by itself: the forms of a task's schedule (Once, Hourly, Daily, Weekly,
// Monthly, Yearly, in a time zone, between a start and an end), fired by the one scheduler with the
// tasks' DST rule. One schedule per app; turned off, it stays as it was, to turn on again.

const { execution: _execution, ...forms } = scheduleFields;
export const ReloadScheduleInput = z.object({ isActive: v.obool(), ...forms }).superRefine(endAfterStart);

export function reloadScheduleDto(row: AppReloadScheduleRow | null, now: Date) {
  if (!row) return null;
  const spec = scheduleOf(row);
  return {
    isActive: row.isActive,
    timeZone: row.timeZone,
    ...row.schedule,
    startDate: iso(row.startDate)!,
    endDate: iso(row.endDate),
    nextFireTime: iso(row.nextFireTime),
    summary: spec ? describeSchedule(spec) : null,
    nextRuns: spec && row.isActive ? nextFireTimes(spec, now, 5).map((d) => d.toISOString()) : [],
  };
}

export const reloadScheduleOf = (ctx: Pick<OpContext, 'db'>, appId: string) =>
  ctx.db.getRepository(AppReloadSchedule).findOneBy({ appId });

/** Sets an app's reload schedule; its next fire time counts from now (or its last slot), so a change takes effect at once. */
export async function setReloadSchedule(ctx: OpContext, appRowId: string, f: z.output<typeof ReloadScheduleInput>) {
  const app = await findOr404(ctx, AnalyticsApp, appRowId, 'Analytics app');
  const now = ctx.now();
  const current = await reloadScheduleOf(ctx, app.id);
  const row: AppReloadScheduleRow = {
    ...(current ?? { ...newBase(now), lastScheduledFor: null }),
    appId: app.id,
    isActive: f.isActive ?? current?.isActive ?? true,
    timeZone: f.timeZone,
    schedule: storedSchedule(f, 'body'),
    startDate: new Date(f.startDate),
    endDate: f.endDate ? new Date(f.endDate) : null,
    nextFireTime: null,
    modifiedDate: now,
  };
  row.nextFireTime = nextFireAfterChange(row, now);
  await ctx.write(() => ctx.db.getRepository(AppReloadSchedule).save(row));
  ctx.scheduler.wake();
  return reloadScheduleDto(row, now);
}
