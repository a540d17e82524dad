import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { openDatabase } from './core/db.js';
import { SecretBox, type SecretKeyStore } from './core/secrets.js';
import { Dispatcher, buildCatalogue, type CallOptions, type RawInput } from './core/dispatch.js';
import type { EngineEvent, EngineServices, Logger } from './core/context.js';
import { failure, success, type Envelope } from './core/envelope.js';
import { isEngineError } from './core/errors.js';
import { FileResult } from './core/file-result.js';
import { OPERATIONS } from './catalogue.js';
import { AttemptLimiter } from './features/auth/attempt-limiter.js';
import { ensureFirstStart, issueOwnerKey } from './features/setup/first-start.js';
import type { AnyOp } from './core/op.js';
import { EmbeddedProvider } from './analytics/embedded/embedded-provider.js';
import { RenderPool } from './render/render-pool.js';
import { seedDemoContent } from './features/setup/demo-content.js';

/** What the host gives the engine: paths, clock, logger, secret protection, notifications. */
export interface EngineOptions {
  dataDir: string;
  secretKeys: SecretKeyStore;
  ownerEmail?: string;
  now?: () => Date;
  logger?: Logger;
  notify?: (event: EngineEvent) => void;
  /** Create the demo app and project on first start (default true). */
  demo?: boolean;
}

/** An envelope plus the status a transport reports it with; a file answer also carries the file. */
export interface InvokeResult {
  status: number;
  envelope: Envelope<unknown>;
  file?: FileResult;
}

export interface Engine {
  readonly catalogue: ReadonlyMap<string, AnyOp>;
  readonly services: EngineServices;
  readonly firstStart: { created: boolean; ownerId: string };
  /** Settles when the first-start demo content (app data, project, report) is in place. */
  readonly demoReady: Promise<void>;
  /** Subscribes to engine events (progress, reloads); answers the unsubscribe function. */
  on(listener: (event: EngineEvent) => void): () => void;
  invoke(id: string, input: RawInput, options: CallOptions): Promise<InvokeResult>;
  issueOwnerKey(): Promise<string>;
  close(): Promise<void>;
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

export async function createEngine(options: EngineOptions): Promise<Engine> {
  await mkdir(options.dataDir, { recursive: true });
  for (const sub of ['files', 'logs', 'apps']) await mkdir(join(options.dataDir, sub), { recursive: true });
  const db: DataSource = await openDatabase(options.dataDir);
  const log = options.logger ?? silentLogger;
  const listeners = new Set<(event: EngineEvent) => void>();
  const emit = (event: EngineEvent) => {
    options.notify?.(event);
    for (const l of listeners) l(event);
  };
  const analytics = new EmbeddedProvider(join(options.dataDir, 'apps'));
  analytics.onReload((appId) => emit({ type: 'analytics.reloaded', payload: { appId } }));
  const services: EngineServices = {
    db,
    secrets: await SecretBox.open(options.secretKeys),
    now: options.now ?? (() => new Date()),
    log,
    emit,
    dataDir: options.dataDir,
    loginLimiter: new AttemptLimiter(10, 15 * 60_000),
    analytics,
    renders: new RenderPool(),
  };
  const credentialLimiter = new AttemptLimiter(30, 60_000);
  const catalogue = buildCatalogue(OPERATIONS);
  const dispatcher = new Dispatcher(services, catalogue, (c) => credentialLimiter.fail(c), (c) => credentialLimiter.retryAfter(c));
  const firstStart = await ensureFirstStart(services, options.ownerEmail);
  // The demo's 110,000 rows load in the background: the engine answers at once.
  const demoReady =
    firstStart.created && options.demo !== false
      ? seedDemoContent(services, firstStart.ownerId).catch((e: unknown) => log.error('Demo content could not be created', { error: (e as Error).message }))
      : Promise.resolve();

  return {
    catalogue,
    services,
    firstStart,
    demoReady: demoReady.then(() => undefined),
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async invoke(id, input, callOptions) {
      try {
        const result = await dispatcher.call(id, input, callOptions);
        if (result instanceof FileResult) {
          return { status: 200, envelope: success({ fileName: result.fileName, mime: result.mime, size: result.data.length }) as Envelope<unknown>, file: result };
        }
        return { status: 200, envelope: success(result) as Envelope<unknown> };
      } catch (e) {
        if (isEngineError(e)) return { status: e.status, envelope: failure(e.message, e.details) };
        // Unexpected faults are logged with the operation id only: inputs may carry secrets.
        log.error('Operation failed', { op: id, error: e instanceof Error ? e.message : String(e) });
        return { status: 500, envelope: failure('Internal error; the log has the details') };
      }
    },
    issueOwnerKey: () => issueOwnerKey(services, firstStart.ownerId),
    async close() {
      await demoReady;
      await services.renders.close();
      await analytics.close();
      await db.destroy();
    },
  };
}
