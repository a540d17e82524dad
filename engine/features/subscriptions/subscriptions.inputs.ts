import { lazySchema } from '../../core/lazy-schema.js';
import { z } from 'zod';
import { v } from '../../core/validation.js';
import { endAfterStart, scheduleFields } from '../schedules/schedule-fields.js';

// Set A 2.17: a subscription's body. The schedule and external event are the task's objects with
// their requirements dropped (a subscription fills in a name, its time zone and its dates).

const nullable = <T extends z.ZodType>(t: T) => t.nullable().optional();

const FieldSelection = lazySchema(() =>
  z.object({
    fieldName: v.text(200),
    selectedCount: nullable(v.int()),
    selectedValues: z.array(z.string().max(1000)).max(10_000),
    isNumeric: v.obool(),
  }),
);

const SubscriptionFilter = lazySchema(() =>
  z.object({
    selections: nullable(z.array(FieldSelection).max(100)),
    selectionsPreview: v.nstr(4000),
    bookmarkId: v.nstr(200),
    bookmarkName: v.nstr(),
    appId: v.nstr(200),
    serverAddress: v.nstr(2000),
  }),
);

const SubscriptionReport = lazySchema(() =>
  z.object({
    id: v.uuid(),
    name: v.nstr(),
    description: v.nstr(),
    formats: z.array(v.text(32)).min(1, { message: 'must name at least one format' }).max(10),
    zipEmailFiles: v.obool(),
    emailAttachment: v.obool(),
    emailEmbedment: v.obool(),
    filter: nullable(SubscriptionFilter),
  }),
);

const AnalyticsEntity = lazySchema(() =>
  z.object({
    id: v.text(200),
    appId: v.text(200),
    serverAddress: v.nstr(2000),
    type: v.nstr(64),
    format: nullable(v.oneOf(['png', 'PNG', 'Png'])),
    width: nullable(z.number().int().min(200).max(3000)),
    height: nullable(z.number().int().min(150).max(2000)),
  }),
);

const SubscriptionSchedule = z
  .object({
    ...scheduleFields,
    name: v.nstr(),
    isActive: v.obool(),
    priority: nullable(v.int()),
    timeZoneOfset: v.nstr(20),
    timeZone: scheduleFields.timeZone.optional(),
    startDate: scheduleFields.startDate.optional(),
    endDate: scheduleFields.endDate.optional(),
  })
  .superRefine((s, c) => {
    endAfterStart(s, c);
    // Said with the other mistakes of the form at once, not after them.
    if (s.frequency === 'Weekly' && !s.weeklyDays?.trim())
      c.addIssue({ code: 'custom', path: ['weeklyDays'], message: 'is required for a weekly schedule' });
    if (s.frequency === 'Yearly' && !s.month)
      c.addIssue({ code: 'custom', path: ['month'], message: 'is required for a yearly schedule' });
  });

const SubscriptionEvent = z
  .object({
    name: v.nstr(),
    description: v.nstr(),
    appId: v.nstr(200),
    isActive: v.obool(),
    execution: nullable(v.oneOf(['Parallel', 'Serial'])),
    priority: nullable(v.int()),
    startDate: nullable(v.dateTime()),
    endDate: nullable(v.dateTime()),
  })
  .superRefine(endAfterStart);

export const SubscriptionInput = lazySchema(() =>
  z.object({
    name: v.nstr(300),
    description: v.nstr(),
    triggerType: v.oneOf(['Schedule', 'ExternalEvent']),
    type: v.oneOf(['Report', 'MultipleReports', 'AnalyticsEntity']),
    reports: nullable(z.array(SubscriptionReport).max(50)),
    analyticsEntity: nullable(AnalyticsEntity),
    format: v.nstr(32),
    schedule: nullable(SubscriptionSchedule),
    externalEvent: nullable(SubscriptionEvent),
    recipients: nullable(
      z
        .array(
          z.object({ id: v.uuid(), fullName: v.nstr(), email: v.nstr(320), type: nullable(v.oneOf(['user', 'User'])) }),
        )
        .max(100),
    ),
    subscribeTo: v.nstr(300),
    filter: nullable(SubscriptionFilter),
    email: z.object({
      bc: v.nheader(4000),
      bcc: v.nheader(4000),
      ccAnalyticsVariableId: v.nuuid(),
      bccAnalyticsVariableId: v.nuuid(),
      subject: v.nheader(998),
      message: v.nstr(100_000),
    }),
    isActive: v.obool(),
  }),
);
export type SubscriptionInput = z.output<typeof SubscriptionInput>;
