import { REPORT_FILE_MIMES } from '../../render/formats.js';
import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { idParam, v } from '../../core/validation.js';
import {
  deleteRequest, deleteTasks, downloadLog, getRequest, LIST_ON_DEMAND_STATUSES, LIST_REQUESTS, LIST_SCHEDULED_STATUSES, listRequests, listScheduledStatuses,
  queueReport, requestFileUri, requestLog, requestResult, runById, stopById,
} from './requests.rules.js';
import { OnDemandResult, RequestResult, RequestsDownloadFileResult, RequestsListScheduledStatusesResult, RequestsLogResult, RequestsStopResult } from './requests.results.js';
import { DeletedResult } from '../common.results.js';

// Requests of both sets, and the reference product's on-demand paths its public clients call.
// Operations that queue, stop or delete run outside the main write queue (`chunked`): the runner
// they wait on writes through that queue itself.

const FieldSelection = z.object({
  fieldName: v.text(), selectedCount: v.int().nullable().optional(),
  selectedValues: z.array(z.union([z.string().max(1000), z.number()]).transform(String)).max(10_000), isNumeric: v.obool().nullable(),
});
/** Set A 2.16, plus the `connectionId` the reference product's clients send. */
const OnDemandBody = z.object({
  id: v.nuuid(), type: v.nstr(64),
  config: z.object({ reportId: v.uuid(), outputFormat: v.text(32) }),
  selections: z.array(FieldSelection).max(100).nullable().optional(),
  appId: v.nstr(200), connectionId: v.nuuid(),
  ignoreExistingFilters: v.obool(), overrideReportApp: v.obool(),
});
const Version = z.object({ version: v.nstr(300) });

const onDemand = (body: z.output<typeof OnDemandBody>) => ({
  reportId: body.config.reportId, outputFormat: body.config.outputFormat,
  selections: Object.fromEntries((body.selections ?? []).map((s) => [s.fieldName, s.selectedValues])),
  appId: body.appId, connectionId: body.connectionId, overrideReportApp: body.overrideReportApp, ignoreExistingFilters: body.ignoreExistingFilters,
});

export const requestsOps = [
  defineOp({ id: 'v1.requests.listScheduledStatuses', summary: 'List scheduled task statuses', http: { method: 'GET', path: '/api/v1/request-statuses/scheduled' }, permission: 'viewTaskStatus', member: { task: 'view' }, list: LIST_SCHEDULED_STATUSES, result: RequestsListScheduledStatusesResult, handler: (ctx, { list }) => listScheduledStatuses(ctx, list) }),
  defineOp({ id: 'v1.requests.listOnDemandStatuses', summary: 'List on-demand request statuses', http: { method: 'GET', path: '/api/v1/request-statuses/on-demand' }, permission: 'viewTaskStatus', member: { report: 'view' }, list: LIST_ON_DEMAND_STATUSES, result: RequestResult, handler: (ctx, { list }) => listRequests(ctx, list, true) }),
  defineOp({
    id: 'v1.onDemand.generate', summary: 'Generate and execute an on-demand report request', http: { method: 'POST', path: '/api/v1/ondemand/requests' }, permission: 'viewProject', member: { report: 'run' }, writes: 'chunked',
    input: { body: OnDemandBody }, result: OnDemandResult, handler: (ctx, { body }) => queueReport(ctx, onDemand(body)),
  }),
  defineOp({ id: 'app.onDemand.list', summary: 'On-demand requests (of one project with projectId)', http: { method: 'GET', path: '/api/v1/ondemand/requests' }, permission: 'viewProject', member: { report: 'view' }, list: LIST_ON_DEMAND_STATUSES, result: RequestResult, handler: (ctx, { list }) => listRequests(ctx, list, true) }),
  defineOp({ id: 'app.onDemand.get', summary: 'One request with its status, progress and files', http: { method: 'GET', path: '/api/v1/ondemand/requests/{id}' }, permission: 'viewProject', member: { report: 'view' }, input: { params: idParam }, result: OnDemandResult, handler: (ctx, { params }) => getRequest(ctx, params.id) }),
  defineOp({ id: 'app.onDemand.delete', summary: 'Delete an on-demand request (stopped first), its log and files', http: { method: 'DELETE', path: '/api/v1/ondemand/requests/{id}' }, permission: 'viewProject', member: { report: 'run' }, writes: 'chunked', input: { params: idParam }, result: DeletedResult, handler: (ctx, { params }) => deleteRequest(ctx, params.id) }),
  defineOp({ id: 'app.onDemand.result', summary: 'The file a request made (a zip when several)', http: { method: 'GET', path: '/api/v1/ondemand/requests/{id}/result' }, permission: 'viewProject', member: { report: 'view' }, input: { params: idParam, query: Version }, files: REPORT_FILE_MIMES, handler: (ctx, { params, query }) => requestResult(ctx, params.id, query.version ?? undefined) }),
  defineOp({ id: 'app.requests.list', summary: 'Requests, newest first (a task\'s history with task_id)', http: { method: 'GET', path: '/api/v1/requests' }, permission: 'viewTaskStatus', member: { task: 'view', report: 'view' }, list: LIST_REQUESTS, result: RequestResult, handler: (ctx, { list }) => listRequests(ctx, list) }),
  defineOp({ id: 'app.requests.log', summary: 'A request\'s log as text', http: { method: 'GET', path: '/api/v1/requests/{id}/log' }, permission: 'viewTaskStatus', member: { task: 'view', report: 'view' }, input: { params: idParam }, result: RequestsLogResult, handler: async (ctx, { params }) => ({ text: (await requestLog(ctx, params.id)).text }) }),
  defineOp({ id: 'v2.requests.run', summary: 'Run a task or report request', http: { method: 'POST', path: '/api/v2/requests/{id}/run' }, permission: 'runTask', member: { task: 'run', report: 'run' }, writes: 'chunked', input: { params: idParam }, result: OnDemandResult, handler: (ctx, { params }) => runById(ctx, params.id) }),
  defineOp({ id: 'v2.requests.stop', summary: 'Stop a task or request', http: { method: 'POST', path: '/api/v2/requests/{id}/stop' }, permission: 'runTask', member: { task: 'run', report: 'run' }, writes: 'chunked', input: { params: idParam }, result: RequestsStopResult, handler: (ctx, { params }) => stopById(ctx, params.id) }),
  defineOp({ id: 'v2.requests.downloadLog', summary: 'Download the log file of a request', http: { method: 'GET', path: '/api/v2/requests/{id}/log' }, permission: 'viewTaskStatus', member: { task: 'view', report: 'view' }, input: { params: idParam }, files: ['text/plain; charset=utf-8'], handler: (ctx, { params }) => downloadLog(ctx, params.id) }),
  defineOp({ id: 'v2.requests.delete', summary: 'Delete a request (stops it first; removes its logs and files)', http: { method: 'DELETE', path: '/api/v2/requests/{id}' }, permission: 'runTask', member: { task: 'run', report: 'run' }, writes: 'chunked', input: { params: idParam }, result: DeletedResult, handler: (ctx, { params }) => deleteRequest(ctx, params.id) }),
  defineOp({ id: 'v2.requests.downloadFile', summary: 'Where the file a request made can be downloaded (its URI)', http: { method: 'GET', path: '/api/v2/requests/{id}/file' }, permission: 'viewTaskStatus', member: { task: 'view', report: 'view' }, input: { params: idParam, query: Version }, result: RequestsDownloadFileResult, handler: (ctx, { params, query }) => requestFileUri(ctx, params.id, query.version ?? undefined) }),
  defineOp({ id: 'app.tasks.delete', summary: 'Delete tasks (their running requests are stopped first)', http: { method: 'DELETE', path: '/api/v1/tasks' }, permission: 'deleteTask', member: { task: 'delete' }, writes: 'chunked', input: { body: v.uuidList() }, result: DeletedResult, handler: (ctx, { body }) => deleteTasks(ctx, body) }),
] as const;
