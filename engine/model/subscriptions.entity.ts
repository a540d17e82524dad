import { EntitySchema } from 'typeorm';
import { baseColumns, flag, ref, text, type BaseRow } from '../core/entity-base.js';
import { boundByOrganization, taskInside } from '../core/organization-boundary.js';

export type SubscriptionType = 'Report' | 'MultipleReports' | 'AnalyticsEntity';
export type SubscriptionTrigger = 'Schedule' | 'ExternalEvent';

/** What a subscription keeps of a filter besides its selections, to answer it as given (set A 2.17). */
export interface KeptFilter {
  bookmarkId: string | null;
  bookmarkName: string | null;
  appId: string | null;
  serverAddress: string | null;
}

/** A report a subscription receives: its formats, how it travels, the subscriber's selections. */
export interface SubscribedReport {
  id: string;
  formats: string[];
  zipEmailFiles: boolean;
  emailAttachment: boolean;
  emailEmbedment: boolean;
  selections: { fieldName: string; selectedValues: string[] }[];
  /** Absent on subscriptions saved before filters kept their bookmark. */
  filter?: KeptFilter;
}

/** A chart of an analytics app, received as a PNG (set A 2.17 analytics entity). */
export interface SubscribedChart {
  id: string;
  appId: string;
  type: string | null;
  format: string;
  width: number;
  height: number;
  selections: { fieldName: string; selectedValues: string[] }[];
  /** The filters of what made the chart subscribable (a published report's): the subscriber's selections narrow them. */
  filterIds: string[];
  serverAddress?: string | null;
  filter?: KeptFilter;
}

export interface SubscriptionEmail {
  cc: string | null;
  bcc: string | null;
  subject: string;
  message: string;
}

/**
 * A user's subscription (set A 2.17). It owns a task the tasks list never shows (`tasks.subscriptionId`):
 * the scheduler fires that task's trigger, the runner makes its files and the outbox mails them to
 * the subscriber alone, so a subscription is as durable and as visible in monitoring as any task.
 */
export interface SubscriptionRow extends BaseRow {
  userId: string;
  taskId: string;
  name: string | null;
  description: string | null;
  type: SubscriptionType;
  triggerType: SubscriptionTrigger;
  subscribeTo: string | null;
  reports: SubscribedReport[];
  chart: SubscribedChart | null;
  email: SubscriptionEmail;
  isActive: boolean;
}

export const Subscription = new EntitySchema<SubscriptionRow>({
  name: 'Subscription',
  tableName: 'subscriptions',
  columns: {
    ...baseColumns,
    userId: ref(false),
    taskId: ref(false),
    name: text(),
    description: text(),
    type: { type: 'varchar', length: 16 },
    triggerType: { type: 'varchar', length: 16 },
    subscribeTo: text(),
    reports: { type: 'simple-json' },
    chart: { type: 'simple-json', nullable: true },
    email: { type: 'simple-json' },
    isActive: flag(true),
  },
  foreignKeys: [
    { target: 'User', columnNames: ['userId'], referencedColumnNames: ['id'], onDelete: 'CASCADE' },
    { target: 'Task', columnNames: ['taskId'], referencedColumnNames: ['id'], onDelete: 'CASCADE' },
  ],
  indices: [{ name: 'IDX_subscriptions_user', columns: ['userId'] }],
});

// A subscription belongs to the organization of the task it follows.
boundByOrganization(Subscription, (x) => taskInside(`${x}."taskId"`));
