import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { idParam, uuidParams, v } from '../../core/validation.js';
import { createTask, updateTask, updateTaskEmail } from './tasks.rules.js';
import { deleteTaskReports, saveTaskReport, taskReportDtoB } from './task-reports.rules.js';
import { deleteTaskRecipients, replaceTaskRecipients } from './task-recipients.rules.js';
import { deleteTrigger, deleteTriggers, getTrigger, saveExternalEvent, saveSchedule } from './task-triggers.rules.js';
import {
  EmailB,
  emailOfB,
  ExternalEventB,
  RecipientsB,
  ScheduleB,
  TaskCreateB,
  TaskReportB,
  TaskUpdateB,
} from './tasks.inputs.js';
import { taskReportInputB } from './task-report-input.js';
import { TaskBResult, TaskEmailBResult, TaskRecipientsAddResult, TaskReportBResult } from './tasks.results.js';
import { DeletedResult, TaskTriggerResult } from '../common.results.js';
import { withSetBIds } from '../../core/set-b-names.js';

// Set B: the same model, with this set's names (projectID, appID, taskScheduleID as a query parameter).
const optional = <K extends string>(key: K) =>
  z.object({ [key]: v.uuid().optional() } as Record<K, z.ZodOptional<z.ZodString>>);

export const tasksV2 = [
  defineOp({
    id: 'v2.tasks.create',
    summary: 'Create task',
    http: { method: 'POST', path: '/api/v2/tasks' },
    permission: 'createTask',
    objects: { 'body.projectID': 'project' },
    member: { task: 'create' },
    input: { body: TaskCreateB },
    result: TaskBResult,
    handler: async (ctx, { body }) =>
      withSetBIds(await createTask(ctx, { ...body, projectId: body.projectID }), 'projectId'),
  }),
  defineOp({
    id: 'v2.tasks.update',
    summary: 'Update task',
    http: { method: 'PUT', path: '/api/v2/tasks/{id}' },
    permission: 'editTask',
    objects: { 'params.id': 'task' },
    member: { task: 'edit' },
    input: { params: idParam, body: TaskUpdateB },
    result: TaskBResult,
    handler: async (ctx, { params, body }) => withSetBIds(await updateTask(ctx, params.id, body), 'projectId'),
  }),
  defineOp({
    id: 'v2.tasks.updateEmail',
    summary: 'Update task e-mail',
    http: { method: 'PUT', path: '/api/v2/tasks/{id}/email' },
    permission: 'editTask',
    objects: { 'body.bccAnalyticsVariable': 'none', 'body.ccAnalyticsVariable': 'none', 'params.id': 'task' },
    member: { task: 'edit' },
    input: { params: idParam, body: EmailB },
    result: TaskEmailBResult,
    handler: async (ctx, { params, body }) => {
      const { ccAnalyticsVariableId, bccAnalyticsVariableId, ...rest } = await updateTaskEmail(
        ctx,
        params.id,
        emailOfB(body),
      );
      return { ...rest, ccAnalyticsVariable: ccAnalyticsVariableId, bccAnalyticsVariable: bccAnalyticsVariableId };
    },
  }),
  defineOp({
    id: 'v2.tasks.updateRecipients',
    summary: 'Update task recipients',
    http: { method: 'PUT', path: '/api/v2/tasks/{id}/recipients' },
    permission: 'editTask',
    objects: { 'body[].id': ['user', 'group'], 'params.id': 'task' },
    member: { task: 'edit' },
    input: { params: idParam, body: RecipientsB },
    result: TaskRecipientsAddResult,
    handler: (ctx, { params, body }) => replaceTaskRecipients(ctx, params.id, body),
  }),
  defineOp({
    id: 'v2.tasks.deleteRecipients',
    summary: 'Delete task recipients',
    http: { method: 'DELETE', path: '/api/v2/tasks/{id}/recipients' },
    permission: 'editTask',
    objects: { 'body[]': ['user', 'group'], 'params.id': 'task' },
    member: { task: 'edit' },
    input: { params: idParam, body: v.uuidList() },
    result: DeletedResult,
    handler: (ctx, { params, body }) => deleteTaskRecipients(ctx, params.id, body),
  }),
  defineOp({
    id: 'v2.tasks.upsertSchedule',
    summary: 'Add or update a task schedule',
    http: { method: 'PUT', path: '/api/v2/tasks/{id}/schedules' },
    permission: 'editTask',
    objects: { 'params.id': 'task', 'query.taskScheduleID': 'taskTrigger' },
    member: { task: 'edit' },
    input: { params: idParam, query: optional('taskScheduleID'), body: ScheduleB },
    result: TaskTriggerResult,
    handler: (ctx, { params, query, body }) => saveSchedule(ctx, params.id, query.taskScheduleID ?? null, body),
  }),
  defineOp({
    id: 'v2.tasks.deleteSchedules',
    summary: 'Delete task schedules',
    http: { method: 'DELETE', path: '/api/v2/tasks/{id}/schedules' },
    permission: 'editTask',
    objects: { 'body[]': 'taskTrigger', 'params.id': 'task' },
    member: { task: 'edit' },
    input: { params: idParam, body: v.uuidList() },
    result: DeletedResult,
    handler: (ctx, { params, body }) => deleteTriggers(ctx, params.id, body, 'Schedule'),
  }),
  defineOp({
    id: 'v2.tasks.upsertExternalEvent',
    summary: 'Add or update a task external event',
    http: { method: 'PUT', path: '/api/v2/tasks/{id}/external-events' },
    permission: 'editTask',
    objects: { 'body.appID': 'analyticsApp', 'params.id': 'task', 'query.taskExternalEventID': 'taskTrigger' },
    member: { task: 'edit' },
    input: { params: idParam, query: optional('taskExternalEventID'), body: ExternalEventB },
    result: TaskTriggerResult,
    handler: (ctx, { params, query, body }) =>
      saveExternalEvent(ctx, params.id, query.taskExternalEventID ?? null, { ...body, appId: body.appID ?? null }),
  }),
  defineOp({
    id: 'v2.tasks.getExternalEvent',
    summary: 'Get a task external event',
    http: { method: 'GET', path: '/api/v2/tasks/{id}/external-events/{externalEventId}' },
    permission: 'viewTask',
    objects: { 'params.externalEventId': 'taskTrigger', 'params.id': 'task' },
    member: { task: 'view' },
    input: { params: uuidParams('id', 'externalEventId') },
    result: TaskTriggerResult,
    handler: (ctx, { params }) => getTrigger(ctx, params.id, params.externalEventId, 'ExternalEvent'),
  }),
  defineOp({
    id: 'v2.tasks.deleteExternalEvents',
    summary: 'Delete task external events',
    http: { method: 'DELETE', path: '/api/v2/tasks/{id}/external-events' },
    permission: 'editTask',
    objects: { 'body[]': 'taskTrigger', 'params.id': 'task' },
    member: { task: 'edit' },
    input: { params: idParam, body: v.uuidList() },
    result: DeletedResult,
    handler: (ctx, { params, body }) => deleteTriggers(ctx, params.id, body, 'ExternalEvent'),
  }),
  defineOp({
    id: 'v2.tasks.deleteExternalEvent',
    summary: 'Delete one task external event',
    http: { method: 'DELETE', path: '/api/v2/tasks/{id}/external-events/{externalEventId}' },
    permission: 'editTask',
    objects: { 'params.externalEventId': 'taskTrigger', 'params.id': 'task' },
    member: { task: 'edit' },
    input: { params: uuidParams('id', 'externalEventId') },
    result: DeletedResult,
    handler: (ctx, { params }) => deleteTrigger(ctx, params.id, params.externalEventId, 'ExternalEvent'),
  }),
  defineOp({
    id: 'v2.tasks.deleteTriggers',
    summary: 'Delete triggers',
    http: { method: 'DELETE', path: '/api/v2/tasks/{id}/triggers' },
    permission: 'editTask',
    objects: { 'body[]': 'taskTrigger', 'params.id': 'task' },
    member: { task: 'edit' },
    input: { params: idParam, body: v.uuidList() },
    result: DeletedResult,
    handler: (ctx, { params, body }) => deleteTriggers(ctx, params.id, body),
  }),
  defineOp({
    id: 'v2.tasks.upsertReport',
    summary: 'Add or update a task report',
    http: { method: 'PUT', path: '/api/v2/tasks/{id}/reports' },
    permission: 'editTask',
    objects: {
      'body.conditions[].id': 'condition',
      'body.fileStorage.fileStorageServiceID': 'storageService',
      'body.filters[].id': 'filter',
      'body.hub.folderID': 'hubFolder',
      'body.reportID': 'report',
      'body.storageServices[].fileStorageServiceID': 'storageService',
      'body.storageServices[].id': 'none',
      'params.id': 'task',
      'query.taskReportID': 'taskReport',
    },
    member: { task: 'edit' },
    input: { params: idParam, query: optional('taskReportID'), body: TaskReportB },
    result: TaskReportBResult,
    handler: async (ctx, { params, query, body }) =>
      taskReportDtoB(ctx, await saveTaskReport(ctx, params.id, query.taskReportID ?? null, taskReportInputB(body))),
  }),
  defineOp({
    id: 'v2.tasks.deleteReports',
    summary: 'Delete task reports',
    http: { method: 'DELETE', path: '/api/v2/tasks/{id}/reports' },
    permission: 'editTask',
    objects: { 'body[]': 'taskReport', 'params.id': 'task' },
    member: { task: 'edit' },
    input: { params: idParam, body: v.uuidList() },
    result: DeletedResult,
    handler: (ctx, { params, body }) => deleteTaskReports(ctx, params.id, body),
  }),
] as const;
