import { z } from 'zod';
import { FieldSelectionResult, TaskTriggerResult } from '../common.results.js';
import { lazySchema } from '../../core/lazy-schema.js';

// What this feature's operations answer in `data` (for a list: one item); see `result` on defineOp.

export const FilterPart = lazySchema(() =>
  z.object({
    selections: z.array(FieldSelectionResult),
    selectionsPreview: z.string().nullable(),
    bookmarkId: z.string().nullable(),
    bookmarkName: z.string().nullable(),
    appId: z.string().nullable(),
    serverAddress: z.string().nullable(),
  }),
);

export const SubscriptionResult = lazySchema(() =>
  z.object({
    id: z.string(),
    name: z.string().nullable(),
    description: z.string().nullable(),
    triggerType: z.enum(['Schedule', 'ExternalEvent']),
    type: z.enum(['Report', 'MultipleReports', 'AnalyticsEntity']),
    subscribeTo: z.string().nullable(),
    isActive: z.boolean(),
    reports: z.array(
      z.object({
        id: z.string(),
        name: z.string().nullable(),
        description: z.string().nullable(),
        formats: z.array(z.string()),
        zipEmailFiles: z.boolean(),
        emailAttachment: z.boolean(),
        emailEmbedment: z.boolean(),
        filter: FilterPart,
      }),
    ),
    analyticsEntity: z
      .object({
        id: z.string(),
        appId: z.string(),
        serverAddress: z.string().nullable(),
        type: z.string().nullable(),
        format: z.string(),
        width: z.number(),
        height: z.number(),
      })
      .nullable(),
    format: z.string().nullable(),
    filter: FilterPart,
    schedule: TaskTriggerResult.nullable(),
    externalEvent: TaskTriggerResult.nullable(),
    recipients: z.array(
      z.object({ id: z.string(), fullName: z.string(), email: z.string().nullable(), type: z.string() }),
    ),
    email: z.object({
      bc: z.string().nullable(),
      bcc: z.string().nullable(),
      ccAnalyticsVariableId: z.string().nullable(),
      bccAnalyticsVariableId: z.string().nullable(),
      subject: z.string(),
      message: z.string(),
    }),
    lastExecutionDate: z.string().nullable(),
    nextExecutionDate: z.string().nullable(),
    createdDate: z.string().nullable(),
    modifiedDate: z.string().nullable(),
  }),
);
