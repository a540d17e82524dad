import type { DataSource } from 'typeorm';
import { forbidden } from '../core/errors.js';
import { valuesAt } from './object-wall.js';
import type { ObjectRefs } from './object-kinds.js';
import { isTenantAdministrator } from './tenant-administrator.js';

// An analytics app is shared: every project connected to it reads its data, variables and charts,
// so changing it changes each of those projects' reports. Outside permissions mode a person's roles
// decide (changing an app needs the flag that changes projects). A project in permissions mode
// leaves changes to the project itself to its creator or a tenant administrator; an app that such a
// project uses is part of it, so only they may change that app. Kept by the dispatcher for every
// operation that writes to an app it declares, so no feature has to remember it.

/** A role's refusal of a change to an app, in words naming the app rather than "projects". */
export const APP_CHANGE_REFUSAL =
  'Your roles do not let you change analytics apps (changing one needs the right to change projects)';

interface Caller {
  db: DataSource;
  principal?: { isTenantAdmin: boolean; isTenantOwner: boolean; user: { id: string } } | null;
}

/**
 * The apps an operation writes to: those its address names (`/api/app/analytics/{id}/…`), when it
 * is not a read or a read-only POST. An app named in a body (a condition's rule, a connection)
 * is only used there, not changed.
 */
const appPaths = (op: { method: string; readOnly?: boolean }, refs: ObjectRefs) =>
  op.method === 'GET' || op.readOnly
    ? []
    : Object.entries(refs)
        .filter(([path, kind]) => kind === 'analyticsApp' && path.startsWith('params.'))
        .map(([path]) => path);
const appsWritten = (op: { method: string; readOnly?: boolean }, refs: ObjectRefs, input: unknown) =>
  appPaths(op, refs).flatMap((path) => valuesAt(input, path));

/** The operation changes the analytics app its address names: its refusals speak of apps. */
export const changesAnApp = (op: { method: string; readOnly?: boolean }, refs: ObjectRefs | undefined) =>
  !!refs && appPaths(op, refs).length > 0;

/**
 * Why the caller may not change these apps (a project in permissions mode they did not create uses
 * one), or null when they may; tenant administrators, the owner and the engine itself always may.
 */
export async function sharedAppRefusal(caller: Caller, appIds: string[]): Promise<string | null> {
  const p = caller.principal;
  if (!p || isTenantAdministrator(p) || !appIds.length) return null;
  const guarded: { name: string }[] = await caller.db
    .createQueryBuilder()
    .select('p.name', 'name')
    .distinct(true)
    .from('connections', 'c')
    .innerJoin('projects', 'p', 'p.id = c."projectId"')
    .where('c."analyticsAppId" IN (:...appIds)', { appIds })
    .andWhere('p."permissionsMode" = TRUE')
    .andWhere('(p."createdBy" IS NULL OR p."createdBy" <> :me)', { me: p.user.id })
    .orderBy('p.name')
    .getRawMany();
  if (!guarded.length) return null;
  const more = guarded.length > 1 ? ` and ${guarded.length - 1} more` : '';
  return `This analytics app is used by the project “${guarded[0].name}”${more}, whose member permissions leave changes to its creator or a tenant administrator`;
}

/** Refuses (403, naming the project) a change to an app the caller may not change, as `sharedAppRefusal` says. */
export async function refuseSharedAppChange(
  caller: Caller,
  op: { method: string; readOnly?: boolean },
  refs: ObjectRefs,
  input: unknown,
): Promise<void> {
  const why = await sharedAppRefusal(caller, appsWritten(op, refs, input));
  if (why) throw forbidden(why);
}
