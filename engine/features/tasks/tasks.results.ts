import { z } from 'zod';
import { withSetBIdsSchema } from '../../core/set-b-names.js';
import { lazySchema } from '../../core/lazy-schema.js';

// What this feature's operations answer in `data` (for a list: one item); see `result` on defineOp.

export const TaskResult = lazySchema(() =>
  z.object({
    id: z.string(),
    projectId: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    isActive: z.boolean(),
    sendNotifications: z.boolean(),
    notifyIfError: z.boolean(),
    notifyIfWarning: z.boolean(),
    notifyIfSuccess: z.boolean(),
    notificationRecipients: z.string().nullable(),
    notificationCc: z.string().nullable(),
    notificationBcc: z.string().nullable(),
    testMode: z.boolean(),
    testModeRecipients: z.string().nullable(),
    email: z
      .object({
        from: z.string().nullable(),
        ccBcc: z.boolean(),
        cc: z.string().nullable(),
        bcc: z.string().nullable(),
        ccAnalyticsVariableId: z.string().nullable(),
        bccAnalyticsVariableId: z.string().nullable(),
        subject: z.string(),
        message: z.string().nullable(),
        isActive: z.boolean(),
        oneToAll: z.boolean(),
        sendWithoutFiles: z.boolean(),
      })
      .nullable(),
    createdDate: z.string().nullable(),
    modifiedDate: z.string().nullable(),
    createdBy: z.string().nullable(),
    modifiedBy: z.string().nullable(),
  }),
);

export const TasksSetActiveResult = lazySchema(() => z.object({ updated: z.number() }));

export const TaskReportResult = lazySchema(() =>
  z.object({
    reportConditions: z.array(z.object({ id: z.string(), taskReportId: z.string(), conditionId: z.string() })),
    reportFilters: z.array(
      z.object({ id: z.string(), taskReportId: z.string(), filterId: z.string(), order: z.number() }),
    ),
    reportStorageServices: z.array(
      z.object({
        id: z.string(),
        fileStorageServiceId: z.string(),
        path: z.string(),
        sharePointSiteUrl: z.string().nullable(),
        order: z.number(),
      }),
    ),
    reportFolders: z.array(z.object({ id: z.string(), taskReportId: z.string(), path: z.string() })),
    dropboxVariable: z.string().nullable(),
    onedriveVariable: z.string().nullable(),
    googledriveVariable: z.string().nullable(),
    fileOpenPassword: z.null(),
    fileWritePassword: z.null(),
    createdDate: z.string().nullable(),
    modifiedDate: z.string().nullable(),
    filters: z.array(z.object({ id: z.string(), name: z.string().nullable() })),
    conditions: z.array(z.object({ id: z.string(), name: z.string().nullable() })),
    reportName: z.string().nullable(),
    reportType: z.enum(['Excel', 'Word', 'PowerPoint', 'Html']).nullable(),
    outputFormats: z.array(z.enum(['Html', 'Pdf', 'Xlsx', 'Docx', 'Pptx', 'Csv', 'Png'])),
    hasFileOpenPassword: z.boolean(),
    hasFileWritePassword: z.boolean(),
    zipFolderFiles: z.boolean(),
    zipEmailFiles: z.boolean(),
    evaluateConditionForEachIteration: z.boolean(),
    folderVariable: z.string().nullable(),
    recipientsVariable: z.string().nullable(),
    ftpVariable: z.string().nullable(),
    hubAuthorizedUserVariable: z.string().nullable(),
    emailAttachment: z.boolean(),
    emailEmbedment: z.boolean(),
    publishToServiceHub: z.boolean(),
    maxFileOccurrences: z.number(),
    secureOutputFiles: z.boolean(),
    isOpenFilePasswordProtected: z.boolean(),
    isWriteFilePasswordProtected: z.boolean(),
    conditionIds: z.array(z.string()),
    filterIds: z.array(z.string()),
    storageServices: z.array(
      z.object({
        fileStorageServiceId: z.string(),
        path: z.string(),
        siteUrl: z.string().nullable(),
        zipFiles: z.boolean(),
        order: z.number(),
      }),
    ),
    folders: z.array(z.string()),
    hubFolderId: z.string().nullable(),
    numberDecimalSeparator: z.string().nullable(),
    numberGroupSeparator: z.string().nullable(),
    overwriteReportApps: z.array(
      z.object({
        reportId: z.string(),
        analyticsApps: z.array(z.object({ analyticsAppId: z.string(), newAnalyticsAppId: z.string() })),
      }),
    ),
    selections: z.record(z.string(), z.array(z.string())).optional(),
    taskId: z.string(),
    reportId: z.string(),
    format: z.string(),
    id: z.string(),
  }),
);

export const TaskRecipientResult = lazySchema(() =>
  z.object({
    id: z.string(),
    taskRecipientId: z.string(),
    type: z.enum(['user', 'group']),
    name: z.string().nullable(),
    emailAddress: z.string().nullable(),
    /** For a user: a signing-in user or a recipient only (mail, no sign-in); null for a group. */
    userKind: z.enum(['user', 'recipient']).nullable(),
    sendEmail: z.boolean(),
    seeInHub: z.boolean(),
    createdDate: z.string().nullable(),
  }),
);

export const TaskRecipientsAddResult = lazySchema(() => z.object({ added: z.number() }));

export const TaskRecipientsUpdateResult = lazySchema(() =>
  z.object({
    id: z.string(),
    type: z.enum(['user', 'group']),
    sendEmail: z.boolean(),
    seeInHub: z.boolean(),
  }),
);

/** The task e-mail as set A names it (2.20): `bcBcc` and `bc` for the stored `ccBcc` and `cc`. */
export const TaskEmailAResult = lazySchema(() =>
  z.object({
    taskId: z.string(),
    from: z.string().nullable(),
    bcBcc: z.boolean(),
    bc: z.string().nullable(),
    bcc: z.string().nullable(),
    ccAnalyticsVariableId: z.string().nullable(),
    bccAnalyticsVariableId: z.string().nullable(),
    subject: z.string(),
    message: z.string().nullable(),
    isActive: z.boolean(),
    oneToAll: z.boolean(),
    sendWithoutFiles: z.boolean(),
  }),
);

/** The task e-mail as set B names it (2.12): the analytics variables without the `Id` suffix. */
export const TaskEmailBResult = lazySchema(() =>
  z.object({
    taskId: z.string(),
    from: z.string().nullable(),
    ccBcc: z.boolean(),
    cc: z.string().nullable(),
    bcc: z.string().nullable(),
    ccAnalyticsVariable: z.string().nullable(),
    bccAnalyticsVariable: z.string().nullable(),
    subject: z.string(),
    message: z.string().nullable(),
    isActive: z.boolean(),
    oneToAll: z.boolean(),
    sendWithoutFiles: z.boolean(),
  }),
);

export const TaskBResult = lazySchema(() => withSetBIdsSchema(TaskResult, 'projectId'));

/** Set B's task report (2.12): the same task report with set B's objects and spellings beside. */
export const TaskReportBResult = lazySchema(() =>
  TaskReportResult.extend({
    reportID: z.string(),
    iterationOptions: z.object({
      zipEmailFiles: z.boolean(),
      evaluateConditionForEachIteration: z.boolean(),
      recipientsVariable: z.string().nullable(),
      folderVariable: z.string().nullable(),
      hubAuthorizedUserVariable: z.string().nullable(),
    }),
    filters: z.array(z.object({ id: z.string(), name: z.string().nullable(), order: z.number() })),
    storageServices: z.array(
      TaskReportResult.shape.storageServices.element.extend({
        id: z.string(),
        fileStorageServiceID: z.string(),
        type: z.string().nullable(),
        name: z.string().nullable(),
        zipeFiles: z.boolean(),
      }),
    ),
    hub: z.object({ folderID: z.string().nullable(), hubMaxFileOccurrences: z.number() }),
    fileStorage: z.object({ fileStorageServiceID: z.null(), path: z.string().nullable() }),
    separatorOptions: z.object({
      numberDecimalSeparator: z.string().nullable(),
      numberGroupSeparator: z.string().nullable(),
    }),
  }),
);

export const SchedulePreviewResult = lazySchema(() => z.object({ summary: z.string(), nextRuns: z.array(z.string()) }));
