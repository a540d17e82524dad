import { AppReload, AppReloadSchedule, type AppReloadScheduleRow } from '../../../model/data-connections.entity.js';
import { newReload } from '../../app-data/reload.js';
import { scheduleOf } from '../../schedules/schedule-spec.js';
import type { ScheduleSource } from './schedule-source.js';

/**
 * Apps' reload schedules as a source of the one scheduler: an active schedule fires a queued reload
 * per slot, keyed by (app, slot); the reload queue takes it. Slots missed while the machine was off
 * load once at start, as a task's do.
 */
export function reloadSchedules(queued: () => void): ScheduleSource<AppReloadScheduleRow> {
  return {
    name: 'App reloads',
    entity: AppReloadSchedule,
    active: { isActive: true },
    timing: ['timeZone', 'schedule', 'startDate', 'endDate', 'modifiedDate'],
    spec: scheduleOf,
    since: (r) => r.modifiedDate,
    async plan(due, at) {
      const work = due.flatMap(({ row, slot }) =>
        slot ? [{ entity: AppReload, values: newReload(row.appId, 'schedule', slot.scheduledFor, at) }] : [],
      );
      return { work, changes: new Map() };
    },
    queued,
  };
}
