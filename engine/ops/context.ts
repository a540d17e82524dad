import type { DataSource, EntityManager } from 'typeorm';
import type { CloudEndpoints } from '../core/cloud-endpoints.js';
import type { SecretBox } from '../core/secrets.js';
import type { FileStore } from '../core/file-store.js';
import type { Backoff } from '../core/jobs/backoff.js';
import type { PermissionFlags } from '../core/permissions.js';
import type { UserRow } from '../model/users.entity.js';
import type { Logger } from '../core/logger.js';
import type { EngineEvent } from '../core/events.js';
import type { SignInGuard } from '../core/throttle.js';
import type { Passwords } from '../core/passwords.js';
import type { AnalyticsPort, EmbeddedAnalyticsAdmin } from '../analytics/port.js';
import type { Renderer } from '../render/render-pool.js';
import type { OutboxRow } from '../model/mail.entity.js';
import type { DirectorySyncRow } from '../model/directory-syncs.entity.js';
import type { AppReloadRow } from '../model/data-connections.entity.js';
import type { DeliveryStatus, OutboxStatus } from '../core/enumerations.js';
import type { DeliveryRow, LaterDelivery } from '../model/deliveries.entity.js';
import type { MemberDeclaration } from '../model/members.entity.js';
import type { RequestRow } from '../model/requests.entity.js';

export type { Logger };

export type Transport = 'http' | 'ipc' | 'internal';

/** Who is calling: resolved from a session token or an API key before any handler runs. */
export interface Principal {
  user: UserRow;
  via: 'session' | 'apiKey' | 'jwt';
  credentialId: string;
  isTenantOwner: boolean;
  isTenantAdmin: boolean;
  permissions: PermissionFlags;
  roleIds: string[];
  allProjects: boolean;
  projectIds: string[];
  /** The organizations the caller belongs to, which bound what they see; null (tenant administrators) for all. */
  organizationIds: string[] | null;
}

/** Pushed to the host (IPC event stream, logs); progress of long work travels this way. */
export type { EngineEvent };

/** An operation as access answers see it: its id, its method, and what it does to each kind of object. */
export interface MemberOperation {
  id: string;
  method: string;
  member: MemberDeclaration;
}

/**
 * What every part of the engine is given at construction: the database, the clock, secrets, files,
 * the analytics and render ports. Complete from the start; nothing in it is filled in later.
 */
export interface BaseServices {
  db: DataSource;
  secrets: SecretBox;
  now: () => Date;
  log: Logger;
  emit: (event: EngineEvent) => void;
  /** Where runs' files and the hub's published files live (the data folder's `files/`, or a shared folder). */
  files: FileStore;
  dataDir: string;
  /** How a delivery to a folder, FTP, SFTP, WebDAV or a cloud drive that failed for a passing reason is tried again. */
  deliveryRetry: Backoff & { tries: number };
  /**
   * The folders that hold the installation itself (the data folder, the secrets key's folder): a
   * data connection or a folder storage may not point into them (core/house-folders.ts).
   */
  houseFolders: readonly string[];
  /** Where this engine's uploads wait while their operation runs (its own when servers share the folder). */
  uploadsDir: string;
  /** Hashing and checking passwords, at the installation's cost. */
  passwords: Passwords;
  /** Growing delays after failed sign-ins: per account at an address, per address, per account elsewhere. */
  signInThrottle: SignInGuard;
  /** Queues writes per store; `write` runs one write on the main database's queue. */
  write: <T>(fn: () => Promise<T>) => Promise<T>;
  /**
   * A write whose every statement is guarded by the rows it touches (a claim taken only while its
   * row waits, an outcome stored only while this engine still holds the run). On SQLite it takes
   * the main queue as any write does (one writer); on PostgreSQL it takes no store lock, as its
   * guard is in its own statements: servers settling runs at once do not wait on one another.
   */
  guardedWrite: <T>(fn: () => Promise<T>) => Promise<T>;
  /** Runs one write on another store's queue (an app's data), as an operation declaring `writes` would. */
  writeTo: <T>(store: string, fn: () => Promise<T>) => Promise<T>;
  /** The analytics provider (the embedded one by default). */
  analytics: AnalyticsPort;
  /** What only the embedded analytics engine does (apps of its own, imports, metadata edits). */
  embedded: EmbeddedAnalyticsAdmin;
  /** The ids of the catalogue's operations a principal may call (what screens offer is asked by id). */
  callableOperations: (principal: Principal) => string[];
  /** The catalogue's operations that declare what they do to member-bounded objects (what screens ask about). */
  memberOperations: () => readonly MemberOperation[];
  /** Worker threads that render report files. */
  renders: Renderer;
  /** What a backup records of this installation, and the secrets key when a backup is to include it. */
  installation: {
    schemaVersion: number;
    release: string | null;
    secretKey(): Promise<Buffer | null>;
    /** How long a backup may go without progress before it is stopped as stuck (tests shorten it). */
    backupStallMs?: number;
  };
  /** Where people reach this installation (set when the HTTP server listens): links in mail point here. */
  address: { http: string | null };
  /** The cloud drives' API hosts (tests point them at fakes on loopback). */
  cloud: CloudEndpoints;
}

/**
 * The base services and the doors to the engine's background work, as operations see them. The
 * composition root builds it whole once the workers exist (each worker is given the base and the
 * doors it needs, in order), so no member is ever a placeholder.
 */
export interface EngineServices extends BaseServices {
  /** The request runner: queued requests start when woken; stop aborts one at its next safe point. */
  requests: RequestControl;
  /** The scheduler: woken when a schedule changes so the change takes effect at once. */
  scheduler: { wake(): void };
  /** The persisted outbox: messages are written before they are sent. */
  outbox: OutboxDoor;
  /** Deliveries kept after their run to be tried again (a folder on a full disk, a server down). */
  deliveries: DeliveryDoor;
  /** Directory synchronizations: one asked for now, and whether one is under way. */
  directorySyncs: {
    syncNow(directoryId: string): Promise<DirectorySyncRow | null>;
    isSyncing(directoryId: string): Promise<boolean>;
  };
  /** Reloads of analytics apps from their sources: one asked for now, a stop, whether one is under way. */
  reloads: ReloadControl;
  /** The other servers sharing this one's PostgreSQL database; null on SQLite. */
  peers: Peers | null;
}

export interface ReloadControl {
  /** Reloads an app now and answers its record once it has ended; null when one is queued or under way. */
  reloadNow(appId: string, startedBy: string | null): Promise<AppReloadRow | null>;
  /** Stops an app's queued and running reloads, on whichever server; false when none was. */
  cancel(appId: string): Promise<boolean>;
}

/** The outbox as the rest of the engine uses it. */
export interface OutboxDoor {
  enqueue(rows: OutboxRow[]): Promise<void>;
  /** Rows a caller wrote in its own transaction, now committed: screens hear, the outbox looks. */
  queued(rows: OutboxRow[]): void;
  wake(): void;
  changed(m: Pick<OutboxRow, 'id' | 'requestId'>, status: OutboxStatus): void;
}

/** The delivery queue as the rest of the engine uses it. */
export interface DeliveryDoor {
  /** A delivery to keep for after the run, and the words the run says of it (written by the runner with the run's outcome). */
  keep(requestId: string, taskReportId: string | null, d: LaterDelivery): { row: DeliveryRow; words: string };
  /** Rows a caller wrote in its own transaction, now committed: screens hear, the queue looks. */
  queued(rows: DeliveryRow[]): void;
  wake(): void;
  changed(row: Pick<DeliveryRow, 'id' | 'requestId'>, status: DeliveryStatus): void;
}

export interface Peers {
  /** Asks the server running a request to stop it; settles once it has stopped (true) or it was not running. */
  stopElsewhere(requestId: string): Promise<boolean>;
  /** Tells the others that work was queued here, so an idle one takes it now rather than at its next look. */
  nudge(queue: SharedQueue): void;
  /** Asks whichever server reads an app's reload to stop it (the reload's row says when it has). */
  cancelReloadElsewhere(appId: string): void;
}

export type SharedQueue = 'requests' | 'mail' | 'syncs' | 'reloads' | 'deliveries';

export interface RequestControl {
  wake(): void;
  /** Requests just written as queued, inside the transaction that wrote them (servers sharing a queue send their jobs). */
  queued(m: EntityManager, rows: Pick<RequestRow, 'id' | 'priority'>[]): Promise<void>;
  /** Stops a queued or running request; false when it had already finished. */
  stop(id: string): Promise<boolean>;
  /** Stops every queued and running request of the tasks (before they go, or by hand); answers how many. */
  stopTasks(taskIds: string[]): Promise<number>;
  isRunning(id: string): boolean;
}

export interface OpContext extends EngineServices {
  principal: Principal | null;
  transport: Transport;
  /** The caller's address (HTTP) or the transport name, for rate limits. */
  client: string;
  /** The operation being served: member permissions read what it does to an object from it. */
  operation?: { id: string; method: string; member?: MemberDeclaration };
}

/** The principal of a context whose operation requires one (the dispatcher guarantees it). */
export function me(ctx: OpContext): Principal {
  if (!ctx.principal) throw new Error('operation ran without a principal');
  return ctx.principal;
}

/**
 * The context background work runs rules in, a kind of its own: no caller (the engine itself
 * passes every check) and no operation, named by the worker, so the log and the audit say who did
 * it. Rules take it where they take a request's context; nothing a worker does looks like a call.
 */
export interface WorkContext extends OpContext {
  principal: null;
  transport: 'internal';
  /** The worker's name (`WorkerModule.name`). */
  client: string;
  operation?: undefined;
}

export const workContext = (services: EngineServices, worker: string): WorkContext => ({
  ...services,
  principal: null,
  transport: 'internal',
  client: worker,
});
