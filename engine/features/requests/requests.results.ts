import { z } from 'zod';
import { FieldSelectionResult } from '../common.results.js';
import { lazySchema } from '../../core/lazy-schema.js';

// What this feature's operations answer in `data` (for a list: one item); see `result` on defineOp.

export const RequestsListScheduledStatusesResult = lazySchema(() =>
  z.object({
    id: z.string(),
    taskId: z.string(),
    name: z.string(),
    title: z.string(),
    projectId: z.string(),
    projectName: z.string().nullable(),
    isActive: z.boolean(),
    schedule: z.string(),
    outputFormats: z.array(z.string()),
    status: z.enum(['running', 'completed', 'failed', 'queued', 'warning', 'aborted']).nullable(),
    lastRequestId: z.string().nullable(),
    progress: z.object({ done: z.number(), total: z.number() }).nullable(),
    lastExecution: z.string().nullable(),
    executionEnd: z.string().nullable(),
    nextExecution: z.string().nullable(),
  }),
);

export const FilePart = lazySchema(() =>
  z.object({
    name: z.string(),
    size: z.number(),
    format: z.string(),
    iteration: z.array(z.string()),
  }),
);

export const OnDemandResult = lazySchema(() =>
  z.object({
    id: z.string(),
    kind: z.enum(['ScheduledTask', 'OnDemandReport', 'OnDemandTask']),
    source: z.string(),
    title: z.string(),
    projectId: z.string().nullable(),
    projectName: z.string().nullable(),
    taskId: z.string().nullable(),
    reportId: z.string().nullable(),
    triggerId: z.string().nullable(),
    scheduledFor: z.string().nullable(),
    catchUp: z.boolean(),
    status: z.enum(['running', 'completed', 'failed', 'queued', 'warning', 'aborted']),
    priority: z.number(),
    execution: z.enum(['Parallel', 'Serial']),
    outputFormats: z.array(z.string()),
    progress: z.object({ done: z.number(), total: z.number() }),
    files: z.array(FilePart),
    message: z.string().nullable(),
    createdDate: z.string().nullable(),
    modifiedDate: z.string().nullable(),
    executionStart: z.string().nullable(),
    executionEnd: z.string().nullable(),
    durationMs: z.number().nullable(),
    type: z.enum(['Report']).nullable(),
    config: z.object({ reportId: z.string(), outputFormat: z.string() }).nullable(),
    selections: z.array(FieldSelectionResult),
    appId: z.string().nullable(),
    ignoreExistingFilters: z.boolean(),
    overrideReportApp: z.boolean(),
  }),
);

/** A run in history: the request with its mail by status and its worst delivery problem in words. */
export const RequestResult = lazySchema(() =>
  OnDemandResult.extend({
    mail: z.record(z.string(), z.number()),
    deliveryProblem: z.string().nullable(),
  }),
);

export const RequestsLogResult = lazySchema(() => z.object({ text: z.string() }));

export const RequestsStopResult = lazySchema(() => z.union([OnDemandResult, z.object({ stopped: z.number() })]));

export const RequestsDownloadFileResult = lazySchema(() =>
  z.object({
    uri: z.string(),
    fileName: z.string(),
    size: z.number(),
    files: z.array(z.string()),
  }),
);
