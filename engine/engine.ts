import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { CLOUD_ENDPOINTS, type CloudEndpoints } from './core/cloud-endpoints.js';
import { dirname, join } from 'node:path';
import type { DataSource } from 'typeorm';
import { DB_FILE, openDatabase, openPostgres } from './core/db.js';
import { ENTITIES } from './entities.js';
import { SCHEMA_SNAPSHOT } from './migrations/schema-snapshot.generated.js';
import { MIGRATIONS, POSTGRES_MIGRATIONS } from './migrations/index.js';
import type { SecretKeyStore } from './core/secrets.js';
import { uploadsDirOf } from './ops/receive-upload.js';
import {
  Dispatcher,
  buildCatalogue,
  permits,
  type Authenticated,
  type CallOptions,
  type RawInput,
} from './ops/dispatch.js';
import { WriteQueues, MAIN_STORE, transactionsTakeTurns } from './core/write-queue.js';
import { advisoryStoreLock } from './core/store-lock.js';
import { SignInGuard } from './core/throttle.js';
import { passwordHashing, type PasswordWork } from './core/passwords.js';
import { rememberedCredential, resolveCredential } from './features/credentials/credentials.js';
import type { BaseServices, EngineEvent, EngineServices, Logger, OpContext } from './ops/context.js';
import { workContext } from './ops/context.js';
import type { WorkerModule } from './ops/worker-module.js';
import { EVENT_STREAM_OPERATION, mayReceive } from './features/events/event-visibility.js';
import { failure, success, type Envelope } from './core/envelope.js';
import {
  databaseUnavailable,
  diskFull,
  isDiskFull,
  isDatabaseUnavailable,
  isEngineError,
  retryAfterSeconds,
  type EngineError,
} from './core/errors.js';
import { FileResult } from './core/file-result.js';
import { OPERATIONS } from './catalogue.js';
import { keepNativeFreedPagesBriefly } from './core/native-allocators.js';
import { ensureFirstStart, issueOwnerKey } from './features/setup/first-start.js';
import type { AnyOp } from './ops/op.js';
import { openEmbeddedAnalytics, type ImportLimits } from './analytics/embedded-analytics.js';
import { RenderPool, type Renderer } from './render/render-pool.js';
import { keepCollectionsOnTheirThreads } from './core/heap-flags.js';
import { seedDemoContent } from './features/setup/demo-content.js';
import { removeUnfinishedImports } from './features/projects/projects.rules.js';
import { recordInterruptedImports } from './features/app-data/interrupted-imports.js';
import { openBossHandoff } from './core/jobs/boss-handoff.js';
import { folderFileStore } from './core/file-store.js';
import { replaySignIns } from './features/auth/sign-in-record.js';
import { openSecrets } from './features/settings/secrets-key-check.js';
import { RequestRunner, type StorageRetry } from './features/runs/run/runner.js';
import { Scheduler } from './features/runs/schedule/scheduler.js';
import { directorySchedules } from './features/runs/schedule/directory-schedules.js';
import { DirectorySyncs } from './features/user-directories/directory-sync.js';
import { AppReloads } from './features/app-data/app-reloads.js';
import { reloadSchedules } from './features/runs/schedule/reload-schedules.js';
import { BackupSchedule } from './features/backups/backup-schedule.js';
import {
  applyPendingRestore,
  confirmRestore,
  removeBackupLeftovers,
  rollBackRestore,
} from './features/backups/backup-archive.js';
import { MailOutbox, type OutboxOptions } from './features/mail/outbox.js';
import { DeliveryQueue, type DeliveryQueueOptions } from './features/runs/deliver/delivery-queue.js';
import { RequestLog, requestLogPath } from './features/requests/request-output.js';
import { linkPeers, type PeerLink } from './peers.js';

/** What the host gives the engine: paths, clock, logger, secret protection, notifications. */
export interface EngineOptions {
  dataDir: string;
  secretKeys: SecretKeyStore;
  ownerEmail?: string;
  now?: () => Date;
  logger?: Logger;
  notify?: (event: EngineEvent) => void;
  /** This release's version, named when a data folder is newer than it. */
  release?: string;
  /** Create the demo app and project on first start (default true). */
  demo?: boolean;
  /**
   * The background work (the queues taking back what a stop cut off, the scheduler loading its
   * schedules, the first start's demo of 110,000 rows) waits for this: a server's first answer.
   * None of it is needed to answer, and all of it would hold the first answer up. Default: the
   * work starts before `createEngine` resolves. `backgroundReady` says when it has started.
   */
  backgroundAfter?: Promise<unknown>;
  /** What one analytics import may hold and use (defaults: 5,000,000 rows, 50,000,000 cells, 1 GiB). */
  importLimits?: ImportLimits;
  /** Runs the scheduler's own timers (default true); tests with an injected clock call `scheduler.tick()`. */
  schedulerTimers?: boolean;
  /**
   * The scrypt cost of the password hashes this engine makes (default OWASP's, N=2^17). Only a test
   * suite lowers it, to sign in hundreds of times; `serve` and the desktop never set it, and every
   * stored hash names its own cost, so hashes made at either cost verify under both.
   */
  passwordWork?: PasswordWork;
  /** How many requests run at once (default 2). */
  concurrentRequests?: number;
  /** Retry timing of the outbox (tests shorten it). */
  mail?: OutboxOptions;
  /** Retry timing of deliveries kept after their run (tests shorten it). */
  deliveries?: DeliveryQueueOptions;
  /**
   * This engine's id among those sharing the data folder (default "local"): the work it claims is
   * its own, and at start it takes back what it held before a restart. Engines sharing a folder
   * each need their own id.
   */
  nodeId?: string;
  /** How long a claim on a run, a mail or a sync holds unless renewed (default 60 s; renewed every third of it). */
  leaseMs?: number;
  /** How long a run waits for the database to come back, from its first failed call (default 15 min). */
  outageWaitMs?: number;
  /**
   * A PostgreSQL database shared by several engines (`postgresql://…`), instead of the data
   * folder's SQLite file (issue 26). The data folder still holds files, logs and analytics apps.
   */
  database?: string;
  /** What makes report files (default: render threads, one per core); the scaling bench puts a stand-in here. */
  renders?: Renderer;
  /**
   * A secrets key that does not open the database's stored secrets: refused at start (default), or,
   * on the desktop (a data folder restored without its key), started with those secrets listed in
   * `secretsToReenter`.
   */
  secretKeyMismatch?: 'refuse' | 'start-anyway';
  /** How long a backup may go without progress before it is stopped as stuck (default 60 s; tests shorten it). */
  backupStallMs?: number;
  /** How a run whose files folder failed (EACCES, ENOSPC, EIO) waits and starts again (tests shorten it). */
  storageRetry?: StorageRetry;
  /** The cloud drives' API hosts: tests point them at fakes on loopback. */
  cloudEndpoints?: Partial<CloudEndpoints>;
}

/** How an engine stops (`close`). */
export interface CloseOptions {
  /**
   * Runs under way get this long to finish; those still going are then handed back to the queue,
   * their attempt not counted, to run again at the next start or on another server (default 0).
   */
  graceMs?: number;
}

const DEFAULT_LEASE_MS = 60_000;
/** A delivery that failed for a passing reason: three tries, 5 s then 10 s apart, within its run. */
const DELIVERY_RETRY = { tries: 3, baseMs: 5_000, maxMs: 60_000 };
/** In the data folder while the first start's demo content is still to be made. */
const DEMO_PENDING = 'demo-pending';
/** pg-boss's queue of requests, when servers share PostgreSQL. */
const REQUEST_QUEUE = 'broadsheet-requests';

/** An envelope plus the status a transport reports it with; a file answer also carries the file. */
export interface InvokeResult {
  status: number;
  envelope: Envelope<unknown>;
  file?: FileResult;
  /** Seconds to wait before trying again (429). */
  retryAfter?: number;
}

export interface Engine {
  readonly catalogue: ReadonlyMap<string, AnyOp>;
  readonly services: EngineServices;
  readonly firstStart: { created: boolean; ownerId: string };
  /** Settles when the first-start demo content (app data, project, report) is in place. */
  readonly demoReady: Promise<void>;
  /** Resolves once the background work has started (at once without `backgroundAfter`); rejects if it could not. */
  readonly backgroundReady: Promise<void>;
  /**
   * Subscribes to every engine event (progress, reloads), for the host itself; answers the
   * unsubscribe function. An event of another server sharing the database names that server (`from`).
   */
  on(listener: (event: EngineEvent, from?: string) => void): () => void;
  /**
   * Subscribes a caller to the events about what they may see (what their lists would show): the
   * credential is asked for at each event, so a sign-out or a lost right stops the flow at once.
   */
  watch(credential: () => CallOptions, listener: (event: EngineEvent) => void): () => void;
  invoke(id: string, input: RawInput, options: CallOptions): Promise<InvokeResult>;
  /**
   * Checks an operation's credential and permission before its input is read (HTTP does this
   * before it reads a body): the principal to pass on as `options.principal`, or the answer.
   */
  authenticate(id: string, options: CallOptions): Promise<Authenticated | { refused: InvokeResult }>;
  /** An API key of the tenant owner's; `firstStart`: the one-time key `serve` writes for the first-run form. */
  issueOwnerKey(o?: { firstStart?: boolean }): Promise<string>;
  readonly runner: RequestRunner;
  readonly scheduler: Scheduler;
  /** User directories' synchronizations (queued by the scheduler, or asked for). */
  readonly directorySyncs: DirectorySyncs;
  readonly reloads: AppReloads;
  /** Scheduled backups; tests with an injected clock call `backups.tick()`. */
  readonly backups: BackupSchedule;
  readonly outbox: MailOutbox;
  /** Deliveries kept after their run, tried again until they arrive. */
  readonly deliveries: DeliveryQueue;
  /** Stored secrets the secrets key could not open (a data folder restored without its key): to enter again. */
  readonly secretsToReenter: string[];
  close(o?: CloseOptions): Promise<void>;
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

/**
 * Starts the engine on a data folder. A restore staged by `app.backups.restore` is put in place
 * first; the data it replaced is kept until the restored data has started, and comes back whole if
 * it does not.
 */
export async function createEngine(options: EngineOptions): Promise<Engine> {
  // Before any render or import thread starts: their collections stay on their own threads.
  keepCollectionsOnTheirThreads();
  keepNativeFreedPagesBriefly();
  await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  const restore = await applyPendingRestore(options.dataDir);
  if (restore.secretKey) await options.secretKeys.save(restore.secretKey);
  try {
    // A backup restored without its key (asked for: "passwords are entered again") brings secrets
    // this key cannot open: the engine starts and lists them rather than refusing its own restore.
    const engine = await startEngine(
      restore.applied && !restore.secretKey ? { ...options, secretKeyMismatch: 'start-anyway' } : options,
    );
    await confirmRestore(options.dataDir);
    return engine;
  } catch (e) {
    if (restore.applied && (await rollBackRestore(options.dataDir))) {
      throw new Error(
        `The restored data could not start (${(e as Error).message}); the data from before the restore is back in place`,
      );
    }
    throw e;
  }
}

/**
 * The engine started in named steps: the data folder and its database, the event bus and the other
 * servers, the analytics store and the secrets, the services and their workers, then the engine's
 * own face (its calls, its events, its close). Each step hands the next what it made.
 */
async function startEngine(options: EngineOptions): Promise<Engine> {
  const log = options.logger ?? silentLogger;
  const clock = options.now ?? (() => new Date());
  const uploadsDir = await prepareDataFolder(options);
  const db = await openStore(options, clock, log);
  const bus = eventBus();
  const node = { owner: options.nodeId ?? 'local', leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS, timers: true };
  const signInThrottle = new SignInGuard(() => clock().getTime());
  // Servers sharing PostgreSQL hear each other's events, wakes and stops; what this one does when
  // asked is served once its workers exist (`connectWorkers`).
  const peers: PeerLink | null = options.database
    ? await linkPeers(db, node, { deliver: bus.deliver, on: bus.on, signIns: signInThrottle }, log).catch(
        async (e: unknown) => {
          await db.destroy();
          throw e;
        },
      )
    : null;
  const emit = (event: EngineEvent) => {
    options.notify?.(event);
    bus.deliver(event);
    peers?.announce(event);
  };
  const analytics = await openAnalytics(options, db, clock, log);
  const queues = new WriteQueues(options.database ? advisoryStoreLock(db) : undefined);
  if (!options.database) transactionsTakeTurns(db, queues);
  const catalogue = buildCatalogue(OPERATIONS);
  // Before anything is sealed: the key must be the one the database's secrets were sealed with.
  const opened = await openSecrets(db, options.secretKeys, {
    now: clock(),
    startAnyway: options.secretKeyMismatch === 'start-anyway',
  }).catch(async (e: unknown) => {
    await peers?.close();
    await db.destroy();
    throw e;
  });
  if (opened.toReenter.length)
    log.warn('Stored passwords sealed with another secrets key must be entered again', {
      secrets: opened.toReenter.join('; '),
    });
  const base = baseServices(
    options,
    { db, secrets: opened.box, clock, log, emit, uploadsDir, signInThrottle },
    {
      queues,
      catalogue,
      analytics,
    },
  );
  const parts = await buildWorkers(options, base, peers, node);
  connectWorkers(parts, peers, analytics, log);
  // Sign-ins counted before this start (a restart, or other servers' guesses) still count.
  await replaySignIns(parts.services);
  // Under the write lock: servers starting together on one database make one owner between them.
  const firstStart = await parts.services.write(() => ensureFirstStart(parts.services, options.ownerEmail));
  const background = await startBackground(options, parts, firstStart, log);
  const dispatcher = new Dispatcher(parts.services, catalogue, queues, resolveCredential, rememberedCredential);
  return engineFace({
    catalogue,
    parts,
    firstStart,
    background,
    bus,
    dispatcher,
    log,
    opened,
    queues,
    analytics,
    peers,
    db,
  });
}

/** The data folder made ready: the user's alone, a restore's or a crash's leftovers gone; answers the uploads folder. */
async function prepareDataFolder(options: EngineOptions): Promise<string> {
  // The data folder and the database are the user's alone, whatever the process umask.
  await chmod(options.dataDir, 0o700);
  await removeBackupLeftovers(options.dataDir);
  // Uploads live only while their operation runs: any left here were cut off by a crash.
  // Servers sharing the folder (one PostgreSQL database) each empty only their own.
  const uploadsDir = uploadsDirOf(options.dataDir, options.database ? (options.nodeId ?? 'local') : undefined);
  await rm(uploadsDir, { recursive: true, force: true });
  for (const sub of ['files', 'logs', 'apps'])
    await mkdir(join(options.dataDir, sub), { recursive: true, mode: 0o700 });
  await mkdir(uploadsDir, { recursive: true, mode: 0o700 });
  return uploadsDir;
}

/** The database, migrated: the data folder's SQLite file, or the shared PostgreSQL; a stop's half imports removed. */
async function openStore(options: EngineOptions, clock: () => Date, log: Logger): Promise<DataSource> {
  const db: DataSource = options.database
    ? await openPostgres(options.database, { entities: ENTITIES, migrations: POSTGRES_MIGRATIONS })
    : await openDatabase(options.dataDir, {
        entities: ENTITIES,
        migrations: MIGRATIONS,
        release: options.release,
        snapshot: SCHEMA_SNAPSHOT,
      });
  if (!options.database) await chmod(join(options.dataDir, DB_FILE), 0o600);
  const cutImports = await removeUnfinishedImports(db, clock());
  if (cutImports.length)
    log.warn('Project imports cut off by a stop were removed: import their files again', {
      projects: cutImports.join(', '),
    });
  return db;
}

type Listener = (event: EngineEvent, from?: string) => void;
type Analytics = ReturnType<typeof openEmbeddedAnalytics>;

/** The engine's events as heard here: every listener, and the host's own subscriptions. */
function eventBus() {
  const listeners = new Set<Listener>();
  return {
    listeners,
    deliver: (event: EngineEvent, from?: string) => {
      for (const l of listeners) l(event, from);
    },
    on: (listener: Listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The embedded analytics store, with what an import or the first start's demo cut off removed and recorded. */
async function openAnalytics(options: EngineOptions, db: DataSource, clock: () => Date, log: Logger) {
  const analytics = openEmbeddedAnalytics(join(options.dataDir, 'apps'), options.importLimits, !!options.database);
  // Nothing else runs on this folder yet.
  const leftovers = await analytics.removeLeftovers();
  if (leftovers.files)
    log.info('Removed what interrupted imports left in the apps folder', {
      files: leftovers.files,
      megabytes: Math.round(leftovers.bytes / 2 ** 20),
    });
  await recordInterruptedImports(db, leftovers.interrupted, clock());
  return analytics;
}

/** What every operation and worker is given, before the workers exist. */
function baseServices(
  options: EngineOptions,
  made: Pick<BaseServices, 'db' | 'secrets' | 'log' | 'emit' | 'uploadsDir' | 'signInThrottle'> & { clock: () => Date },
  parts: { queues: WriteQueues; catalogue: ReadonlyMap<string, AnyOp>; analytics: Analytics },
): BaseServices {
  const { queues, catalogue, analytics } = parts;
  const memberOperations = [...catalogue.values()].flatMap((op) =>
    op.member ? [{ id: op.id, method: op.http.method, member: op.member }] : [],
  );
  return {
    db: made.db,
    secrets: made.secrets,
    now: made.clock,
    log: made.log,
    emit: made.emit,
    dataDir: options.dataDir,
    deliveryRetry: options.storageRetry ?? DELIVERY_RETRY,
    houseFolders: [options.dataDir, ...(options.secretKeys.file ? [dirname(options.secretKeys.file)] : [])],
    files: folderFileStore(join(options.dataDir, 'files')),
    uploadsDir: made.uploadsDir,
    passwords: passwordHashing(options.passwordWork),
    signInThrottle: made.signInThrottle,
    write: (fn) => queues.run(MAIN_STORE, fn),
    guardedWrite: options.database ? (fn) => fn() : (fn) => queues.run(MAIN_STORE, fn),
    writeTo: (store, fn) => queues.run(store, fn),
    callableOperations: (p) => [...catalogue.values()].filter((op) => permits(p, op.permission)).map((op) => op.id),
    memberOperations: () => memberOperations,
    analytics,
    embedded: analytics,
    renders: options.renders ?? new RenderPool(),
    address: { http: null },
    cloud: { ...CLOUD_ENDPOINTS, ...options.cloudEndpoints },
    installation: {
      schemaVersion: MIGRATIONS.length,
      release: options.release ?? null,
      secretKey: () => options.secretKeys.load(),
      backupStallMs: options.backupStallMs,
    },
  };
}

/** The workers, each built from the base and the doors it needs, in the order they need them; and the whole services. */
async function buildWorkers(
  options: EngineOptions,
  base: BaseServices,
  peers: PeerLink | null,
  node: { owner: string; leaseMs: number; timers: boolean },
) {
  const { log, now: clock } = base;
  // Servers sharing PostgreSQL hand queued requests out through pg-boss (loaded only then).
  // Under the write lock: pg-boss makes its queue with a statement servers starting together deadlock on.
  const handoff = options.database
    ? await base.write(() =>
        openBossHandoff(options.database!, {
          queue: REQUEST_QUEUE,
          supervise: true,
          log: (message, e) => log.error(message, { error: e.message }),
        }),
      )
    : undefined;
  const logLineFailed = (requestId: string) => (e: Error) =>
    log.error('A request log line could not be written', { requestId, error: e.message });
  /** A line in a run's own log, written by a worker after the run (its mail, its kept deliveries). */
  const runLogLine = (requestId: string, line: string) =>
    new RequestLog(requestLogPath(options.dataDir, requestId), clock, logLineFailed(requestId))
      .line(line)
      .catch(logLineFailed(requestId));
  const outbox = new MailOutbox({ ...base, peers }, runLogLine, options.mail, node);
  const deliveries = new DeliveryQueue({ ...base, peers }, runLogLine, options.deliveries, node);
  const runner = new RequestRunner(
    { ...base, outbox, deliveries, peers },
    {
      ...node,
      concurrency: options.concurrentRequests,
      handoff,
      storageRetry: options.storageRetry,
      outageWaitMs: options.outageWaitMs,
    },
  );
  const directorySyncs = new DirectorySyncs({ ...base, outbox, peers }, node);
  const reloads = new AppReloads({ ...base, peers }, node);
  const scheduler = new Scheduler({ ...base, requests: runner }, () => runner.wake(), {
    timers: options.schedulerTimers,
    sources: [directorySchedules(() => directorySyncs.wake()), reloadSchedules(() => reloads.wake())],
  });
  // The engine as operations see it: whole from here on.
  const services: EngineServices = {
    ...base,
    requests: runner,
    scheduler,
    outbox,
    deliveries,
    directorySyncs,
    reloads,
    peers,
  };
  const backups = new BackupSchedule(services, { timers: options.schedulerTimers });
  // The areas' background work, started in this order and stopped in the reverse: each worker stops
  // while what it hands work to still runs (the scheduler before the runs it queues, the runs before
  // the outbox that sends their mail). Each first takes back what a crash or a dead server cut off.
  const workers: WorkerModule[] = [outbox, deliveries, reloads, directorySyncs, runner, backups, scheduler];
  return { services, workers, runner, scheduler, outbox, deliveries, directorySyncs, reloads, backups };
}

type Parts = Awaited<ReturnType<typeof buildWorkers>>;

/** What other servers ask of this one, and what a reload sets off (its event, the tasks listening to it). */
function connectWorkers(parts: Parts, peers: PeerLink | null, analytics: Analytics, log: Logger) {
  const { runner, outbox, deliveries, directorySyncs, reloads, scheduler } = parts;
  const kernels = {
    requests: runner.kernel,
    mail: outbox.kernel,
    deliveries: deliveries.kernel,
    syncs: directorySyncs.kernel,
    reloads: reloads.kernel,
  };
  peers?.serve({
    stopHere: (id) => runner.stopHere(id),
    wakeHere: (queue) => kernels[queue].nudge(),
    cancelReloadHere: (appId) => reloads.cancelHere(appId),
  });
  analytics.onReload((appId) => {
    parts.services.emit({ type: 'analytics.reloaded', payload: { appId } });
    void scheduler
      .onReload(appId)
      .catch((e: unknown) =>
        log.error('Tasks listening to a reload could not be queued', { error: (e as Error).message }),
      );
  });
}

/**
 * The background work: the workers (after the host's first answer when it asks so) and the first
 * start's demo. The demo's 110,000 rows load in the background: the engine answers at once. A
 * marker says the demo is still to be made until it is, so a first start cut off (a stop, a full
 * disk) makes it at the next start instead of leaving half an app.
 */
async function startBackground(
  options: EngineOptions,
  parts: Parts,
  firstStart: { created: boolean; ownerId: string },
  log: Logger,
) {
  const state = { closing: false, began: false };
  const startWorkers = async () => {
    state.began = true;
    for (const worker of parts.workers)
      if (!state.closing) await worker.start(workContext(parts.services, worker.name));
  };
  const ready = options.backgroundAfter ? Promise.resolve(options.backgroundAfter).then(startWorkers) : startWorkers();
  // Awaited by the host (and by close); a start that fails is not an unhandled rejection meanwhile.
  ready.catch(() => undefined);
  if (!options.backgroundAfter) await ready;
  // The columnar store's reader loads while nothing waits for it, not at the first read after an import.
  ready
    .then(() => (state.closing ? undefined : parts.services.embedded.warm()))
    .catch((e: unknown) => log.warn('The analytics store could not be made ready', { error: (e as Error).message }));
  const demoMarker = join(options.dataDir, DEMO_PENDING);
  const demoWanted = options.demo !== false && (firstStart.created || existsSync(demoMarker));
  if (demoWanted && firstStart.created) await writeFile(demoMarker, '', { mode: 0o600 });
  const demo = demoWanted
    ? ready
        .then(() => (state.closing ? undefined : seedDemoContent(parts.services, firstStart.ownerId)))
        .then(() => rm(demoMarker, { force: true }))
        .catch((e: unknown) => log.error('Demo content could not be created', { error: (e as Error).message }))
    : Promise.resolve();
  return { state, ready, demo };
}

/** The engine as its host holds it: calls answered in envelopes, events to listen to, and its close. */
function engineFace(e: {
  catalogue: ReadonlyMap<string, AnyOp>;
  parts: Parts;
  firstStart: { created: boolean; ownerId: string };
  background: Awaited<ReturnType<typeof startBackground>>;
  bus: ReturnType<typeof eventBus>;
  dispatcher: Dispatcher;
  log: Logger;
  opened: { toReenter: string[] };
  queues: WriteQueues;
  analytics: Analytics;
  peers: PeerLink | null;
  db: DataSource;
}): Engine {
  const { parts, background, dispatcher, log } = e;
  const { services } = parts;
  const answerFailure = (id: string, err: unknown): InvokeResult => {
    if (isEngineError(err)) return refusal(err);
    // A full disk under the files (an upload, an import's data file): the same call succeeds once there is room.
    if (isDiskFull(err)) {
      log.warn('The disk holding the data is full', {
        op: id,
        error: err instanceof Error ? err.message : String(err),
      });
      return refusal(diskFull());
    }
    // The database restarting or out of reach: the caller may try again, told when (503, Retry-After).
    if (isDatabaseUnavailable(err)) {
      log.warn('The database could not be reached', {
        op: id,
        error: err instanceof Error ? err.message : String(err),
      });
      return refusal(databaseUnavailable(err));
    }
    // Unexpected faults are logged with the operation id only: inputs may carry secrets.
    log.error('Operation failed', { op: id, error: err instanceof Error ? err.message : String(err) });
    return { status: 500, envelope: failure('Internal error; the log has the details') };
  };
  return {
    catalogue: e.catalogue,
    services,
    firstStart: e.firstStart,
    demoReady: background.demo.then(() => undefined),
    backgroundReady: background.ready,
    on: e.bus.on,
    watch(credential, listener) {
      // Checked one after another, so the subscriber sees events in the order they happened.
      let chain = Promise.resolve();
      const deliver = (event: EngineEvent) => {
        chain = chain.then(async () => {
          const options = credential();
          // Resolved as the credential stands now, without counting as a failed sign-in when it has lapsed.
          const token = options.token?.trim();
          const principal =
            token && token.length <= 512 ? await resolveCredential(services, token).catch(() => null) : null;
          const ctx: OpContext = {
            ...services,
            principal,
            transport: options.transport,
            client: options.client ?? options.transport,
            operation: EVENT_STREAM_OPERATION,
          };
          if (principal && (await mayReceive(ctx, event).catch(() => false))) listener(event);
        });
      };
      e.bus.listeners.add(deliver);
      return () => e.bus.listeners.delete(deliver);
    },
    async invoke(id, input, callOptions) {
      try {
        const result = await dispatcher.call(id, input, callOptions);
        if (result instanceof FileResult) {
          return {
            status: 200,
            envelope: success({
              fileName: result.fileName,
              mime: result.mime,
              size: result.data.length,
            }) as Envelope<unknown>,
            file: result,
          };
        }
        return { status: 200, envelope: success(result) as Envelope<unknown> };
      } catch (err) {
        return answerFailure(id, err);
      }
    },
    async authenticate(id, callOptions) {
      try {
        return await dispatcher.authenticate(dispatcher.operation(id), callOptions);
      } catch (err) {
        return { refused: answerFailure(id, err) };
      }
    },
    issueOwnerKey: (o) => issueOwnerKey(services, e.firstStart.ownerId, o),
    secretsToReenter: e.opened.toReenter,
    runner: parts.runner,
    scheduler: parts.scheduler,
    outbox: parts.outbox,
    deliveries: parts.deliveries,
    directorySyncs: parts.directorySyncs,
    reloads: parts.reloads,
    backups: parts.backups,
    async close(o: CloseOptions = {}) {
      // A start under way finishes first; one not begun yet never begins.
      background.state.closing = true;
      if (background.state.began) await background.ready.catch(() => undefined);
      for (const worker of [...parts.workers].reverse()) await worker.close({ graceMs: o.graceMs ?? 0 });
      if (background.state.began) await background.demo;
      await e.queues.drain();
      await services.renders.close();
      await e.analytics.close();
      await e.peers?.close();
      await e.db.destroy();
    },
  };
}

function refusal(e: EngineError): InvokeResult {
  const result: InvokeResult = { status: e.status, envelope: failure(e.message, e.details) };
  if ((e.status === 429 || e.status === 503) && e.retryAfterMs > 0)
    result.retryAfter = retryAfterSeconds(e.retryAfterMs);
  return result;
}
