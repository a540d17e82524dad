import { createDraftStore } from '../drafts/create-draft-store';
import type { StoredSchedule } from '../../../../engine/model/tasks.entity';

// A task as one draft: its settings, its e-mail, and its lists (reports, recipients, triggers) as
// they are being edited. Items keep the server's id as their key, or a "new-" key until saved.

export const MAIL_CHOICES = ['Attached', 'In the body', 'Not mailed'] as const;
export type MailChoice = (typeof MAIL_CHOICES)[number];

export interface SettingsDraft {
  name: string;
  description: string | null;
  isActive: boolean;
  testMode: boolean;
  testModeRecipients: string | null;
  sendNotifications: boolean;
  notifyIfError: boolean;
  notifyIfWarning: boolean;
  notifyIfSuccess: boolean;
  notificationRecipients: string | null;
}

export interface EmailDraft {
  from: string;
  cc: string | null;
  bcc: string | null;
  subject: string;
  message: string | null;
  oneToAll: boolean;
  isActive: boolean;
  sendWithoutFiles: boolean;
}

export interface StorageTarget {
  fileStorageServiceId: string;
  path: string;
  siteUrl: string | null;
  zipFiles: boolean;
}

export interface ReportItem {
  key: string;
  reportId: string;
  reportName: string;
  format: string;
  filterIds: string[];
  conditionIds: string[];
  eachIteration: boolean;
  /** A password is stored (never shown); a new one replaces it at Save. */
  hasPassword: boolean;
  newPassword: string | null;
  storage: StorageTarget[];
  folderVariable: string | null;
  mail: MailChoice;
  zipEmailFiles: boolean;
  recipientsVariable: string | null;
  hubFolderId: string | null;
  hubMax: number;
  hubUserVariable: string | null;
}

export interface RecipientItem {
  key: string;
  type: 'user' | 'group';
  name: string;
  email: string | null;
  userKind: 'user' | 'recipient' | null;
  sendEmail: boolean;
  seeInHub: boolean;
}

/** A schedule's own fields, as the engine stores them (listed once: engine/model/tasks.entity.ts), empty on an event. */
type ScheduleFields = { [K in keyof StoredSchedule]: StoredSchedule[K] | null };

export interface TriggerItem extends ScheduleFields {
  key: string;
  type: 'Schedule' | 'ExternalEvent';
  name: string;
  isActive: boolean;
  timeZone: string | null;
  startDate: string;
  endDate: string | null;
  appId: string | null;
  description: string | null;
  execution: string | null;
  priority: number | null;
}

export interface TaskDraft {
  settings: SettingsDraft;
  email: EmailDraft;
  reports: ReportItem[];
  recipients: RecipientItem[];
  triggers: TriggerItem[];
}

/** The task designer's one draft: settings, e-mail, reports, recipients and triggers, saved together. */
export const useTaskDraft = createDraftStore<TaskDraft>();
