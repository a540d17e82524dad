import type { z } from 'zod';
import { badInput, EngineError, forbidden, notFound, unauthorized } from './errors.js';
import type { AnyOp } from './op.js';
import type { EngineServices, OpContext, Principal, Transport } from './context.js';
import { parseListQuery } from './list-query.js';
import { issuesToFieldErrors } from './zod-errors.js';
import { AuditEntry } from './audit.entity.js';
import { resolveCredential } from '../features/auth/principal.js';
import type { Requirement } from './permissions.js';

export interface RawInput {
  params?: unknown;
  query?: unknown;
  body?: unknown;
}

export interface CallOptions {
  token?: string | null;
  transport: Transport;
  /** Rate-limit key for failed credential checks (the caller's address). */
  client?: string;
}

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
  if (principal.isTenantOwner || principal.isTenantAdmin) return true;
  if (requirement === 'tenantAdmin') return false;
  return principal.permissions[requirement] === true;
}

function parsePart(part: string, schema: z.ZodType | undefined, value: unknown): unknown {
  if (!schema) return value;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = issuesToFieldErrors(part, result.error);
  throw badInput(`Invalid ${part}: ${details.map((d) => `${d.field} ${d.message}`).join('; ')}`, details);
}

/**
 * Runs one operation the same way for every transport: credential → permission → input → handler.
 * Writes go one at a time through a queue (SQLite has one writer, and TypeORM's sqlite driver
 * shares one connection between transactions).
 */
export class Dispatcher {
  private writeQueue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly services: EngineServices,
    readonly catalogue: Map<string, AnyOp>,
    private readonly onCredentialFailure: (client: string) => void,
    private readonly credentialBlocked: (client: string) => number,
  ) {}

  async call(id: string, input: RawInput, options: CallOptions): Promise<unknown> {
    const op = this.catalogue.get(id);
    if (!op) throw notFound(`Operation ${JSON.stringify(String(id)).slice(0, 80)}`);
    const principal = await this.authenticate(op.permission, options);
    const parsed = {
      params: parsePart('params', op.input.params, input.params ?? {}),
      query: op.list ? undefined : parsePart('query', op.input.query, input.query ?? {}),
      body: parsePart('body', op.input.body, input.body),
      list: op.list ? parseListQuery(op.list, (input.query ?? {}) as Record<string, unknown>) : undefined,
    };
    const ctx: OpContext = { ...this.services, principal, transport: options.transport, client: options.client ?? options.transport };
    if (op.http.method === 'GET' || op.readOnly) return op.handler(ctx, parsed as never);
    return this.serialized(async () => {
      const result = await op.handler(ctx, parsed as never);
      await this.audit(op, ctx, input, result);
      return result;
    });
  }

  private async authenticate(requirement: Requirement, options: CallOptions): Promise<Principal | null> {
    const client = options.client ?? options.transport;
    const token = options.token?.trim();
    let principal: Principal | null = null;
    if (token) {
      const wait = this.credentialBlocked(client);
      if (wait > 0) throw new EngineError(429, `Too many failed credential checks; try again in ${Math.ceil(wait / 1000)} s`);
      principal = await resolveCredential(this.services, token);
      if (!principal) {
        this.onCredentialFailure(client);
        if (requirement !== 'public') throw unauthorized('The session or API key is not valid (expired, revoked, or the user is inactive)');
      }
    }
    if (requirement === 'public') return principal;
    if (!principal) throw unauthorized();
    if (!permits(principal, requirement)) {
      throw forbidden(requirement === 'tenantAdmin' ? 'Only a tenant administrator may do this' : `Missing permission: ${requirement}`);
    }
    return principal;
  }

  private serialized<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.writeQueue.then(fn, fn);
    this.writeQueue = run.catch(() => undefined);
    return run;
  }

  private async audit(op: AnyOp, ctx: OpContext, input: RawInput, result: unknown): Promise<void> {
    const params = (input.params ?? {}) as Record<string, unknown>;
    const created = result && typeof result === 'object' && 'id' in result ? String((result as { id: unknown }).id) : null;
    const target = typeof params.id === 'string' ? params.id : created;
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
