import type { DataSource, EntitySchema, FindOptionsOrder, FindOptionsWhere } from 'typeorm';

/**
 * Waiting rows ready to claim, oldest first, at most one per value of `key` and none whose value has
 * a row running (here or on another server): a directory's syncs, an app's reloads, one at a time.
 */
export async function oldestOnePer<Row extends { status: string }, K extends keyof Row & string>(
  db: DataSource,
  entity: EntitySchema<Row>,
  o: { key: K; oldest: keyof Row & string; waiting: string; running: string; limit: number },
): Promise<Row[]> {
  const repo = db.getRepository(entity);
  const waiting = await repo.find({
    where: { status: o.waiting } as FindOptionsWhere<Row>,
    order: { [o.oldest]: 'ASC' } as FindOptionsOrder<Row>,
    take: 50,
  });
  if (!waiting.length) return [];
  const running = await repo.find({
    select: { [o.key]: true } as never,
    where: { status: o.running } as FindOptionsWhere<Row>,
  });
  const busy = new Set(running.map((r) => r[o.key]));
  const chosen: Row[] = [];
  for (const r of waiting)
    if (chosen.length < o.limit && !busy.has(r[o.key])) {
      busy.add(r[o.key]);
      chosen.push(r);
    }
  return chosen;
}
