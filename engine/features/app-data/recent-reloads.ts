import { lazySchema } from '../../core/lazy-schema.js';
import { z } from 'zod';
import type { OpContext } from '../../ops/context.js';
import { withinOrganizations } from '../../core/organization-boundary.js';
import { AnalyticsApp } from '../../model/analytics-apps.entity.js';
import { AppReload, RELOAD_STATUSES } from '../../model/data-connections.entity.js';
import { reloadDto } from './reload.js';

export const RecentReloadsQuery = lazySchema(() =>
  z.object({
    status: z.enum(RELOAD_STATUSES).optional(),
    page_size: z.coerce.number().int().min(1).max(200).default(50),
  }),
);

/**
 * The latest reloads of the apps the caller sees (within their organizations), newest first, each
 * with its app's name: the monitoring screen's view of reloads, failed ones with why.
 */
export async function recentReloads(ctx: OpContext, q: z.output<typeof RecentReloadsQuery>) {
  const apps = withinOrganizations(
    ctx,
    ctx.db.getRepository(AnalyticsApp).createQueryBuilder('a').select(['a.id', 'a.name']),
    AnalyticsApp,
    'a',
  );
  const seen = new Map((await apps.getMany()).map((a) => [a.id, a.name]));
  if (!seen.size) return [];
  const qb = ctx.db
    .getRepository(AppReload)
    .createQueryBuilder('r')
    .where('r."appId" IN (:...apps)', { apps: [...seen.keys()] })
    .orderBy('r."startedAt"', 'DESC')
    .take(q.page_size);
  if (q.status) qb.andWhere('r.status = :status', { status: q.status });
  return (await qb.getMany()).map((r) => ({ ...reloadDto(r), appId: r.appId, appName: seen.get(r.appId) ?? '' }));
}
