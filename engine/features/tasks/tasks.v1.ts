import { defineOp } from '../../ops/op.js';
import { idParam, uuidParams, v } from '../../core/validation.js';
import { createTask, duplicateTask, LIST_TASKS, listTasks, reachableTask, setTasksActive, taskDto, updateTask, updateTaskEmail } from './tasks.rules.js';
import { deleteTaskReports, getTaskReport, LIST_TASK_REPORTS, listTaskReports, saveTaskReport } from './task-reports.rules.js';
import { addTaskRecipients, deleteTaskRecipients, LIST_TASK_RECIPIENTS, listTaskRecipients, updateTaskRecipient } from './task-recipients.rules.js';
import { deleteTrigger, deleteTriggers, getTrigger, LIST_TASK_TRIGGERS, listTaskTriggers, saveExternalEvent, saveSchedule } from './task-triggers.rules.js';
import { EmailA, ExternalEventA, RecipientA, RecipientsA, ScheduleA, TaskCreateA, TaskDuplicate, TaskReportA, TaskSetActive, TaskUpdateA } from './tasks.inputs.js';
import { taskReportInputA } from './task-report-input.js';

// Set A: tasks and everything a task holds. Paths follow the reference product where its public
// clients use them (/api/v1/tasks, /tasks/{id}/reports, /recipients, /triggers).
const taskId = uuidParams('taskId');

export const tasksV1 = [
  defineOp({ id: 'v1.tasks.create', summary: 'Add task', http: { method: 'POST', path: '/api/v1/tasks' }, permission: 'createTask', input: { body: TaskCreateA }, handler: (ctx, { body }) => createTask(ctx, body) }),
  defineOp({ id: 'v1.tasks.list', summary: 'List tasks', http: { method: 'GET', path: '/api/v1/tasks' }, permission: 'viewTask', list: LIST_TASKS, handler: (ctx, { list }) => listTasks(ctx, list) }),
  defineOp({ id: 'app.tasks.get', summary: 'One task with its settings and e-mail', http: { method: 'GET', path: '/api/v1/tasks/{id}' }, permission: 'viewTask', input: { params: idParam }, handler: async (ctx, { params }) => taskDto(await reachableTask(ctx, params.id)) }),
  defineOp({ id: 'v1.tasks.update', summary: 'Update task', http: { method: 'PUT', path: '/api/v1/tasks/{id}' }, permission: 'editTask', input: { params: idParam, body: TaskUpdateA }, handler: (ctx, { params, body }) => updateTask(ctx, params.id, body) }),
  defineOp({ id: 'v1.tasks.duplicate', summary: 'Duplicate task', http: { method: 'POST', path: '/api/v1/tasks/{id}/duplicate' }, permission: 'createTask', input: { params: idParam, body: TaskDuplicate }, handler: (ctx, { params, body }) => duplicateTask(ctx, params.id, body) }),
  defineOp({ id: 'v1.tasks.setActive', summary: 'Enable or disable tasks', http: { method: 'PUT', path: '/api/v1/tasks/enable' }, permission: 'editTask', input: { body: TaskSetActive }, handler: (ctx, { body }) => setTasksActive(ctx, body) }),

  defineOp({ id: 'v1.taskReports.list', summary: 'List task reports', http: { method: 'GET', path: '/api/v1/tasks/{id}/reports' }, permission: 'viewTask', input: { params: idParam }, list: LIST_TASK_REPORTS, handler: (ctx, { params, list }) => listTaskReports(ctx, params.id, list) }),
  defineOp({ id: 'v1.taskReports.create', summary: 'Add task report', http: { method: 'POST', path: '/api/v1/tasks/{taskId}/reports' }, permission: 'editTask', input: { params: taskId, body: TaskReportA }, handler: (ctx, { params, body }) => saveTaskReport(ctx, params.taskId, null, taskReportInputA(body)) }),
  defineOp({ id: 'v1.taskReports.update', summary: 'Update task report', http: { method: 'PUT', path: '/api/v1/tasks/{taskId}/reports/{taskReportId}' }, permission: 'editTask', input: { params: uuidParams('taskId', 'taskReportId'), body: TaskReportA }, handler: (ctx, { params, body }) => saveTaskReport(ctx, params.taskId, params.taskReportId, taskReportInputA(body)) }),
  defineOp({ id: 'v1.taskReports.deleteOne', summary: 'Delete one task report', http: { method: 'DELETE', path: '/api/v1/tasks/{taskId}/reports/{taskReportId}' }, permission: 'editTask', input: { params: uuidParams('taskId', 'taskReportId') }, handler: (ctx, { params }) => deleteTaskReports(ctx, params.taskId, [params.taskReportId]) }),
  defineOp({ id: 'v1.taskReports.delete', summary: 'Delete task reports', http: { method: 'DELETE', path: '/api/v1/tasks/{taskId}/reports' }, permission: 'editTask', input: { params: taskId, body: v.uuidList() }, handler: (ctx, { params, body }) => deleteTaskReports(ctx, params.taskId, body) }),
  defineOp({ id: 'app.tasks.getReport', summary: 'Get one task report with its report\'s name, type, formats, filters and conditions', http: { method: 'GET', path: '/api/v1/tasks/{taskId}/reports/{taskReportId}' }, permission: 'viewTask', readOnly: true, input: { params: uuidParams('taskId', 'taskReportId') }, handler: (ctx, { params }) => getTaskReport(ctx, params.taskId, params.taskReportId) }),

  defineOp({ id: 'v1.taskRecipients.list', summary: 'List task recipients', http: { method: 'GET', path: '/api/v1/tasks/{id}/recipients' }, permission: 'viewTask', input: { params: idParam }, list: LIST_TASK_RECIPIENTS, handler: (ctx, { params, list }) => listTaskRecipients(ctx, params.id, list) }),
  defineOp({ id: 'v1.taskRecipients.add', summary: 'Add recipients to a task', http: { method: 'POST', path: '/api/v1/tasks/{taskId}/recipients' }, permission: 'editTask', input: { params: taskId, body: RecipientsA }, handler: (ctx, { params, body }) => addTaskRecipients(ctx, params.taskId, body) }),
  defineOp({ id: 'v1.taskRecipients.delete', summary: 'Delete recipients from a task', http: { method: 'DELETE', path: '/api/v1/tasks/{taskId}/recipients' }, permission: 'editTask', input: { params: taskId, body: RecipientsA }, handler: (ctx, { params, body }) => deleteTaskRecipients(ctx, params.taskId, body.map((r) => r.id)) }),
  defineOp({ id: 'v1.taskRecipients.update', summary: 'Update a task user', http: { method: 'PUT', path: '/api/v1/tasks/{taskId}/recipients' }, permission: 'editTask', input: { params: taskId, body: RecipientA }, handler: (ctx, { params, body }) => updateTaskRecipient(ctx, params.taskId, body) }),

  defineOp({ id: 'v1.taskTriggers.list', summary: 'List task triggers', http: { method: 'GET', path: '/api/v1/tasks/{taskId}/triggers' }, permission: 'viewTask', input: { params: taskId }, list: LIST_TASK_TRIGGERS, handler: (ctx, { params, list }) => listTaskTriggers(ctx, params.taskId, list) }),
  defineOp({ id: 'v1.taskTriggers.delete', summary: 'Delete task triggers', http: { method: 'DELETE', path: '/api/v1/tasks/{taskId}/triggers' }, permission: 'editTask', input: { params: taskId, body: v.uuidList() }, handler: (ctx, { params, body }) => deleteTriggers(ctx, params.taskId, body) }),
  defineOp({ id: 'v1.taskSchedules.create', summary: 'Add task schedule', http: { method: 'POST', path: '/api/v1/tasks/{taskId}/triggers/schedules' }, permission: 'editTask', input: { params: taskId, body: ScheduleA }, handler: (ctx, { params, body }) => saveSchedule(ctx, params.taskId, null, body) }),
  defineOp({ id: 'v1.taskSchedules.update', summary: 'Update task schedule', http: { method: 'PUT', path: '/api/v1/tasks/{taskId}/triggers/schedules/{taskScheduleId}' }, permission: 'editTask', input: { params: uuidParams('taskId', 'taskScheduleId'), body: ScheduleA }, handler: (ctx, { params, body }) => saveSchedule(ctx, params.taskId, params.taskScheduleId, body) }),
  defineOp({ id: 'v1.taskSchedules.get', summary: 'Get task schedule', http: { method: 'GET', path: '/api/v1/tasks/{taskId}/triggers/schedules/{taskScheduleId}' }, permission: 'viewTask', input: { params: uuidParams('taskId', 'taskScheduleId') }, handler: (ctx, { params }) => getTrigger(ctx, params.taskId, params.taskScheduleId, 'Schedule') }),
  defineOp({ id: 'v1.taskSchedules.delete', summary: 'Delete task schedule', http: { method: 'DELETE', path: '/api/v1/tasks/{taskId}/triggers/schedules/{taskScheduleId}' }, permission: 'editTask', input: { params: uuidParams('taskId', 'taskScheduleId') }, handler: (ctx, { params }) => deleteTrigger(ctx, params.taskId, params.taskScheduleId, 'Schedule') }),
  defineOp({ id: 'v1.taskExternalEvents.create', summary: 'Add external event to a task', http: { method: 'POST', path: '/api/v1/tasks/{taskId}/triggers/external-events' }, permission: 'editTask', input: { params: taskId, body: ExternalEventA }, handler: (ctx, { params, body }) => saveExternalEvent(ctx, params.taskId, null, body) }),
  defineOp({ id: 'v1.taskExternalEvents.update', summary: 'Update task external event', http: { method: 'PUT', path: '/api/v1/tasks/{taskId}/triggers/external-events/{externalEventId}' }, permission: 'editTask', input: { params: uuidParams('taskId', 'externalEventId'), body: ExternalEventA }, handler: (ctx, { params, body }) => saveExternalEvent(ctx, params.taskId, params.externalEventId, body) }),
  defineOp({ id: 'v1.taskExternalEvents.delete', summary: 'Delete task external event', http: { method: 'DELETE', path: '/api/v1/tasks/{taskId}/triggers/external-events/{externalEventId}' }, permission: 'editTask', input: { params: uuidParams('taskId', 'externalEventId') }, handler: (ctx, { params }) => deleteTrigger(ctx, params.taskId, params.externalEventId, 'ExternalEvent') }),
  defineOp({ id: 'v1.taskExternalEvents.get', summary: 'Get task external event', http: { method: 'GET', path: '/api/v1/tasks/{taskId}/triggers/external-events/{taskExternalEventId}' }, permission: 'viewTask', input: { params: uuidParams('taskId', 'taskExternalEventId') }, handler: (ctx, { params }) => getTrigger(ctx, params.taskId, params.taskExternalEventId, 'ExternalEvent') }),
  defineOp({
    id: 'v1.taskEmail.update', summary: 'Update task e-mail', http: { method: 'PUT', path: '/api/v1/tasks/{taskId}/email' }, permission: 'editTask', input: { params: taskId, body: EmailA },
    handler: (ctx, { params, body }) => updateTaskEmail(ctx, params.taskId, {
      from: body.from ?? null, ccBcc: body.bcBcc ?? false, cc: body.bc ?? null, bcc: body.bcc ?? null, ccAnalyticsVariableId: body.ccAnalyticsVariableId ?? null,
      bccAnalyticsVariableId: body.bccAnalyticsVariableId ?? null, subject: body.subject, message: body.message, isActive: body.isActive ?? true, oneToAll: body.oneToAll ?? false,
    }),
  }),
] as const;
