import type { z } from 'zod';
import type { Requirement } from '../core/permissions.js';
import type { ListSpec, ListQuery } from '../core/list-query.js';
import type { EngineServices, OpContext } from './context.js';
import type { UploadedFile } from './receive-upload.js';
import type { MemberDeclaration } from '../model/members.entity.js';
import type { ObjectRefs } from '../access/object-kinds.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export type WritePlan = 'chunked' | { store: (raw: { params?: unknown }) => string };

export interface HttpSpec {
  method: HttpMethod;
  path: string;
  /** Larger bodies than the server's default (imports). */
  bodyLimit?: number;
}

type Infer<T> = T extends z.ZodType ? z.output<T> : undefined;
type InferIn<T> = T extends z.ZodType ? z.input<T> : undefined;

export interface OpInputSchemas<P, Q, B> {
  params?: P;
  query?: Q;
  body?: B;
}

export interface HandlerInput<P, Q, B> {
  params: Infer<P>;
  query: Infer<Q>;
  body: Infer<B>;
  /** The common list parameters, parsed; present on list operations only. */
  list: ListQuery;
  /** Upload operations: the request body, received as a file (removed when the handler returns). */
  upload: UploadedFile;
}

/** One operation of the catalogue: everything else (routes, OpenAPI, IPC, client types) derives from it. */
export interface OpDefinition<
  Id extends string = string,
  P extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R = unknown,
  S extends z.ZodType | undefined = z.ZodType | undefined,
> {
  id: Id;
  summary: string;
  http: HttpSpec;
  permission: Requirement;
  /**
   * The operation changes an object every organization shares (a mail server, sign-in settings, an
   * identity provider, a user directory), named here for the refusal: besides its permission, only a
   * tenant administrator, or someone whose organizations are all there are, may call it.
   */
  tenantWide?: string;
  input: OpInputSchemas<P, Q, B>;
  /** A POST that only reads (complex inputs such as selections): not serialized with writes, not audited. */
  readOnly?: boolean;
  /**
   * Where the operation's writes queue. By default the whole handler runs on the main database's
   * queue. `store` names another store (an analytics app's data file) whose queue the handler runs
   * on; `chunked` handlers queue each chunk themselves through `ctx.write`, so a long import lets
   * short writes through between its chunks.
   */
  writes?: WritePlan;
  /** Operations that start a session (sign-in, setup, new password) or end it (log-out) say so. */
  session?: 'start' | 'end';
  /**
   * The request body is a file itself (`application/octet-stream` over HTTP, bytes over IPC), not
   * JSON: received to disk as it arrives, up to `http.bodyLimit`, and given to the handler as `upload`.
   */
  upload?: boolean;
  /**
   * Work an upload operation starts once every check has passed and its file begins to arrive (an
   * import's thread loading meanwhile), so it is ready when the file is.
   */
  whileUploading?: (services: EngineServices) => void;
  /** List operations take the common list parameters (set A section 4) with these sorts and filters. */
  list?: ListSpec;
  /**
   * The member-bounded objects (projects and their reports, filters, conditions, tasks) the operation
   * touches, and what it does to each: member permissions check exactly that flag.
   */
  member?: MemberDeclaration;
  /**
   * Every id the input takes, and the kind of object it names (`{ 'params.id': 'report' }`): the
   * dispatcher answers 404 for an object of an organization the caller does not belong to before the
   * handler runs. An id-shaped input left undeclared fails the catalogue's test.
   */
  objects?: ObjectRefs;
  /**
   * The content types of the file the operation answers instead of an envelope (the document says
   * them; the dispatcher refuses to send a file of a type not declared here).
   */
  files?: readonly string[];
  /**
   * What `data` holds on success (for a list operation: one item). The API document gives it as
   * JSON Schema, the conformance suite checks every answer against it, the catalogue checks at
   * compile time that the handler's answer fits it, and the typed client's result type is its output.
   */
  result?: S;
  handler: (ctx: OpContext, input: HandlerInput<P, Q, B>) => Promise<R>;
}

export function defineOp<
  const Id extends string,
  R,
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  S extends z.ZodType | undefined = undefined,
>(spec: {
  id: Id;
  summary: string;
  http: HttpSpec;
  permission: Requirement;
  tenantWide?: string;
  input?: OpInputSchemas<P, Q, B>;
  readOnly?: boolean;
  writes?: WritePlan;
  session?: 'start' | 'end';
  list?: ListSpec;
  member?: MemberDeclaration;
  objects?: ObjectRefs;
  files?: readonly string[];
  upload?: boolean;
  whileUploading?: (services: EngineServices) => void;
  result?: S;
  handler: (ctx: OpContext, input: HandlerInput<P, Q, B>) => Promise<R>;
}): OpDefinition<Id, P, Q, B, R, S> {
  return { ...spec, input: spec.input ?? {} };
}

/** What a caller passes for an operation: the same three parts over HTTP and IPC. */
export type OpCallInput<O> =
  O extends OpDefinition<string, infer P, infer Q, infer B, unknown, z.ZodType | undefined>
    ? {
        params?: InferIn<P>;
        query?: Q extends z.ZodType ? InferIn<Q> : Record<string, string | number | boolean>;
        body?: InferIn<B>;
      }
    : never;

/** What the handler answers (before the wire: a Page, a file). */
export type OpResult<O> =
  O extends OpDefinition<string, infer _P, infer _Q, infer _B, infer R, z.ZodType | undefined> ? Awaited<R> : never;
/** The result schema an operation declares (undefined for a file or an operation that declares none). */
export type OpResultSchema<O> =
  O extends OpDefinition<string, infer _P, infer _Q, infer _B, unknown, infer S> ? S : never;

export type AnyOp = OpDefinition<string, any, any, any, any, any>;
