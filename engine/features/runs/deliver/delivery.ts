import type { OpContext } from '../../../ops/context.js';
import type { ReportRow } from '../../../model/reports.entity.js';
import type { RequestFile } from '../../../model/requests.entity.js';
import type { KeptFile } from '../../requests/request-output.js';
import type { TaskReportRow, TaskRow } from '../../../model/tasks.entity.js';
import type { OutboxRow } from '../../../model/mail.entity.js';
import type { EntityManager } from 'typeorm';
import type { LaterDelivery } from '../../../model/deliveries.entity.js';

/**
 * This attempt at a run no longer holds it: its server was paused or cut off past its lease and
 * another server took the run over. It delivers nothing more; that server's attempt delivers.
 */
export class SupersededAttempt extends Error {
  constructor() {
    super('Another server took this run over: this attempt delivers nothing');
    this.name = 'SupersededAttempt';
  }
}

/**
 * What every delivery of a run is handed: the task, the files to deliver, and where to tell what
 * happened. Folders (and FTP) and the hub deliver one task report's files as they are made; mail
 * delivers the run's files at its end, in one message per recipient.
 */
export interface Delivery {
  ctx: OpContext;
  task: TaskRow;
  requestId: string;
  /** The task report the files come from, with its report; null for the run as a whole. */
  from: { taskReport: TaskReportRow; report: ReportRow } | null;
  /** The files as made (a task report's, or all of the run's). */
  files: RequestFile[];
  /** The task report's files zipped into one, when it asks for it. */
  zip: RequestFile | null;
  /** The files go in the mail's body alone (a subscribed chart), whatever the task reports say. */
  inline?: boolean;
  log: (line: string) => void;
  /** The run's stop: a delivery waiting to try again stops waiting. */
  signal?: AbortSignal;
  /** Keeps a further file with the run's (a zip made for the mail). */
  keep: (file: KeptFile, taskReportId: string | null) => Promise<RequestFile>;
  /**
   * Hands the run's mail to the runner, which writes it to the outbox in the transaction that
   * records the run's outcome: an attempt that lost its claim (a paused server, a crash before the
   * outcome) has queued nothing, so a second attempt never doubles a recipient's mail.
   */
  post: (rows: OutboxRow[]) => void;
  /**
   * Keeps a delivery that failed for a passing cause to be tried again after the run, written with
   * its outcome as the mail is; answers the words the run says of it. Absent where nothing is kept
   * (a dry run, a test of one report).
   */
  later?: (delivery: LaterDelivery) => string;
  /**
   * Throws `SupersededAttempt` when this attempt no longer holds its run; asked before files leave
   * (folders, FTP) and inside the transaction that publishes to the hub, which then commits only
   * while the run is held.
   */
  stillHeld: (m?: EntityManager) => Promise<void>;
}

/** One way of delivering: answers what went wrong, in words (nothing when everything arrived). */
export type Deliver = (d: Delivery) => Promise<string[]>;
