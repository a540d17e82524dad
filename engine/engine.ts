import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { openDatabase } from './core/db.js';
import { SecretBox, type SecretKeyStore } from './core/secrets.js';
import { Dispatcher, buildCatalogue, type CallOptions, type RawInput } from './core/dispatch.js';
import type { EngineEvent, EngineServices, Logger } from './core/context.js';
import { failure, success, type Envelope } from './core/envelope.js';
import { isEngineError } from './core/errors.js';
import { OPERATIONS } from './catalogue.js';
import { AttemptLimiter } from './features/auth/attempt-limiter.js';
import { ensureFirstStart, issueOwnerKey } from './features/setup/first-start.js';
import type { AnyOp } from './core/op.js';

/** What the host gives the engine: paths, clock, logger, secret protection, notifications. */
export interface EngineOptions {
  dataDir: string;
  secretKeys: SecretKeyStore;
  ownerEmail?: string;
  now?: () => Date;
  logger?: Logger;
  notify?: (event: EngineEvent) => void;
}

/** An envelope plus the status a transport reports it with. */
export interface InvokeResult {
  status: number;
  envelope: Envelope<unknown>;
}

export interface Engine {
  readonly catalogue: ReadonlyMap<string, AnyOp>;
  readonly services: EngineServices;
  readonly firstStart: { created: boolean; ownerId: string };
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
  const services: EngineServices = {
    db,
    secrets: await SecretBox.open(options.secretKeys),
    now: options.now ?? (() => new Date()),
    log,
    emit: (event) => options.notify?.(event),
    dataDir: options.dataDir,
    loginLimiter: new AttemptLimiter(10, 15 * 60_000),
  };
  const credentialLimiter = new AttemptLimiter(30, 60_000);
  const catalogue = buildCatalogue(OPERATIONS);
  const dispatcher = new Dispatcher(services, catalogue, (c) => credentialLimiter.fail(c), (c) => credentialLimiter.retryAfter(c));
  const firstStart = await ensureFirstStart(services, options.ownerEmail);

  return {
    catalogue,
    services,
    firstStart,
    async invoke(id, input, callOptions) {
      try {
        return { status: 200, envelope: success(await dispatcher.call(id, input, callOptions)) as Envelope<unknown> };
      } catch (e) {
        if (isEngineError(e)) return { status: e.status, envelope: failure(e.message, e.details) };
        // Unexpected faults are logged with the operation id only: inputs may carry secrets.
        log.error('Operation failed', { op: id, error: e instanceof Error ? e.message : String(e) });
        return { status: 500, envelope: failure('Internal error; the log has the details') };
      }
    },
    issueOwnerKey: () => issueOwnerKey(services, firstStart.ownerId),
    close: () => db.destroy(),
  };
}
