import type { DeliveryStatus, OutboxStatus, ReloadStatus, RequestKind, RequestStatus } from './enumerations.js';

/**
 * Every event the engine pushes to its hosts, with its payload: declared once, so the emitters,
 * the desktop's preload and the renderer's listeners are checked against one map.
 */
export interface EngineEvents {
  /** An analytics import's progress (percent of the work, rows read so far). */
  'analytics.import.progress': { appId: string; percent: number; rows: number };
  /** An app's reload from its sources was queued, started or ended (its Data tab and the monitoring screen follow it). */
  'analytics.reload.changed': { appId: string; id: string; status: ReloadStatus; trigger: 'manual' | 'schedule' };
  /** An analytics app's data was replaced: charts and values should be read again. */
  'analytics.reloaded': { appId: string };
  /** A backup's step under way ("copying the database"), its number out of all of them. */
  'backup.progress': { step: string; number: number; of: number };
  /** Files of a report generation done so far. */
  'report.progress': { reportId: string; done: number; total: number };
  /** A request was queued, started, made progress or finished (the monitoring screen's live status). */
  'request.changed': {
    id: string;
    kind: RequestKind;
    taskId: string | null;
    status: RequestStatus;
    progressDone: number;
    progressTotal: number;
  };
  /** A message of the outbox changed state (queued, sent, failed, waiting to retry, cancelled); a run's mail names its run. */
  'mail.changed': { id: string; requestId: string | null; status: OutboxStatus };
  /** A delivery kept after its run changed state (waiting for its next try, delivering, delivered, failed, cancelled). */
  'delivery.changed': { id: string; requestId: string; status: DeliveryStatus };
  /** Desktop only: a template saved in Office was uploaded as a new version, or refused with its problems. */
  'template.synced': { reportId: string; ok: boolean; message: string; problems: { field: string; message: string }[] };
}

export type EngineEventType = keyof EngineEvents;

export type EngineEvent = { [K in EngineEventType]: { type: K; payload: EngineEvents[K] } }[EngineEventType];
