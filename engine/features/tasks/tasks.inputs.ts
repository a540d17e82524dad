import { lazySchema } from '../../core/lazy-schema.js';
import { z } from 'zod';
import { v } from '../../core/validation.js';
import type { TaskEmail } from '../../model/tasks.entity.js';
import { endAfterStart, scheduleFields } from '../schedules/schedule-fields.js';

// The request bodies of both interface sets for tasks. Set A and set B name some fields differently
// (projectId / projectID, taskScheduleId / taskScheduleID); each set's operations map theirs onto
// the one model in tasks.rules.ts.

const nullable = <T extends z.ZodType>(t: T) => t.nullable().optional();

export const TaskCreateA = lazySchema(() => z.object({ name: v.text(), projectId: v.uuid(), description: v.nstr() }));
export const TaskCreateB = lazySchema(() => z.object({ name: v.text(), projectID: v.uuid(), description: v.nstr() }));

const notificationFields = {
  notifyIfError: nullable(v.bool()),
  notifyIfWarning: nullable(v.bool()),
  notifyIfSuccess: nullable(v.bool()),
  notificationRecipients: v.nstr(),
  notificationCc: v.nstr(),
  notificationBcc: v.nstr(),
  testMode: v.obool(),
  testModeRecipients: v.nstr(),
};
export const TaskUpdateA = lazySchema(() =>
  z.object({
    name: v.text(),
    description: v.nstr(),
    isActive: v.bool(),
    sendNotifications: v.obool(),
    ...notificationFields,
  }),
);
export const TaskUpdateB = lazySchema(() =>
  z.object({
    name: v.text(),
    description: v.nstr(),
    isActive: v.bool(),
    sendNotifications: v.bool(),
    ...notificationFields,
  }),
);
export type TaskSettings = z.output<typeof TaskUpdateA>;

export const OverwriteReportApps = z
  .array(
    z.object({
      reportId: v.uuid(),
      analyticsApps: z.array(z.object({ analyticsAppId: v.uuid(), newAnalyticsAppId: v.uuid() })).max(50),
    }),
  )
  .max(500);
export const TaskDuplicate = lazySchema(() =>
  z.object({
    newName: v.nstr(300),
    overwriteReportApps: OverwriteReportApps.nullable().optional(),
  }),
);
export const TaskSetActive = z
  .array(z.object({ id: v.uuid(), isActive: v.bool() }))
  .min(1)
  .max(1000);

export const ScheduleA = z
  .object({
    name: v.text(),
    isActive: v.obool(),
    priority: nullable(v.int()),
    timeZoneOfset: v.nstr(20),
    ...scheduleFields,
  })
  .superRefine(endAfterStart);
export const ScheduleB = z
  .object({ name: v.text(), priority: nullable(v.int()), ...scheduleFields })
  .superRefine(endAfterStart);
export type ScheduleInput = z.output<typeof ScheduleA> | z.output<typeof ScheduleB>;

export const ExternalEventA = z
  .object({
    name: v.text(),
    description: v.nstr(),
    appId: v.text(200),
    isActive: v.obool(),
    execution: nullable(v.oneOf(['Parallel', 'Serial'])),
    priority: nullable(v.int()),
    startDate: v.dateTime(),
    endDate: v.ndateTime(),
  })
  .superRefine(endAfterStart);
export const ExternalEventB = z
  .object({
    name: v.text(),
    description: v.nstr(),
    appID: v.nstr(200),
    execution: v.oneOf(['Parallel', 'Serial']),
    priority: v.int(),
    analyticsEvent: v.oneOf(['Reload']),
    startDate: v.dateTime(),
    endDate: v.ndateTime(),
    timeZone: v.nstr(64),
  })
  .superRefine(endAfterStart);

export const RecipientA = lazySchema(() =>
  z.object({
    id: v.uuid(),
    type: v.oneOf(['user', 'group']),
    sendEmail: v.bool(),
    seeInHub: v.bool(),
  }),
);
export const RecipientsA = z.array(RecipientA).min(1).max(10_000);
export const RecipientsB = z
  .array(z.object({ id: v.uuid(), type: v.oneOf(['user', 'group']) }))
  .min(1)
  .max(10_000);

export const EmailA = lazySchema(() =>
  z.object({
    taskId: v.uuid(),
    from: v.nmailbox(320),
    bcBcc: v.obool(),
    bc: v.nheader(4000),
    bcc: v.nheader(4000),
    ccAnalyticsVariableId: v.nuuid(),
    bccAnalyticsVariableId: v.nuuid(),
    subject: v.header(998),
    message: v.text(100_000),
    isActive: v.obool(),
    oneToAll: v.obool(),
    sendWithoutFiles: v.obool(),
  }),
);
export const EmailB = lazySchema(() =>
  z.object({
    from: v.mailbox(320),
    ccBcc: v.obool(),
    cc: v.nheader(4000),
    bcc: v.nheader(4000),
    ccAnalyticsVariable: v.nuuid(),
    bccAnalyticsVariable: v.nuuid(),
    subject: v.header(998),
    message: v.nstr(100_000),
    isActive: v.bool(),
    oneToAll: v.obool(),
    sendWithoutFiles: v.obool(),
  }),
);

/** A task's e-mail as set B sends it, in the task's stored shape. */
export const emailOfB = (body: z.output<typeof EmailB>): TaskEmail => ({
  from: body.from,
  ccBcc: body.ccBcc ?? false,
  cc: body.cc ?? null,
  bcc: body.bcc ?? null,
  ccAnalyticsVariableId: body.ccAnalyticsVariable ?? null,
  bccAnalyticsVariableId: body.bccAnalyticsVariable ?? null,
  subject: body.subject,
  message: body.message ?? null,
  isActive: body.isActive,
  oneToAll: body.oneToAll ?? false,
  sendWithoutFiles: body.sendWithoutFiles ?? false,
});

const secret = () => z.string().max(256).nullable().optional();
export const TaskReportA = lazySchema(() =>
  z.object({
    reportId: v.uuid(),
    format: v.text(32),
    zipFolderFiles: v.obool(),
    zipEmailFiles: v.obool(),
    evaluateConditionForEachIteration: v.obool(),
    folderVariable: v.nstr(),
    recipientsVariable: v.nstr(),
    ftpVariable: v.nstr(),
    hubAuthorizedUserVariable: v.nstr(),
    dropboxVariable: v.nstr(),
    onedriveVariable: v.nstr(),
    googledriveVariable: v.nstr(),
    emailAttachment: v.obool(),
    emailEmbedment: v.obool(),
    publishToServiceHub: v.obool(),
    maxFileOccurrences: nullable(z.number().int().min(0).max(100_000)),
    secureOutputFiles: v.obool(),
    fileOpenPassword: secret(),
    fileWritePassword: secret(),
    isOpenFilePasswordProtected: v.obool(),
    isWriteFilePasswordProtected: v.obool(),
    reportConditions: nullable(
      z.array(z.object({ id: v.nuuid(), taskReportId: v.nuuid(), conditionId: v.uuid() })).max(100),
    ),
    reportFilters: nullable(
      z.array(z.object({ id: v.nuuid(), taskReportId: v.nuuid(), filterId: v.uuid(), order: v.int() })).max(100),
    ),
    reportStorageServices: nullable(
      z
        .array(
          z.object({
            id: v.nuuid(),
            fileStorageServiceId: v.uuid(),
            path: z.string().max(2000),
            sharePointSiteUrl: v.nstr(2000),
            order: v.int(),
          }),
        )
        .max(50),
    ),
    reportFolders: nullable(z.array(z.object({ id: v.nuuid(), taskReportId: v.nuuid(), path: v.text(2000) })).max(50)),
    overwriteReportApps: OverwriteReportApps.nullable().optional(),
  }),
);
export const TaskReportB = lazySchema(() =>
  z.object({
    reportID: v.uuid(),
    format: v.text(32),
    emailEmbedment: v.bool(),
    emailAttachment: v.bool(),
    fileOpenPassword: secret(),
    fileWritePassword: secret(),
    isOpenFilePasswordProtected: v.obool(),
    isWriteFilePasswordProtected: v.obool(),
    // folderVariable and hubAuthorizedUserVariable are Broadsheet's additions (set A has them; set B's form would lose them).
    iterationOptions: nullable(
      z.object({
        zipEmailFiles: v.obool(),
        evaluateConditionForEachIteration: v.obool(),
        recipientsVariable: v.nstr(),
        folderVariable: v.nstr(),
        hubAuthorizedUserVariable: v.nstr(),
      }),
    ),
    filters: nullable(z.array(z.object({ id: v.uuid(), name: v.nstr(), order: v.int() })).max(100)),
    conditions: nullable(z.array(z.object({ id: v.uuid(), name: v.nstr() })).max(100)),
    storageServices: nullable(
      z
        .array(
          z.object({
            id: v.nuuid(),
            fileStorageServiceID: v.uuid(),
            type: v.nstr(64),
            name: v.nstr(),
            path: z.string().max(2000),
            zipeFiles: v.obool(),
            siteUrl: v.nstr(2000),
            order: v.int(),
          }),
        )
        .max(50),
    ),
    hub: nullable(
      z.object({ folderID: v.nuuid(), hubMaxFileOccurrences: nullable(z.number().int().min(0).max(100_000)) }),
    ),
    fileStorage: nullable(z.object({ fileStorageServiceID: v.nuuid(), path: v.nstr(2000) })),
    // The separators a report's numbers take (as the designer's document settings allow).
    separatorOptions: nullable(
      z.object({
        numberDecimalSeparator: nullable(v.oneOf(['.', ','])),
        numberGroupSeparator: nullable(v.oneOf([',', '.', ' ', "'", ''])),
      }),
    ),
  }),
);
