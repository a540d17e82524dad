import type { OpContext } from '../../ops/context.js';
import { badInput, conflict } from '../../core/errors.js';
import { findOr404 } from '../../core/rows.js';
import { AnalyticsApp } from '../../model/analytics-apps.entity.js';
import { AppSource } from '../../model/data-connections.entity.js';
import { reloadDto } from './reload.js';

/** Reload now: checked here (an app without sources is told so at once), then run on the reload queue. */
export async function reloadNow(ctx: OpContext, appRowId: string) {
  const app = await findOr404(ctx, AnalyticsApp, appRowId, 'Analytics app');
  if (!(await ctx.db.getRepository(AppSource).existsBy({ appId: app.id })))
    throw badInput(`“${app.name}” has no sources yet: add a query on a data connection first`, [
      { field: 'sources', message: 'none set' },
    ]);
  const done = await ctx.reloads.reloadNow(app.id, ctx.principal?.user.id ?? null);
  if (!done) throw conflict(`A reload of “${app.name}” is queued or under way`);
  return reloadDto(done);
}
