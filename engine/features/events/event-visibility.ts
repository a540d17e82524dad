import type { OpContext } from '../../ops/context.js';
import type { EngineEvent } from '../../core/events.js';
import { withinOrganizations } from '../../core/organization-boundary.js';
import { AnalyticsApp } from '../../model/analytics-apps.entity.js';
import { reachableRequest } from '../requests/requests.rules.js';
import { reachableReport } from '../reports/reports.rules.js';
import { isTenantAdministrator } from '../../access/tenant-administrator.js';

// What a list refuses to show, the event stream does not show either: each event reaches a
// subscriber only when the operation that lists its object would show it to them.

/** The operation a subscriber's checks run as: reads of runs, reports and apps. */
export const EVENT_STREAM_OPERATION = {
  id: 'app.events',
  method: 'GET',
  member: { task: 'view', report: 'view' },
} as const;

const found = (p: Promise<unknown>) =>
  p.then(
    () => true,
    () => false,
  );

async function appVisible(ctx: OpContext, where: string, app: string): Promise<boolean> {
  const qb = ctx.db.getRepository(AnalyticsApp).createQueryBuilder('a').where(where, { app });
  return (await withinOrganizations(ctx, qb, AnalyticsApp, 'a').getCount()) > 0;
}

/** Whether the caller of `ctx` may see the object an event is about (a 404 or 403 means no). */
export async function mayReceive(ctx: OpContext, event: EngineEvent): Promise<boolean> {
  const p = ctx.principal;
  if (!p) return false;
  const may = (permission: keyof typeof p.permissions) => isTenantAdministrator(p) || p.permissions[permission];
  switch (event.type) {
    case 'request.changed':
      // Run history (viewTaskStatus) or one's on-demand requests (viewProject), as the lists are.
      return (may('viewTaskStatus') || may('viewProject')) && found(reachableRequest(ctx, event.payload.id));
    // A run's mail as the outbox lists it: with its run; mail of no run to tenant administrators only.
    case 'mail.changed':
      if (!event.payload.requestId) return isTenantAdministrator(p);
      return may('viewTaskStatus') && found(reachableRequest(ctx, event.payload.requestId));
    // A delivery kept after its run, as the deliveries' list shows it: with its run.
    case 'delivery.changed':
      return may('viewTaskStatus') && found(reachableRequest(ctx, event.payload.requestId));
    // As the backups' page shows them: to tenant administrators.
    case 'backup.progress':
      return isTenantAdministrator(p);
    case 'report.progress':
    case 'template.synced':
      return may('viewProject') && found(reachableReport(ctx, event.payload.reportId));
    // As the apps' list shows them (viewProject, within the caller's organizations): an import's
    // progress names the app's record; a reload names the app's data (its appId).
    case 'analytics.import.progress':
    case 'analytics.reload.changed':
      return may('viewProject') && appVisible(ctx, 'a.id = :app', event.payload.appId);
    case 'analytics.reloaded':
      return may('viewProject') && appVisible(ctx, 'a."appId" = :app', event.payload.appId);
  }
}
