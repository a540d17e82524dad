import { invokeAny } from '../bridge';
import type { Option } from './Form';

/** Choices for select fields, read through the same list operations (all rows). */
function loader(op: string, label: (row: Record<string, unknown>) => string) {
  return async (): Promise<Option[]> => {
    const answer = await invokeAny(op, { query: { get_all: true } });
    return answer.ok ? (answer.data as Record<string, unknown>[]).map((r) => ({ id: String(r.id), name: label(r) })) : [];
  };
}

export const organizationOptions = loader('v1.organizations.list', (r) => String(r.displayName));
export const roleOptions = loader('v1.roles.listSimple', (r) => String(r.name));
export const groupOptions = loader('v1.groups.list', (r) => String(r.name));
export const userOptions = loader('v1.users.list', (r) => `${r.fullName}${r.email ? ` <${r.email}>` : ''}`);

export const idList = (ids: unknown) => ((ids as string[] | undefined) ?? []).map((id) => ({ id }));
export const idsOf = (list: unknown) => ((list as { id: string }[] | undefined) ?? []).map((x) => x.id);
export const orNull = (v: unknown) => (v === '' || v === undefined ? null : v);
