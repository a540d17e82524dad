import { lazySchema } from '../../core/lazy-schema.js';
import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { idParam, v } from '../../core/validation.js';
import { createConnection, deleteConnection, listConnections, updateConnection } from './connections.rules.js';
import { ConnectionResult, ConnectionsListResult } from './connections.results.js';
import { DeletedResult } from '../common.results.js';

const ConnectionInput = lazySchema(() => z.object({ projectId: v.uuid(), name: v.text(), analyticsAppId: v.uuid() }));
/** A connection's fields but its project, which it keeps. */
const ConnectionUpdate = lazySchema(() => ConnectionInput.omit({ projectId: true }));
const ListQuery = lazySchema(() => z.object({ projectId: v.uuid().optional() }));

// Which apps a project's reports read is the project's own setting: changing it is editing the
// project (in permissions mode, its creator's or a tenant administrator's), not viewing it.
export const connectionsApp = [
  defineOp({
    id: 'app.connections.list',
    summary: 'List connections (of one project with ?projectId=)',
    http: { method: 'GET', path: '/api/v1/connections' },
    permission: 'viewProject',
    objects: { 'query.projectId': 'project' },
    member: { project: 'view' },
    input: { query: ListQuery },
    result: ConnectionsListResult,
    handler: (ctx, { query }) => listConnections(ctx, query.projectId),
  }),
  defineOp({
    id: 'app.connections.create',
    summary: 'Connect a project to an analytics app',
    http: { method: 'POST', path: '/api/app/connections' },
    permission: 'updateProject',
    objects: { 'body.analyticsAppId': 'analyticsApp', 'body.projectId': 'project' },
    member: { project: 'edit' },
    input: { body: ConnectionInput },
    result: ConnectionResult,
    handler: (ctx, { body }) => createConnection(ctx, body),
  }),
  defineOp({
    id: 'app.connections.update',
    summary: 'Rename a connection or point it at another app',
    http: { method: 'PUT', path: '/api/app/connections/{id}' },
    permission: 'updateProject',
    objects: { 'body.analyticsAppId': 'analyticsApp', 'params.id': 'connection' },
    member: { project: 'edit' },
    input: { params: idParam, body: ConnectionUpdate },
    result: ConnectionResult,
    handler: (ctx, { params, body }) => updateConnection(ctx, params.id, body),
  }),
  defineOp({
    id: 'app.connections.delete',
    summary: 'Delete a connection no report uses',
    http: { method: 'DELETE', path: '/api/app/connections/{id}' },
    permission: 'updateProject',
    objects: { 'params.id': 'connection' },
    member: { project: 'edit' },
    input: { params: idParam },
    result: DeletedResult,
    handler: (ctx, { params }) => deleteConnection(ctx, params.id),
  }),
] as const;
