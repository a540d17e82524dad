import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { FileResult } from '../core/file-result.js';
import type { z } from 'zod';
import { mayChangeTenantWide, tenantWideRefusal } from './tenant-wide.js';
import { badInput, forbidden, notFound, retryAfterSeconds, tooMany, unauthorized } from '../core/errors.js';
import type { AnyOp } from './op.js';
import { receiveUpload, type UploadedFile } from './receive-upload.js';
import type { EngineServices, OpContext, Principal, Transport } from './context.js';
import { parseListQuery } from '../core/list-query.js';
import { issuesToFieldErrors } from '../core/zod-errors.js';
import { AuditEntry } from '../core/audit.entity.js';
import type { Requirement } from '../core/permissions.js';
import { guardInput } from '../core/input-guard.js';
import { DEFAULT_BODY_LIMIT } from '../core/limits.js';
import { MAIN_STORE, type WriteQueues } from '../core/write-queue.js';
import { Throttle, TOKEN_RULE } from '../core/throttle.js';
import { roleRefusal } from '../access/in-words.js';
import { refuseForeignObjects } from '../access/object-wall.js';
import { APP_CHANGE_REFUSAL, changesAnApp, refuseSharedAppChange } from '../access/app-change-wall.js';
import { isTenantAdministrator } from '../access/tenant-administrator.js';

/** The longest credential read: session tokens and keys are short; a signed JWT (RSA 4096, claims) is not. */
const CREDENTIAL_MAX = 8192;

export interface RawInput {
  params?: unknown;
  query?: unknown;
  body?: unknown;
}

export interface CallOptions {
  token?: string | null;
  transport: Transport;
  /** Throttle key for failed credential checks (the caller's address). */
  client?: string;
  /** A principal the transport already resolved for this call (HTTP checks it before reading the body). */
  principal?: Principal | null;
  /** With a remembered principal: whether the file is still as it was when it was read (see `Authenticated`). */
  unchanged?: Promise<boolean>;
  /** Read the credential from the database, never from what is remembered (a call run again after a change). */
  fresh?: boolean;
  /** An upload operation's body as the transport has it: written to disk only once the call is allowed. */
  upload?: Readable | Buffer;
}

/** Resolves a bearer credential to a principal, or null when it is not valid now. */
export type CredentialResolver = (services: EngineServices, token: string) => Promise<Principal | null>;

/**
 * A principal remembered from an earlier call, and whether nothing changed the file since (one trip
 * to SQLite, asked at once): a reading operation starts meanwhile and answers only once it is true.
 */
export type RememberedResolver = (
  services: EngineServices,
  token: string,
) => { principal: Principal; unchanged: Promise<boolean> } | null;

/** The caller as authenticated, and for a remembered principal the confirmation still to come. */
export interface Authenticated {
  principal: Principal | null;
  unchanged?: Promise<boolean>;
}

/** A call that read with a remembered principal the file changed under: it runs again, reading the credential. */
class ChangedMeanwhile extends Error {}

/** Operations that only read: they may start before a remembered principal is confirmed. */
const onlyReads = (op: AnyOp) => (op.http.method === 'GET' || op.readOnly === true) && !op.upload;

/** Builds the catalogue map; a duplicate id fails at start. */
export function buildCatalogue(ops: readonly AnyOp[]): Map<string, AnyOp> {
  const map = new Map<string, AnyOp>();
  for (const op of ops) {
    if (map.has(op.id)) throw new Error(`Duplicate operation id in the catalogue: ${op.id}`);
    map.set(op.id, op);
  }
  return map;
}

export function permits(principal: Principal, requirement: Requirement): boolean {
  if (requirement === 'public' || requirement === 'authenticated') return true;
  if (isTenantAdministrator(principal)) return true;
  if (requirement === 'tenantAdmin') return false;
  return principal.permissions[requirement] === true;
}

/** The body limit of an operation, on every transport. */
export const bodyLimitOf = (op: AnyOp) => op.http.bodyLimit ?? DEFAULT_BODY_LIMIT;

function parsePart(part: string, schema: z.ZodType | undefined, value: unknown): unknown {
  if (!schema) return value;
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  const details = issuesToFieldErrors(part, result.error);
  throw badInput(`Invalid ${part}: ${details.map((d) => `${d.field} ${d.message}`).join('; ')}`, details);
}

/** A file answer's type must be one the operation declares, so the API document never lies about it. */
function declaredFileType(op: AnyOp, file: FileResult) {
  const base = (mime: string) => mime.split(';')[0].trim().toLowerCase();
  if (!op.files?.some((m) => base(m) === base(file.mime)))
    throw new Error(`${op.id} answered a file of type ${file.mime}, which its definition does not declare`);
}

/**
 * Runs one operation the same way for every transport: credential → permission → input guard →
 * validation → handler. Writes queue per store (SQLite has one writer, and TypeORM's sqlite driver
 * shares one connection between transactions).
 */
export class Dispatcher {
  /** Bad bearer tokens per address: growing delays, never a refusal of a valid credential. */
  private readonly badTokens: Throttle;

  constructor(
    private readonly services: EngineServices,
    readonly catalogue: Map<string, AnyOp>,
    private readonly queues: WriteQueues,
    private readonly resolveCredential: CredentialResolver,
    private readonly rememberedCredential: RememberedResolver = () => null,
  ) {
    this.badTokens = new Throttle(TOKEN_RULE, () => services.now().getTime());
  }

  operation(id: string): AnyOp {
    const op = this.catalogue.get(id);
    if (!op) throw notFound(`Operation ${JSON.stringify(String(id)).slice(0, 80)}`);
    return op;
  }

  async call(id: string, input: RawInput, options: CallOptions): Promise<unknown> {
    const op = this.operation(id);
    const result = await this.run(op, input, options);
    if (result instanceof FileResult) declaredFileType(op, result);
    return result;
  }

  private async run(op: AnyOp, input: RawInput, options: CallOptions): Promise<unknown> {
    try {
      return await this.runAs(op, input, options);
    } catch (e) {
      if (!(e instanceof ChangedMeanwhile)) throw e;
      return this.runAs(op, input, { ...options, principal: undefined, unchanged: undefined, fresh: true });
    }
  }

  private async runAs(op: AnyOp, input: RawInput, options: CallOptions): Promise<unknown> {
    const { principal, unchanged } =
      options.principal !== undefined
        ? { principal: options.principal, unchanged: options.unchanged }
        : await this.authenticate(op, options);
    guardInput({ params: input.params, query: input.query, body: input.body }, bodyLimitOf(op));
    // The organization wall: an object of another organization answers 404 before anything else is
    // said of the call (its fields' problems included) and before a byte of an upload is kept.
    if (op.objects) {
      const named = { params: input.params ?? {}, query: input.query ?? {}, body: input.body };
      await refuseForeignObjects({ db: this.services.db, principal }, op.objects, named);
      // A shared analytics app: changed only by who may change every guarded project that uses it.
      await refuseSharedAppChange(
        { db: this.services.db, principal },
        { method: op.http.method, readOnly: op.readOnly },
        op.objects,
        named,
      );
    }
    const parsed = {
      params: parsePart('params', op.input.params, input.params ?? {}),
      query: op.list ? undefined : parsePart('query', op.input.query, input.query ?? {}),
      body: parsePart('body', op.input.body, input.body),
      list: op.list ? parseListQuery(op.list, (input.query ?? {}) as Record<string, unknown>) : undefined,
      upload: undefined as UploadedFile | undefined,
    };
    if (op.upload) {
      if (!options.upload)
        throw badInput(`Send the file itself as the request body (${op.http.method} ${op.http.path})`, [
          { field: 'body', message: 'is the file, sent as application/octet-stream' },
        ]);
      op.whileUploading?.(this.services);
      parsed.upload = await receiveUpload(this.services.uploadsDir, options.upload, bodyLimitOf(op));
    }
    try {
      return await this.handle(op, input, options, principal, parsed, unchanged);
    } finally {
      if (parsed.upload) await rm(parsed.upload.path, { force: true });
    }
  }

  private async handle(
    op: AnyOp,
    input: RawInput,
    options: CallOptions,
    principal: Principal | null,
    parsed: Record<string, unknown>,
    unchanged?: Promise<boolean>,
  ): Promise<unknown> {
    const ctx: OpContext = {
      ...this.services,
      principal,
      transport: options.transport,
      client: options.client ?? options.transport,
      operation: { id: op.id, method: op.http.method, member: op.member },
    };
    if (unchanged && onlyReads(op)) return this.readConfirmed(op, ctx, parsed, unchanged);
    if (unchanged && !(await unchanged)) throw new ChangedMeanwhile();
    if (op.http.method === 'GET' || op.readOnly) return op.handler(ctx, parsed as never);
    if (op.writes === 'chunked') {
      const result = await op.handler(ctx, parsed as never);
      // One new row, checked against nothing: it needs no other server's lock (`guardedWrite`).
      await this.services.guardedWrite(() => this.audit(op, ctx, input, result));
      return result;
    }
    const store = op.writes ? op.writes.store(input as { params?: unknown }) : MAIN_STORE;
    return this.queues.run(store, async () => {
      const result = await op.handler(ctx, parsed as never);
      // The audit trail lives in the main database: from another store's queue it waits its turn there.
      if (store === MAIN_STORE) await this.audit(op, ctx, input, result);
      else await this.services.guardedWrite(() => this.audit(op, ctx, input, result));
      return result;
    });
  }

  /**
   * A reading operation under a remembered principal: it runs while SQLite says whether another
   * engine changed the file since the principal was read, and answers only once it has not. What
   * it would write waits for that too; when the file did change, the call runs again with the
   * credential read anew (it may no longer be valid).
   */
  private async readConfirmed(
    op: AnyOp,
    ctx: OpContext,
    parsed: Record<string, unknown>,
    unchanged: Promise<boolean>,
  ): Promise<unknown> {
    const gated: OpContext = {
      ...ctx,
      write: (fn) => unchanged.then((yes) => (yes ? this.services.write(fn) : Promise.reject(new ChangedMeanwhile()))),
    };
    const [outcome, yes] = await Promise.all([
      Promise.resolve()
        .then(() => op.handler(gated, parsed as never))
        .then(
          (result) => ({ result }),
          (error: unknown) => ({ error }),
        ),
      unchanged,
    ]);
    if (!yes) throw new ChangedMeanwhile();
    if ('error' in outcome) throw outcome.error;
    return outcome.result;
  }

  /**
   * The caller's principal for an operation, or the error to answer. A valid credential is always
   * accepted, whatever others sent before; invalid ones from one address slow down with growing
   * delays (429 with Retry-After).
   */
  async authenticate(op: AnyOp, options: CallOptions): Promise<Authenticated> {
    const client = options.client ?? options.transport;
    const token = options.token?.trim();
    let principal: Principal | null = null;
    let unchanged: Promise<boolean> | undefined;
    if (token && token.length <= CREDENTIAL_MAX && !options.fresh) {
      const known = this.rememberedCredential(this.services, token);
      // Only a reader starts before the confirmation; any other call waits for it here.
      if (known && onlyReads(op)) ({ principal, unchanged } = known);
      else if (known && (await known.unchanged)) principal = known.principal;
    }
    if (token && !principal) {
      principal = token.length <= CREDENTIAL_MAX ? await this.resolveCredential(this.services, token) : null;
      if (!principal) {
        const wait = this.badTokens.retryAfter(client);
        if (wait > 0)
          throw tooMany(
            `Too many invalid credentials from this address; try again in ${retryAfterSeconds(wait)} s`,
            wait,
          );
        this.badTokens.fail(client);
        if (op.permission !== 'public')
          throw unauthorized('The session or API key is not valid (expired, revoked, or the user is inactive)');
      }
    }
    if (op.permission === 'public') return { principal, unchanged };
    if (!principal) throw unauthorized();
    if (!permits(principal, op.permission)) {
      // Refused by a remembered principal: said only once the file is confirmed as it was.
      if (unchanged && !(await unchanged)) return this.authenticate(op, { ...options, fresh: true });
      throw forbidden(
        op.permission === 'tenantAdmin'
          ? 'Only a tenant administrator may do this'
          : op.permission === 'updateProject' &&
              changesAnApp({ method: op.http.method, readOnly: op.readOnly }, op.objects)
            ? APP_CHANGE_REFUSAL
            : roleRefusal(op.permission),
      );
    }
    if (op.tenantWide && !(await mayChangeTenantWide(this.services.db, principal)))
      throw forbidden(tenantWideRefusal(op.tenantWide));
    return { principal, unchanged };
  }

  private async audit(op: AnyOp, ctx: OpContext, input: RawInput, result: unknown): Promise<void> {
    const params = (input.params ?? {}) as Record<string, unknown>;
    const created =
      result && typeof result === 'object' && 'id' in result ? String((result as { id: unknown }).id) : null;
    const target = typeof params.id === 'string' ? params.id.slice(0, 64) : created;
    await ctx.db.getRepository(AuditEntry).insert({
      at: ctx.now(),
      userId: ctx.principal?.user.id ?? null,
      credential: ctx.principal ? `${ctx.principal.via}:${ctx.principal.credentialId}` : null,
      operation: op.id,
      targetId: target,
      transport: ctx.transport,
    });
  }
}
