import { lazySchema } from '../../core/lazy-schema.js';
import { z } from 'zod';
import { v } from '../../core/validation.js';
import { SYNCHRONIZATION_MODES, USER_DIRECTORY_TYPES } from '../../core/enumerations.js';
import { type ListSpec } from '../../core/list-query.js';
import { fieldError } from '../../core/errors.js';
import { findOr404 } from '../../core/rows.js';
import { iso, newBase } from '../../core/entity-base.js';
import type { OpContext } from '../../ops/context.js';
import { Organization } from '../../model/organizations.entity.js';
import { Role } from '../../model/roles.entity.js';
import { nextSyncAfter } from './directory-schedule.js';
import { UserDirectory, type UserDirectoryRow } from '../../model/user-directories.entity.js';

// Set A 2.23
export const UserDirectoryV1 = lazySchema(() =>
  z.object({
    type: v.oneOf(USER_DIRECTORY_TYPES),
    name: v.text(),
    prefix: v.nstr(),
    userDirectoryName: v.nstr(),
    azureClientId: v.nstr(),
    azureTenantId: v.nstr(),
    azureClientSecret: v.nstr(),
    hostName: v.nstr(),
    port: v.int().min(0).max(65535).optional(),
    userName: v.nstr(),
    password: v.nstr(),
    sendNotification: v.bool(),
    defaultUserRole: v.nuuid(),
    filter: v.nstr(),
    synchronization: v.oneOf(SYNCHRONIZATION_MODES),
    frequency: v.nstr(),
    frequencyTime: v.nstr(),
    timeZone: v.nstr(),
    isActive: v.obool(),
    organizationId: v.uuid(),
  }),
);
export type Fields = z.output<typeof UserDirectoryV1>;

export const LIST_USER_DIRECTORIES: ListSpec = {
  sort: {
    Name: 'LOWER(d.name)',
    Type: 'LOWER(d.type)',
    LastStartedSync: 'd."lastStartedSync"',
    SyncStatus: 'd."syncStatus"',
  },
  defaultSort: { by: 'Name', direction: 'asc' },
  text: { name: 'd.name' },
};

/** Passwords and client secrets are never returned: only whether one is stored. */
export const userDirectoryDto = (d: UserDirectoryRow) => {
  // The scheduler's own bookkeeping is not part of the interface's directory.
  const { password, azureClientSecret, nextFireTime: _next, lastScheduledFor: _last, ...rest } = d;
  return {
    ...rest,
    hasPassword: password !== null,
    hasAzureClientSecret: azureClientSecret !== null,
    // The interface names these fields; their values are never answered.
    password: null,
    azureClientSecret: null,
    lastStartedSync: iso(d.lastStartedSync),
    createdDate: iso(d.createdDate),
    modifiedDate: iso(d.modifiedDate),
  };
};

/** A time of day and a time zone a schedule can use: named field errors otherwise. */
function checkTiming(f: Fields) {
  const time = f.frequencyTime?.trim();
  if (time) {
    const hm = /^(\d{1,2}):(\d{2})$/.exec(time);
    if (!hm || Number(hm[1]) > 23 || Number(hm[2]) > 59)
      throw fieldError('body.frequencyTime', 'must be a time of day as HH:mm, such as 02:30');
  }
  const zone = f.timeZone?.trim();
  if (zone) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
    } catch {
      throw fieldError('body.timeZone', 'must be a time zone such as Europe/Paris or UTC');
    }
  }
}

export async function saveUserDirectory(ctx: OpContext, id: string | null, f: Fields) {
  checkTiming(f);
  await findOr404(ctx, Organization, f.organizationId, 'Organization');
  if (f.defaultUserRole) await findOr404(ctx, Role, f.defaultUserRole, 'Role');
  const current: UserDirectoryRow | null = id ? await findOr404(ctx, UserDirectory, id, 'User directory') : null;
  const row: UserDirectoryRow = {
    ...(current ?? {
      ...newBase(ctx.now()),
      lastStartedSync: null,
      syncStatus: null,
      nextFireTime: null,
      lastScheduledFor: null,
    }),
    type: f.type,
    name: f.name,
    prefix: f.prefix ?? null,
    userDirectoryName: f.userDirectoryName ?? null,
    azureClientId: f.azureClientId ?? null,
    azureTenantId: f.azureTenantId ?? null,
    azureClientSecret: ctx.secrets.sealOrKeep(f.azureClientSecret, current?.azureClientSecret ?? null),
    hostName: f.hostName ?? null,
    port: f.port ?? null,
    userName: f.userName ?? null,
    password: ctx.secrets.sealOrKeep(f.password, current?.password ?? null),
    sendNotification: f.sendNotification,
    defaultUserRole: f.defaultUserRole ?? null,
    filter: f.filter ?? null,
    synchronization: f.synchronization,
    frequency: f.frequency ?? null,
    frequencyTime: f.frequencyTime ?? null,
    timeZone: f.timeZone ?? null,
    isActive: f.isActive ?? current?.isActive ?? true,
    organizationId: f.organizationId,
    modifiedDate: ctx.now(),
  };
  // The scheduler keeps the next synchronization: a new schedule counts from now.
  const timing = (d: UserDirectoryRow | null) =>
    d && JSON.stringify([d.isActive, d.synchronization, d.frequency, d.frequencyTime, d.timeZone]);
  if (timing(current) !== timing(row)) {
    row.nextFireTime = row.isActive ? nextSyncAfter(row, ctx.now()) : null;
    row.lastScheduledFor = null;
  }
  await ctx.db.getRepository(UserDirectory).save(row);
  ctx.scheduler.wake();
  return userDirectoryDto(row);
}
