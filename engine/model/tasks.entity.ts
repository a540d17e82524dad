import { EntitySchema } from 'typeorm';
import { baseColumns, flag, int, ref, text, when, type BaseRow } from '../core/entity-base.js';
import type { TriggerKind } from '../core/enumerations.js';
import { boundByOrganization, projectInside, taskInside } from '../core/organization-boundary.js';

/** The e-mail a task sends with its files (set A 2.20 / set B 2.12 task e-mail); one per task. */
export interface TaskEmail {
  from: string | null;
  ccBcc: boolean;
  cc: string | null;
  bcc: string | null;
  ccAnalyticsVariableId: string | null;
  bccAnalyticsVariableId: string | null;
  subject: string;
  message: string | null;
  isActive: boolean;
  oneToAll: boolean;
  /**
   * Mail even when no report file was made for it (conditions held back every one). Off by default:
   * a mail announcing a report that is not there is worse than none. Absent on older tasks (off).
   */
  sendWithoutFiles?: boolean;
}

/** A task: reports to run for recipients, on schedules or events, under filters and conditions. */
export interface TaskRow extends BaseRow {
  projectId: string;
  name: string;
  description: string | null;
  isActive: boolean;
  sendNotifications: boolean;
  notifyIfError: boolean;
  notifyIfWarning: boolean;
  notifyIfSuccess: boolean;
  notificationRecipients: string | null;
  notificationCc: string | null;
  notificationBcc: string | null;
  testMode: boolean;
  testModeRecipients: string | null;
  email: TaskEmail | null;
  /** Set on the task a subscription owns: lists and id-addressed task operations never show it. */
  subscriptionId: string | null;
  createdBy: string | null;
  modifiedBy: string | null;
}

export const Task = new EntitySchema<TaskRow>({
  name: 'Task',
  tableName: 'tasks',
  columns: {
    ...baseColumns,
    projectId: ref(false),
    name: text(false),
    description: text(),
    isActive: flag(true),
    sendNotifications: flag(),
    notifyIfError: flag(),
    notifyIfWarning: flag(),
    notifyIfSuccess: flag(),
    notificationRecipients: text(),
    notificationCc: text(),
    notificationBcc: text(),
    testMode: flag(),
    testModeRecipients: text(),
    email: { type: 'simple-json', nullable: true },
    subscriptionId: ref(),
    createdBy: ref(),
    modifiedBy: ref(),
  },
  foreignKeys: [{ target: 'Project', columnNames: ['projectId'], referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
  indices: [
    { name: 'IDX_tasks_project_id', columns: ['projectId', 'id'] },
    { name: 'IDX_tasks_project', columns: ['projectId'] },
  ],
});

/** How one report runs within a task: its format and every option of set A 2.19 / set B 2.12. */
export interface TaskReportOptions {
  zipFolderFiles: boolean;
  zipEmailFiles: boolean;
  evaluateConditionForEachIteration: boolean;
  folderVariable: string | null;
  recipientsVariable: string | null;
  ftpVariable: string | null;
  hubAuthorizedUserVariable: string | null;
  /** Set A names these for cloud drives, which Broadsheet does not deliver to yet: kept and answered. */
  dropboxVariable?: string | null;
  onedriveVariable?: string | null;
  googledriveVariable?: string | null;
  emailAttachment: boolean;
  emailEmbedment: boolean;
  publishToServiceHub: boolean;
  maxFileOccurrences: number;
  secureOutputFiles: boolean;
  isOpenFilePasswordProtected: boolean;
  isWriteFilePasswordProtected: boolean;
  conditionIds: string[];
  filterIds: string[];
  storageServices: {
    fileStorageServiceId: string;
    path: string;
    siteUrl: string | null;
    zipFiles: boolean;
    order: number;
  }[];
  folders: string[];
  hubFolderId: string | null;
  numberDecimalSeparator: string | null;
  numberGroupSeparator: string | null;
  overwriteReportApps: { reportId: string; analyticsApps: { analyticsAppId: string; newAnalyticsAppId: string }[] }[];
  /** A subscriber's own selections (subscriptions' tasks only): they narrow the filters, never widen them. */
  selections?: Record<string, string[]>;
}

export interface TaskReportRow extends BaseRow {
  taskId: string;
  reportId: string;
  format: string;
  options: TaskReportOptions;
  /** Sealed with the installation's key; never answered, only whether one is set. */
  fileOpenPassword: string | null;
  fileWritePassword: string | null;
}

export const TaskReport = new EntitySchema<TaskReportRow>({
  name: 'TaskReport',
  tableName: 'task_reports',
  columns: {
    ...baseColumns,
    taskId: ref(false),
    reportId: ref(false),
    format: { type: 'varchar', length: 32 },
    options: { type: 'simple-json' },
    fileOpenPassword: text(),
    fileWritePassword: text(),
  },
  foreignKeys: [
    { target: 'Task', columnNames: ['taskId'], referencedColumnNames: ['id'], onDelete: 'CASCADE' },
    { target: 'Report', columnNames: ['reportId'], referencedColumnNames: ['id'], onDelete: 'CASCADE' },
  ],
  indices: [{ name: 'IDX_task_reports_task', columns: ['taskId'] }],
});

export type TaskRecipientType = 'user' | 'group';

/** A user or a group a task delivers to. */
export interface TaskRecipientRow extends BaseRow {
  taskId: string;
  recipientId: string;
  type: TaskRecipientType;
  sendEmail: boolean;
  seeInHub: boolean;
}

export const TaskRecipient = new EntitySchema<TaskRecipientRow>({
  name: 'TaskRecipient',
  tableName: 'task_recipients',
  columns: {
    ...baseColumns,
    taskId: ref(false),
    recipientId: ref(false),
    type: { type: 'varchar', length: 8 },
    sendEmail: flag(true),
    seeInHub: flag(true),
  },
  foreignKeys: [{ target: 'Task', columnNames: ['taskId'], referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
  uniques: [{ name: 'UQ_task_recipient', columns: ['taskId', 'recipientId'] }],
});

export type { TriggerKind } from '../core/enumerations.js';

/** When a schedule fires, as the interface spells it (set A 2.11, set B 2.12 task schedule). */
export interface StoredSchedule {
  frequency: string;
  day: number | null;
  month: number | null;
  atHour: number | null;
  atMinut: number | null;
  everyHours: number | null;
  fromHour: number | null;
  fromMinut: number | null;
  toHour: number | null;
  toMinut: number | null;
  weeklyDays: string | null;
}

/**
 * What starts a task: a schedule, or an analytics app's event (a reload). The scheduler keeps the
 * last fire time, the slot it was for, and the next fire time here (UTC).
 */
export interface TaskTriggerRow extends BaseRow {
  taskId: string;
  kind: TriggerKind;
  name: string;
  description: string | null;
  isActive: boolean;
  execution: string | null;
  priority: number | null;
  timeZone: string | null;
  schedule: StoredSchedule | null;
  appId: string | null;
  analyticsEvent: string | null;
  startDate: Date | null;
  endDate: Date | null;
  lastFireTime: Date | null;
  lastScheduledFor: Date | null;
  nextFireTime: Date | null;
}

export const TaskTrigger = new EntitySchema<TaskTriggerRow>({
  name: 'TaskTrigger',
  tableName: 'task_triggers',
  columns: {
    ...baseColumns,
    taskId: ref(false),
    kind: { type: 'varchar', length: 16 },
    name: text(false),
    description: text(),
    isActive: flag(true),
    execution: text(),
    priority: int(),
    timeZone: text(),
    schedule: { type: 'simple-json', nullable: true },
    appId: text(),
    analyticsEvent: text(),
    startDate: when(),
    endDate: when(),
    lastFireTime: when(),
    lastScheduledFor: when(),
    nextFireTime: when(),
  },
  foreignKeys: [{ target: 'Task', columnNames: ['taskId'], referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
  indices: [
    { name: 'IDX_task_triggers_task', columns: ['taskId'] },
    { name: 'IDX_task_triggers_next', columns: ['nextFireTime'] },
  ],
});

// A task and what it holds (its reports, recipients, triggers) belong to its project's organization.
boundByOrganization(Task, (x) => projectInside(`${x}."projectId"`));
for (const part of [TaskReport, TaskRecipient, TaskTrigger])
  boundByOrganization(part, (x) => taskInside(`${x}."taskId"`));
