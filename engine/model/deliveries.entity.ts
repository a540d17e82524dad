import { EntitySchema } from 'typeorm';
import { baseColumns, ref, text, when, type BaseRow } from '../core/entity-base.js';
import { claimColumns, type ClaimColumns } from '../core/jobs/claims.js';
import type { DeliveryStatus } from '../core/enumerations.js';
import { boundByOrganization, projectInside } from '../core/organization-boundary.js';

/** A file of the run to deliver: its name among the run's files, and its variables (the subfolder's). */
export interface DeliveryFile {
  name: string;
  variables?: Record<string, string | null>;
}

/**
 * A delivery of a run's files to one destination that failed for a cause that passes (a full or
 * read-only disk, a server not answering): kept and tried again with backoff by the delivery queue,
 * shown in Monitoring with its next try, retried or cancelled there by hand. Written with the run's
 * outcome, so an attempt that lost its run leaves none.
 */
export interface DeliveryRow extends BaseRow, ClaimColumns {
  requestId: string;
  taskReportId: string | null;
  storageServiceId: string;
  /** The destination's name when the run ended (said even after it is renamed or deleted). */
  destination: string;
  /** The path under the destination's root, already confined to it. */
  path: string;
  /** The variable naming each file's subfolder, or null. */
  variable: string | null;
  files: DeliveryFile[];
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: Date;
  /** Until when it is tried again by itself; after that it ends failed. */
  giveUpAt: Date;
  lastError: string | null;
  deliveredAt: Date | null;
}

/** What a delivery that failed for a passing cause leaves to be tried again after its run. */
export type LaterDelivery = Pick<
  DeliveryRow,
  'storageServiceId' | 'destination' | 'path' | 'variable' | 'files' | 'lastError'
>;

export const Delivery = new EntitySchema<DeliveryRow>({
  name: 'Delivery',
  tableName: 'deliveries',
  columns: {
    ...baseColumns,
    requestId: ref(false),
    taskReportId: ref(),
    storageServiceId: ref(false),
    destination: text(false),
    path: text(false),
    variable: text(),
    files: { type: 'simple-json' },
    status: { type: 'varchar', length: 10 },
    attempts: { type: 'integer', default: 0 },
    nextAttemptAt: when(false),
    giveUpAt: when(false),
    lastError: text(),
    deliveredAt: when(),
    ...claimColumns,
  },
  indices: [
    { name: 'IDX_deliveries_due', columns: ['status', 'nextAttemptAt'] },
    { name: 'IDX_deliveries_request', columns: ['requestId'] },
    { name: 'IDX_deliveries_lease', columns: ['status', 'leaseUntil'] },
  ],
  // A run's deliveries go with it.
  foreignKeys: [{ target: 'Request', columnNames: ['requestId'], referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
});

// A delivery belongs to the organization of its run.
boundByOrganization(
  Delivery,
  (x) => `${x}."requestId" IN (SELECT br.id FROM requests br WHERE ${projectInside('br."projectId"')})`,
);
