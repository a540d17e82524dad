import { z } from 'zod';
import { lazySchema } from '../core/lazy-schema.js';

// What this feature's operations answer in `data` (for a list: one item); see `result` on defineOp.

export const NamedResult = lazySchema(() => z.object({ id: z.string(), name: z.string() }));

export const UserResult = lazySchema(() =>
  z.object({
    id: z.string(),
    type: z.enum(['user', 'recipient']),
    firstName: z.string(),
    lastName: z.string(),
    fullName: z.string(),
    email: z.string().nullable(),
    userName: z.string().nullable(),
    domainAccount: z.string().nullable(),
    isActive: z.boolean(),
    sendNotification: z.boolean(),
    isoLanguage: z.string().nullable(),
    timeZone: z.string().nullable(),
    isTenantOwner: z.boolean(),
    isTenantAdmin: z.boolean(),
    hasPassword: z.boolean(),
    password: z.null(),
    directoryId: z.string().nullable(),
    roles: z.array(NamedResult),
    organizations: z.array(NamedResult),
    groups: z.array(NamedResult),
    createdDate: z.string().nullable(),
    modifiedDate: z.string().nullable(),
  }),
);

export const SessionTokenResult = lazySchema(() => z.object({ token: z.string(), expiresAt: z.string() }));

/** "Test connection" of a storage service or a user directory: what was proven, in words. */
export const ConnectionTestResult = lazySchema(() => z.object({ ok: z.boolean(), message: z.string() }));

export const DeletedResult = lazySchema(() => z.object({ deleted: z.number() }));

export const ResourceResult = lazySchema(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    type: z.string(),
    organizationId: z.string(),
    url: z.string(),
    createdDate: z.string().nullable(),
    modifiedDate: z.string().nullable(),
  }),
);

export const TaskTriggerResult = lazySchema(() =>
  z.object({
    timeZoneOfset: z.string().nullable(),
    appId: z.string().nullable(),
    appID: z.string().nullable(),
    analyticsEvent: z.string().nullable(),
    startDate: z.string().nullable(),
    endDate: z.string().nullable(),
    lastFireTime: z.string().nullable(),
    nextFireTime: z.string().nullable(),
    summary: z.string().nullable(),
    nextRuns: z.array(z.string()),
    createdDate: z.string().nullable(),
    modifiedDate: z.string().nullable(),
    frequency: z.string().nullable(),
    day: z.number().nullable(),
    month: z.number().nullable(),
    atHour: z.number().nullable(),
    atMinut: z.number().nullable(),
    everyHours: z.number().nullable(),
    fromHour: z.number().nullable(),
    fromMinut: z.number().nullable(),
    toHour: z.number().nullable(),
    toMinut: z.number().nullable(),
    weeklyDays: z.string().nullable(),
    id: z.string(),
    taskId: z.string(),
    type: z.enum(['Schedule', 'ExternalEvent']),
    name: z.string(),
    description: z.string().nullable(),
    isActive: z.boolean(),
    execution: z.string().nullable(),
    priority: z.number().nullable(),
    timeZone: z.string().nullable(),
  }),
);

/** A field's selected values as set A names them (on-demand requests, subscription filters). */
export const FieldSelectionResult = lazySchema(() =>
  z.object({
    fieldName: z.string(),
    selectedCount: z.number(),
    selectedValues: z.array(z.string()),
    isNumeric: z.boolean(),
  }),
);
