import type { DataSource } from 'typeorm';
import { In } from 'typeorm';
import { AnalyticsApp } from '../../model/analytics-apps.entity.js';
import { AppReload } from '../../model/data-connections.entity.js';
import { newReload } from './reload.js';

export const INTERRUPTED_IMPORT =
  'An import was cut off by a stop; the data before it was kept. Import the file again.';

/**
 * At start, for the apps whose half-written data was just removed: the cut-off import is recorded
 * where a person looks for an app's loads (its reload history, in Monitoring and on its Data tab),
 * failed and saying why, instead of vanishing. A reload cut off the same way already has its record
 * (still running, taken over and said failed by the reloads' queue): it gets no second one.
 */
export async function recordInterruptedImports(db: DataSource, dataAppIds: string[], now: Date): Promise<number> {
  if (!dataAppIds.length) return 0;
  const apps = await db.getRepository(AnalyticsApp).findBy({ appId: In(dataAppIds) });
  let recorded = 0;
  for (const app of apps) {
    if (await db.getRepository(AppReload).existsBy({ appId: app.id, status: 'running' })) continue;
    await db.getRepository(AppReload).insert({
      ...newReload(app.id, 'manual', null, now),
      status: 'failed',
      endedAt: now,
      message: INTERRUPTED_IMPORT,
    });
    recorded += 1;
  }
  return recorded;
}
