// A request's kinds and states, with no imports: the entity, the SQL and the renderer's screens read them from here.

export const REQUEST_KINDS = ['ScheduledTask', 'OnDemandReport', 'OnDemandTask'] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];

export const REQUEST_STATUSES = ['queued', 'running', 'completed', 'warning', 'failed', 'aborted'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];
export const FINISHED: RequestStatus[] = ['completed', 'warning', 'failed', 'aborted'];
/** Not finished yet: a run that can still be stopped. */
export const LIVE: RequestStatus[] = ['queued', 'running'];
