import { defineOp } from '../../ops/op.js';
import { idParam } from '../../core/validation.js';
import {
  deleteMailServer,
  listMailServers,
  MailServerInput,
  saveMailServer,
  testMailServer,
} from './mail-servers.rules.js';
import { MailServerResult, MailServersListResult, MailServersTestResult } from './mail.results.js';
import { DeletedResult } from '../common.results.js';

export const mailServersV1 = [
  defineOp({
    id: 'v1.mailServers.create',
    summary: 'Add mail server',
    http: { method: 'POST', path: '/api/v1/mail-servers' },
    permission: 'editSettings',
    tenantWide: 'A mail server',
    input: { body: MailServerInput },
    result: MailServerResult,
    handler: (ctx, { body }) => saveMailServer(ctx, null, body),
  }),
  defineOp({
    id: 'v1.mailServers.update',
    summary: 'Update mail server',
    http: { method: 'PUT', path: '/api/v1/mail-servers/{id}' },
    permission: 'editSettings',
    objects: { 'params.id': 'mailServer' },
    tenantWide: 'A mail server',
    input: { params: idParam, body: MailServerInput },
    result: MailServerResult,
    handler: (ctx, { params, body }) => saveMailServer(ctx, params.id, body),
  }),
  // Sends a real mail and waits for the server: outside the write queue, nothing is written.
  defineOp({
    id: 'v1.mailServers.test',
    summary: "Test mail server configuration (sends a test mail, answers the server's reply)",
    http: { method: 'POST', path: '/api/v1/mail-servers/test' },
    permission: 'editSettings',
    readOnly: true,
    input: { body: MailServerInput },
    result: MailServersTestResult,
    handler: (ctx, { body }) => testMailServer(ctx, body),
  }),
  defineOp({
    id: 'app.mailServers.list',
    summary: 'Mail servers (passwords never answered)',
    http: { method: 'GET', path: '/api/v1/mail-servers' },
    permission: 'viewSettings',
    result: MailServersListResult,
    handler: (ctx) => listMailServers(ctx),
  }),
  defineOp({
    id: 'app.mailServers.delete',
    summary: 'Delete a mail server',
    http: { method: 'DELETE', path: '/api/v1/mail-servers/{id}' },
    permission: 'editSettings',
    objects: { 'params.id': 'mailServer' },
    tenantWide: 'A mail server',
    input: { params: idParam },
    result: DeletedResult,
    handler: (ctx, { params }) => deleteMailServer(ctx, params.id),
  }),
] as const;
