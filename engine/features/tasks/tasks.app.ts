import { defineOp } from '../../ops/op.js';
import { v } from '../../core/validation.js';
import { DeletedResult } from '../common.results.js';
import { deleteTasks } from './tasks.rules.js';
import { idParam } from '../../core/validation.js';
import { TaskResult } from './tasks.results.js';
import { saveWholeTask, TaskSaveInput } from './task-save.js';
import { wholeTask, WholeTaskResult } from './whole-task.js';
import { previewSchedule } from './task-triggers.rules.js';
import { ScheduleA } from './tasks.inputs.js';
import { SchedulePreviewResult } from './tasks.results.js';

// Operations on tasks the interface does not name and a product needs.
export const tasksApp = [
  defineOp({
    id: 'app.tasks.delete',
    summary: 'Delete tasks (their running requests are stopped first)',
    http: { method: 'DELETE', path: '/api/v1/tasks' },
    permission: 'deleteTask',
    objects: { 'body[]': 'task' },
    member: { task: 'delete' },
    writes: 'chunked',
    input: { body: v.uuidList() },
    result: DeletedResult,
    handler: (ctx, { body }) => deleteTasks(ctx, body),
  }),
  defineOp({
    id: 'app.tasks.save',
    summary:
      'Save a whole task (settings, e-mail, reports, recipients, schedules and events) in one transaction: all or nothing',
    http: { method: 'PUT', path: '/api/app/tasks/{id}' },
    permission: 'editTask',
    objects: {
      'body.email.bccAnalyticsVariable': 'none',
      'body.email.ccAnalyticsVariable': 'none',
      'body.events[].appId': 'analyticsApp',
      'body.events[].id': 'taskTrigger',
      'body.recipients[].id': ['user', 'group'],
      'body.reports[].conditions[].id': 'condition',
      'body.reports[].fileStorage.fileStorageServiceID': 'storageService',
      'body.reports[].filters[].id': 'filter',
      'body.reports[].hub.folderID': 'hubFolder',
      'body.reports[].id': 'taskReport',
      'body.reports[].reportID': 'report',
      'body.reports[].storageServices[].fileStorageServiceID': 'storageService',
      'body.reports[].storageServices[].id': 'none',
      'body.schedules[].id': 'taskTrigger',
      'params.id': 'task',
    },
    member: { task: 'edit' },
    input: { params: idParam, body: TaskSaveInput },
    result: TaskResult,
    handler: (ctx, { params, body }) => saveWholeTask(ctx, params.id, body),
  }),
  defineOp({
    id: 'app.tasks.whole',
    summary:
      "The whole task in the shape app.tasks.save takes (GET it, change one thing, PUT it back), with what a page shows beside it under 'shown'",
    http: { method: 'GET', path: '/api/app/tasks/{id}' },
    permission: 'viewTask',
    readOnly: true,
    objects: { 'params.id': 'task' },
    member: { task: 'view' },
    input: { params: idParam },
    result: WholeTaskResult,
    handler: (ctx, { params }) => wholeTask(ctx, params.id),
  }),
  defineOp({
    id: 'app.schedules.preview',
    summary: "A schedule's sentence and next five runs, before it is saved",
    http: { method: 'POST', path: '/api/app/schedules/preview' },
    permission: 'viewTask',
    readOnly: true,
    input: { body: ScheduleA },
    result: SchedulePreviewResult,
    handler: (ctx, { body }) => previewSchedule(ctx.now(), body),
  }),
] as const;
