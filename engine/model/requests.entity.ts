import { EntitySchema } from 'typeorm';
import { baseColumns, flag, ref, text, when, type BaseRow } from '../core/entity-base.js';
import { claimColumns, type ClaimColumns } from '../core/jobs/claims.js';
import type { OutputFormat } from '../render/formats.js';
import type { Selections } from '../analytics/model.js';

import type { RequestKind, RequestStatus } from '../core/enumerations.js';
import { boundByOrganization, projectInside } from '../core/organization-boundary.js';

export {
  FINISHED,
  REQUEST_KINDS,
  REQUEST_STATUSES,
  type RequestKind,
  type RequestStatus,
} from '../core/enumerations.js';

/** What an on-demand report request makes (set A 2.16). */
export interface OnDemandConfig {
  reportId: string;
  format: OutputFormat;
  selections: Selections;
  appId: string | null;
  ignoreExistingFilters: boolean;
}

/** A file a request made, kept under the data folder's `files/requests/<request id>/`. */
export interface RequestFile {
  name: string;
  size: number;
  format: string;
  /** The task report it came from (task runs), and the iteration values it was made for. */
  taskReportId: string | null;
  iteration: string[];
  /** The task report's recipients, folder and hub-user variables under this file's selections. */
  variables?: Record<string, string | null>;
}

/**
 * One execution of a scheduled task, an on-demand report or an on-demand task. A scheduled run is
 * keyed by (trigger, scheduled-for): the unique index is what makes a slot run at most once.
 */
export interface RequestRow extends BaseRow, ClaimColumns {
  kind: RequestKind;
  title: string;
  projectId: string | null;
  taskId: string | null;
  reportId: string | null;
  triggerId: string | null;
  scheduledFor: Date | null;
  /** A slot missed while the app was closed or asleep, run once when it came back. */
  catchUp: boolean;
  status: RequestStatus;
  priority: number;
  execution: 'Parallel' | 'Serial';
  config: OnDemandConfig | null;
  outputFormats: string;
  progressDone: number;
  progressTotal: number;
  files: RequestFile[];
  message: string | null;
  createdBy: string | null;
  startedDate: Date | null;
  endedDate: Date | null;
}

export const Request = new EntitySchema<RequestRow>({
  name: 'Request',
  tableName: 'requests',
  columns: {
    ...baseColumns,
    kind: { type: 'varchar', length: 16 },
    title: text(false),
    projectId: ref(),
    taskId: ref(),
    reportId: ref(),
    triggerId: ref(),
    scheduledFor: when(),
    catchUp: flag(),
    status: { type: 'varchar', length: 12 },
    priority: { type: 'integer', default: 0 },
    execution: { type: 'varchar', length: 10, default: 'Parallel' },
    config: { type: 'simple-json', nullable: true },
    outputFormats: { type: 'text', default: '' },
    progressDone: { type: 'integer', default: 0 },
    progressTotal: { type: 'integer', default: 0 },
    files: { type: 'simple-json' },
    message: text(),
    createdBy: ref(),
    startedDate: when(),
    endedDate: when(),
    ...claimColumns,
    attempts: { type: 'integer', default: 0 },
  },
  indices: [
    { name: 'IDX_requests_status', columns: ['status', 'priority', 'createdDate'] },
    { name: 'IDX_requests_task', columns: ['taskId'] },
    { name: 'IDX_requests_lease', columns: ['status', 'leaseUntil'] },
    { name: 'UQ_requests_slot', columns: ['triggerId', 'scheduledFor'], unique: true },
  ],
});

// A run belongs to its project's organization.
boundByOrganization(Request, (x) => projectInside(`${x}."projectId"`));
