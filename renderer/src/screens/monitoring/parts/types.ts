import type { RowOf } from '../../../../../engine/catalogue';
import { LIVE as LIVE_STATES } from '../../../../../engine/wire';
import { inZone } from '../../../components/times';

export type Run = RowOf<'app.requests.list'>;
export type Message = RowOf<'app.outbox.list'>;
export type KeptDelivery = RowOf<'app.deliveries.list'>;
export type ScheduledTask = RowOf<'v1.requests.listScheduledStatuses'>;
/** The statuses of a run still under way. */
export const LIVE: string[] = LIVE_STATES;
export const when = (iso: string | null) => inZone(iso);
