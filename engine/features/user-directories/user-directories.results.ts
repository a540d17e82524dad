import { z } from 'zod';
import { lazySchema } from '../../core/lazy-schema.js';

// What this feature's operations answer in `data` (for a list: one item); see `result` on defineOp.

export const UserDirectoryResult = lazySchema(() =>
  z.object({
    hasPassword: z.boolean(),
    hasAzureClientSecret: z.boolean(),
    password: z.null(),
    azureClientSecret: z.null(),
    lastStartedSync: z.string().nullable(),
    createdDate: z.string().nullable(),
    modifiedDate: z.string().nullable(),
    type: z.string(),
    name: z.string(),
    prefix: z.string().nullable(),
    userDirectoryName: z.string().nullable(),
    azureClientId: z.string().nullable(),
    azureTenantId: z.string().nullable(),
    hostName: z.string().nullable(),
    port: z.number().nullable(),
    userName: z.string().nullable(),
    sendNotification: z.boolean(),
    defaultUserRole: z.string().nullable(),
    filter: z.string().nullable(),
    synchronization: z.string(),
    frequency: z.string().nullable(),
    frequencyTime: z.string().nullable(),
    timeZone: z.string().nullable(),
    isActive: z.boolean(),
    organizationId: z.string(),
    syncStatus: z.string().nullable(),
    id: z.string(),
  }),
);

export const UserDirectoriesSyncResult = lazySchema(() =>
  z.object({
    id: z.string(),
    directoryId: z.string(),
    trigger: z.enum(['manual', 'schedule']),
    status: z.enum(['queued', 'running', 'completed', 'failed']),
    startedAt: z.string().nullable(),
    endedAt: z.string().nullable(),
    created: z.number(),
    updated: z.number(),
    deactivated: z.number(),
    groups: z.number(),
    field: z.string().nullable(),
    message: z.string().nullable(),
    log: z.string(),
  }),
);

export const UserDirectoriesSyncsResult = lazySchema(() =>
  z.object({
    directoryId: z.string(),
    syncStatus: z.string().nullable(),
    running: z.boolean(),
    lastStartedSync: z.string().nullable(),
    nextSync: z.string().nullable(),
    syncs: z.array(UserDirectoriesSyncResult),
  }),
);

export { ConnectionTestResult as UserDirectoriesTestResult } from '../common.results.js';
