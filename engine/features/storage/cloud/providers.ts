// The cloud drive kinds, each with the provider it connects through, how its files are reached, and
// set A's task-report variable that names its subfolder per iteration value.
import type { OpContext } from '../../../ops/context.js';
import type { RetryOptions } from '../../../core/jobs/retry-after.js';
import type { StorageServiceRow, StorageType } from '../../../model/storage.entity.js';
import type { TaskReportOptions } from '../../../model/tasks.entity.js';
import { takeTicket } from '../../tickets/one-time-tickets.js';
import {
  authorizationUrl,
  CloudError,
  redeemCode,
  type CloudDrive,
  type CloudServices,
  type ConnectTicket,
  type OAuthProvider,
} from './cloud-account.js';
import { dropbox, dropboxDrive } from './dropbox.js';
import { google, googleDrive } from './google.js';
import { graphDrive, microsoft } from './microsoft.js';
import { StorageService } from '../../../model/storage.entity.js';

interface CloudKind {
  provider: OAuthProvider;
  open(s: CloudServices, row: StorageServiceRow, retry?: RetryOptions): Promise<CloudDrive>;
  variable: 'onedriveVariable' | 'googledriveVariable' | 'dropboxVariable';
}

const KINDS: Partial<Record<StorageType, CloudKind>> = {
  OneDrive: { provider: microsoft, open: graphDrive, variable: 'onedriveVariable' },
  SharePoint: { provider: microsoft, open: graphDrive, variable: 'onedriveVariable' },
  GoogleDrive: { provider: google, open: googleDrive, variable: 'googledriveVariable' },
  Dropbox: { provider: dropbox, open: dropboxDrive, variable: 'dropboxVariable' },
};

export const isCloud = (t: StorageType) => t in KINDS;

const kindOf = (t: StorageType): CloudKind => {
  const kind = KINDS[t];
  if (!kind) throw new Error(`${t} is not a cloud drive`);
  return kind;
};

/** The service's drive, signed in as its connected account. */
export const cloudDrive = (s: CloudServices, row: StorageServiceRow, retry: RetryOptions = {}) =>
  kindOf(row.type).open(s, row, retry);

/** Set A's variable naming the subfolder per iteration value for this kind of drive. */
export const cloudVariable = (t: StorageType, o: TaskReportOptions) => o[kindOf(t).variable] ?? null;

/** The provider's sign-in page for connecting `row`, coming back to `redirectUri`. */
export const connectUrl = (ctx: OpContext, row: StorageServiceRow, redirectUri: string) =>
  authorizationUrl(ctx, row, kindOf(row.type).provider, redirectUri);

/**
 * Finishes a connection from the browser's return: the ticket taken once (a second return connects
 * nothing), the code redeemed at the service's provider. Answers the service's id.
 */
export async function finishConnect(s: CloudServices, code: string, state: string): Promise<string> {
  const ticket = await takeTicket<ConnectTicket>(s as never, 'cloud', state);
  if (!ticket) throw new CloudError(400, 'the sign-in took too long or was already used: connect again');
  const row = await s.db.getRepository(StorageService).findOneBy({ id: ticket.serviceId });
  if (!row || !isCloud(row.type)) throw new CloudError(400, 'the storage service is no longer there');
  await redeemCode(s, kindOf(row.type).provider, ticket, code);
  return row.id;
}
