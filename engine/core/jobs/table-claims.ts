import {
  In,
  IsNull,
  LessThan,
  type DataSource,
  type EntityManager,
  type EntitySchema,
  type FindOptionsWhere,
} from 'typeorm';
import type { ClaimColumns, ClaimStore, RowPatch } from './claims.js';
import { JobKernel, type JobWorker } from './job-kernel.js';

/** Whether the table lives in PostgreSQL (servers sharing it) rather than a data folder's SQLite. */
const onPostgres = (db: DataSource) => db.options.type === 'postgres';

/** The statuses of a claimable table: those waiting to be claimed, and the one while held. */
export interface ClaimStatuses {
  waiting: readonly string[];
  active: string;
  /**
   * Rows that run one at a time per value of a column (a Serial schedule's runs of one task, a
   * directory's syncs): such a row is claimed only while no row with its value is active, checked
   * in the claim itself so servers claiming at once cannot both start one; `when` is the SQL
   * condition marking them. A row inserted already claimed is refused while one of its value waits
   * or runs.
   */
  oneAtATime?: { column: string; when: string };
}

/**
 * Claims on a table's rows. A claim is one guarded UPDATE (status still waiting), so two engines
 * never take the same row: on SQLite one writer runs at a time and the guard sees the other's claim;
 * on PostgreSQL the rows are locked `FOR UPDATE SKIP LOCKED`, so a server passes over what another
 * is claiming instead of waiting for it. The rows taken are then read back by owner and lease,
 * which this claim alone set.
 */
export class TableClaimStore<Row extends ClaimColumns> implements ClaimStore<Row> {
  constructor(
    private readonly db: DataSource,
    private readonly write: <T>(fn: () => Promise<T>) => Promise<T>,
    private readonly entity: EntitySchema<Row>,
    private readonly statuses: ClaimStatuses,
    readonly owner: string,
    private readonly leaseMs: number,
    private readonly now: () => Date,
  ) {}

  private repo(m?: EntityManager) {
    return (m ?? this.db.manager).getRepository(this.entity);
  }

  private lease() {
    return new Date(this.now().getTime() + this.leaseMs);
  }

  private where(w: Record<string, unknown>) {
    return w as FindOptionsWhere<Row>;
  }

  private set(p: Record<string, unknown>) {
    return p as never;
  }

  async claim(ids: string[], patch: RowPatch<Row>): Promise<Row[]> {
    if (!ids.length) return [];
    const leaseUntil = this.lease();
    const set = this.set({
      ...patch,
      status: this.statuses.active,
      claimedBy: this.owner,
      leaseUntil,
      attempts: () => '"attempts" + 1',
    });
    const waiting = [...this.statuses.waiting];
    const table = `"${this.entity.options.tableName}"`;
    const one = this.statuses.oneAtATime;
    // A row that runs one at a time is claimed only while none with its value is active.
    const alone = one
      ? `NOT (${one.when} AND EXISTS (SELECT 1 FROM ${table} o WHERE o."${one.column}" = ${table}."${one.column}" AND o.status = :active))`
      : 'TRUE';
    const update = (m: EntityManager) =>
      onPostgres(this.db)
        ? // Servers sharing PostgreSQL: rows another server is claiming this instant are passed over,
          // not waited for (that server takes them; this one looks again for others).
          this.repo(m)
            .createQueryBuilder()
            .update()
            .set(set)
            .where(
              `id IN (SELECT x.id FROM ${table} x WHERE x.id IN (:...ids) AND x.status IN (:...waiting) FOR UPDATE SKIP LOCKED) AND ${alone}`,
              { ids, waiting, active: this.statuses.active },
            )
            .execute()
        : this.repo(m)
            .createQueryBuilder()
            .update()
            .set(set)
            .where(`id IN (:...ids) AND status IN (:...waiting) AND ${alone}`, {
              ids,
              waiting,
              active: this.statuses.active,
            })
            .execute();
    const taken = await this.write(async () => {
      if (!one || !onPostgres(this.db)) return update(this.db.manager);
      // Which of the rows run one at a time is fixed when they are queued, so it is asked first: a
      // transaction (four trips to the database where the claim alone is one) only when some do.
      const values: { v: string }[] = await this.db.query(
        `SELECT DISTINCT "${one.column}" AS v FROM ${table} WHERE id = ANY($1) AND ${one.when} AND "${one.column}" IS NOT NULL`,
        [ids],
      );
      if (!values.length) return update(this.db.manager);
      return this.db.transaction(async (m) => {
        // Each statement sees what was committed before it began: claims of one value's rows
        // queue on a lock of that value, so the second sees the first's row active.
        for (const v of values.map((r) => r.v).sort())
          await m.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`${table}:${v}`]);
        return update(m);
      });
    });
    if (!taken.affected) return [];
    return this.repo().find({
      where: this.where({ id: In(ids), status: this.statuses.active, claimedBy: this.owner, leaseUntil }),
    });
  }

  async heartbeat(ids: string[]): Promise<void> {
    if (!ids.length) return;
    await this.write(() =>
      this.repo().update(
        this.where({ id: In(ids), status: this.statuses.active, claimedBy: this.owner }),
        this.set({ leaseUntil: this.lease() }),
      ),
    );
  }

  async leaseOf(id: string): Promise<Date | null> {
    const row = await this.repo().findOne({
      select: { id: true, leaseUntil: true } as never,
      where: this.where({ id, status: this.statuses.active, claimedBy: this.owner }),
    });
    return row?.leaseUntil ?? null;
  }

  async holds(id: string, m?: EntityManager): Promise<boolean> {
    const q = this.repo(m)
      .createQueryBuilder('r')
      .select('r.id')
      .where('r.id = :id AND r.status = :active AND r."claimedBy" = :owner', {
        id,
        active: this.statuses.active,
        owner: this.owner,
      });
    return !!(await (m && onPostgres(this.db) ? q.setLock('pessimistic_write') : q).getRawOne());
  }

  async settle(id: string, patch: RowPatch<Row>, m?: EntityManager): Promise<boolean> {
    const change = () =>
      this.repo(m).update(
        this.where({ id, status: this.statuses.active, claimedBy: this.owner }),
        this.set({
          ...patch,
          // Still held while the status stays active (progress); let go once it leaves it.
          ...(patch.status && patch.status !== this.statuses.active ? { claimedBy: null, leaseUntil: null } : {}),
        }),
      );
    // Inside a caller's transaction the write queue is already held.
    const res = m ? await change() : await this.write(change);
    return (res.affected ?? 0) > 0;
  }

  async release(
    rows: Row[],
    waiting: (row: Row) => string,
    then?: (rows: Row[], m: EntityManager) => Promise<void>,
    patch: RowPatch<Row> = {},
  ): Promise<void> {
    if (!rows.length) return;
    await this.write(() =>
      this.db.transaction(async (m) => {
        for (const status of new Set(rows.map(waiting)))
          await this.repo(m).update(
            this.where({
              id: In(rows.filter((r) => waiting(r) === status).map((r) => r.id)),
              status: this.statuses.active,
              claimedBy: this.owner,
            }),
            this.set({ ...patch, status, claimedBy: null, leaseUntil: null, attempts: () => '"attempts" - 1' }),
          );
        await then?.(rows, m);
      }),
    );
  }

  async expired(own: boolean): Promise<Row[]> {
    const lapsed = { status: this.statuses.active, leaseUntil: LessThan(this.now()) };
    // Rows held by this owner before a restart, or left active by a release without claims, are no one's now.
    const mine = [
      { status: this.statuses.active, claimedBy: this.owner },
      { status: this.statuses.active, claimedBy: IsNull() },
    ];
    return this.repo().find({ where: [lapsed, ...(own ? mine : [])].map((w) => this.where(w)) });
  }

  async takeOver(row: Row, patch: RowPatch<Row>): Promise<boolean> {
    const res = await this.write(() =>
      this.repo().update(
        this.where({
          id: row.id,
          status: this.statuses.active,
          claimedBy: row.claimedBy ?? IsNull(),
          leaseUntil: row.leaseUntil ?? IsNull(),
        }),
        this.set({
          ...patch,
          // Left active, the row is this owner's now (it cleans up before letting go); else no one's.
          ...(patch.status && patch.status !== this.statuses.active
            ? { claimedBy: null, leaseUntil: null }
            : { claimedBy: this.owner, leaseUntil: this.lease() }),
        }),
      ),
    );
    return (res.affected ?? 0) > 0;
  }

  async insertClaimed(row: Omit<Row, 'claimedBy' | 'leaseUntil' | 'attempts'>): Promise<Row | null> {
    const full = { ...row, status: this.statuses.active, claimedBy: this.owner, leaseUntil: this.lease(), attempts: 1 };
    const one = this.statuses.oneAtATime;
    if (!one) {
      await this.write(() => this.repo().insert(full as never));
      return full as unknown as Row;
    }
    const value = (row as Record<string, unknown>)[one.column];
    return this.write(() =>
      this.db.transaction(async (m) => {
        // The same lock as a claim of this value's rows takes: the look and the insert are one step.
        if (onPostgres(this.db))
          await m.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
            `"${this.entity.options.tableName}":${String(value)}`,
          ]);
        const statuses = [...this.statuses.waiting, this.statuses.active];
        if (await this.repo(m).existsBy(this.where({ [one.column]: value, status: In(statuses) }))) return null;
        await this.repo(m).insert(full as never);
        return full as unknown as Row;
      }),
    );
  }
}

/** Where an engine's kernels run: its node id, the lease its claims take, whether timers run. */
export interface NodeLease {
  owner: string;
  leaseMs: number;
  timers: boolean;
}

/**
 * A job kernel over one table: the claim store and the kernel, made together for a worker. The
 * store's writes are guarded writes (`guardedWrite`): on SQLite they take the engine's write queue
 * (one writer); on PostgreSQL each is one guarded statement that needs no lock beyond the rows it
 * touches, so claims by many servers do not wait on the store's write lock.
 */
export function claimingJobKernel<Row extends ClaimColumns>(
  s: {
    db: DataSource;
    guardedWrite: <T>(fn: () => Promise<T>) => Promise<T>;
    now: () => Date;
    log: { error(message: string, fields: Record<string, unknown>): void };
  },
  table: { entity: EntitySchema<Row>; statuses: ClaimStatuses },
  worker: JobWorker<Row>,
  o: NodeLease & { name: string; concurrency: number; batch?: number },
): JobKernel<Row> {
  const store = new TableClaimStore<Row>(s.db, s.guardedWrite, table.entity, table.statuses, o.owner, o.leaseMs, s.now);
  return new JobKernel(store, worker, {
    name: o.name,
    concurrency: o.concurrency,
    batch: o.batch,
    leaseMs: o.leaseMs,
    now: s.now,
    timers: o.timers,
    log: (message, e) => s.log.error(message, { error: e.message }),
  });
}
