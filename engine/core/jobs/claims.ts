import type { EntityManager, EntitySchemaColumnOptions } from 'typeorm';

/**
 * What a row of work carries to be claimed: its status, who holds it (a node's id) and until when
 * (the lease, renewed by the holder's heartbeat), and how many times it was claimed (counted at the
 * claim, as graphile-worker does, so a job that kills its worker is not retried for ever).
 */
export interface ClaimColumns {
  id: string;
  status: string;
  claimedBy: string | null;
  leaseUntil: Date | null;
  attempts: number;
}

export const claimColumns: Record<'claimedBy' | 'leaseUntil', EntitySchemaColumnOptions> = {
  claimedBy: { type: 'varchar', length: 64, nullable: true },
  leaseUntil: { type: 'datetime', nullable: true },
};

/** The claim columns of a new row: no one holds it, never claimed. */
/** When a claimed row's lease was last renewed (its lease less one lease), or null when unclaimed. */
export const renewedAt = (row: ClaimColumns, leaseMs: number): number | null =>
  row.leaseUntil ? row.leaseUntil.getTime() - leaseMs : null;

export const UNCLAIMED = { claimedBy: null, leaseUntil: null, attempts: 0 } as const;

/** A patch of a row's own columns (the claim columns are the store's to set). */
export type RowPatch<Row> = Partial<Omit<Row, 'id' | 'claimedBy' | 'leaseUntil' | 'attempts'>>;

/**
 * Claims on one table's rows for one owner (`TableClaimStore`, on SQLite and on PostgreSQL, where a
 * claim locks its rows `FOR UPDATE SKIP LOCKED`). Every change a holder makes is
 * guarded by its ownership: a node whose lease lapsed and whose work another took changes nothing.
 */
export interface ClaimStore<Row extends ClaimColumns> {
  readonly owner: string;
  /** Takes those of `ids` still waiting; answers the rows taken (status active, owned, leased, attempt counted). */
  claim(ids: string[], patch: RowPatch<Row>): Promise<Row[]>;
  /** Renews the lease of rows this owner holds. */
  heartbeat(ids: string[]): Promise<void>;
  /**
   * Whether this owner still holds the row. Asked inside a caller's transaction (`m`) before it makes
   * the work's result visible (a hub publication), on PostgreSQL the row stays locked until that
   * transaction ends, so no takeover slips in between the answer and the commit.
   */
  holds(id: string, m?: EntityManager): Promise<boolean>;
  /** Until when this owner holds the row (its lease), or null when it no longer does. */
  leaseOf(id: string): Promise<Date | null>;
  /** Records a held row's progress or outcome; false when this owner no longer holds it. */
  settle(id: string, patch: RowPatch<Row>, m?: EntityManager): Promise<boolean>;
  /**
   * Gives held rows back as they were before the claim, the attempt not counted (work never started,
   * or handed back by a server stopping cleanly, `patch` undoing its progress); `then` runs in the
   * same transaction.
   */
  release(
    rows: Row[],
    waiting: (row: Row) => string,
    then?: (rows: Row[], m: EntityManager) => Promise<void>,
    patch?: RowPatch<Row>,
  ): Promise<void>;
  /** Active rows whose lease has lapsed, and (`own`) those this owner held before it restarted. */
  expired(own: boolean): Promise<Row[]>;
  /**
   * Takes over an expired row (still as it was read, so two recoverers never both take it): a patch
   * that leaves it active makes this owner its holder (to clean up, then settle); one that ends it
   * or puts it back lets it go.
   */
  takeOver(row: Row, patch: RowPatch<Row>): Promise<boolean>;
  /** Inserts a row already claimed by this owner (work asked for here and done at once); null when refused. */
  insertClaimed(row: Omit<Row, 'claimedBy' | 'leaseUntil' | 'attempts'>): Promise<Row | null>;
}
