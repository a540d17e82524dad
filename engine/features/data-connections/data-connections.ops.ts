import { lazySchema } from '../../core/lazy-schema.js';
import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { idParam, v } from '../../core/validation.js';
import { DeletedResult } from '../common.results.js';
import { DATA_CONNECTION_KINDS, TLS_MODES } from '../../model/data-connections.entity.js';
import {
  DataConnectionInput,
  deleteDataConnections,
  LIST_DATA_CONNECTIONS,
  listDataConnections,
  saveDataConnection,
  testDataConnection,
} from './data-connections.rules.js';

const DataConnectionResult = lazySchema(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    kind: z.enum(DATA_CONNECTION_KINDS),
    host: z.string().nullable(),
    port: z.number().nullable(),
    database: z.string().nullable(),
    username: z.string().nullable(),
    hasPassword: z.boolean(),
    tls: z.enum(TLS_MODES),
    filePath: z.string().nullable(),
    organizationId: z.string().nullable(),
    createdDate: z.string().nullable(),
    modifiedDate: z.string().nullable(),
  }),
);

export const dataConnectionOps = [
  defineOp({
    id: 'app.dataConnections.list',
    summary: 'List the databases analytics apps load their data from (passwords never answered)',
    http: { method: 'GET', path: '/api/app/data-connections' },
    permission: 'viewSettings',
    list: LIST_DATA_CONNECTIONS,
    result: DataConnectionResult,
    handler: (ctx, { list }) => listDataConnections(ctx, list),
  }),
  defineOp({
    id: 'app.dataConnections.create',
    summary:
      'Add a data connection: a PostgreSQL or MySQL/MariaDB server, a SQLite file, or a folder of CSV/XLSX/JSON files',
    http: { method: 'POST', path: '/api/app/data-connections' },
    permission: 'editSettings',
    objects: { 'body.organizationId': 'organization' },
    input: { body: DataConnectionInput },
    result: DataConnectionResult,
    handler: (ctx, { body }) => saveDataConnection(ctx, null, body),
  }),
  defineOp({
    id: 'app.dataConnections.update',
    summary: 'Change a data connection (a password left out stays as it was)',
    http: { method: 'PUT', path: '/api/app/data-connections/{id}' },
    permission: 'editSettings',
    objects: { 'params.id': 'dataConnection', 'body.organizationId': 'organization' },
    input: { params: idParam, body: DataConnectionInput },
    result: DataConnectionResult,
    handler: (ctx, { params, body }) => saveDataConnection(ctx, params.id, body),
  }),
  defineOp({
    id: 'app.dataConnections.delete',
    summary: 'Delete data connections no app loads from',
    http: { method: 'DELETE', path: '/api/app/data-connections' },
    permission: 'editSettings',
    objects: { 'body[]': 'dataConnection' },
    input: { body: v.uuidList() },
    result: DeletedResult,
    handler: (ctx, { body }) => deleteDataConnections(ctx, body),
  }),
  defineOp({
    id: 'app.dataConnections.test',
    summary: 'Connect to a data connection and say what answered, or what failed in words',
    http: { method: 'POST', path: '/api/app/data-connections/{id}/test' },
    permission: 'editSettings',
    objects: { 'params.id': 'dataConnection' },
    readOnly: true,
    input: { params: idParam },
    result: z.object({ ok: z.boolean(), message: z.string() }),
    handler: (ctx, { params }) => testDataConnection(ctx, params.id),
  }),
] as const;
