import { useCallback, useEffect, useState } from 'react';
import { invoke } from '../../bridge';
import type { RowOf } from '../../../../engine/catalogue';
import { selectMayCall, useSession } from '../../stores/session/session.store';
import { toastFailed } from '../../stores/feedback/toasts';

type Role = RowOf<'v1.roles.list'>;
type Flags = Omit<Role['permissions'], 'id' | 'createdDate' | 'modifiedDate'>;
type Permission = keyof Flags;
const META = new Set(['id', 'createdDate', 'modifiedDate']);
const flagsOf = (p: Role['permissions']): Flags =>
  Object.fromEntries(Object.entries(p).filter(([k]) => !META.has(k))) as Flags;

/** "viewUserDirectory" → "View user directory" */
const label = (p: string) =>
  p
    .replace(/([A-Z])/g, ' $1')
    .replace(/^./, (c) => c.toUpperCase())
    .replace(/ (\w)/g, (_, c: string) => ' ' + c.toLowerCase());

/** The areas the permissions are read in, by the noun of each flag; what no area names falls under "Other". */
const AREAS: { title: string; test: RegExp }[] = [
  { title: 'Projects and reports', test: /Project$/ },
  { title: 'Conditions', test: /Condition$/ },
  { title: 'Tasks', test: /Task(Status)?$/ },
  { title: 'The hub', test: /PublishedReport$/ },
  { title: 'Users and groups', test: /(User|Group|UserDirectory)$/ },
  { title: 'System and settings', test: /(System|Settings|ApiKeys|enterprise)$/ },
];
const areaOf = (p: string) => AREAS.find((a) => a.test.test(p))?.title ?? 'Other';

/** Roles across, permissions down in areas: a tick grants, a click saves that one role. */
export function PermissionMatrix({ version, changed }: { version: number; changed: () => void }) {
  const [roles, setRoles] = useState<Role[]>([]);
  const canEdit = useSession(selectMayCall('v1.roles.update'));
  const load = useCallback(async () => {
    const a = await invoke('v1.roles.list', { query: { get_all: true, sort_by: 'Name' } });
    if (a.ok) setRoles(a.data);
    else toastFailed(a.error ?? 'The roles could not be read.');
  }, []);
  useEffect(() => void load(), [load, version]);
  const permissions = roles.length ? (Object.keys(flagsOf(roles[0].permissions)) as Permission[]) : [];

  const toggle = async (role: Role, permission: Permission) => {
    const next = { ...flagsOf(role.permissions), [permission]: !role.permissions[permission] };
    // Show the tick at once; the reload after saving puts back what the engine kept.
    setRoles((all) => all.map((r) => (r.id === role.id ? { ...r, permissions: { ...r.permissions, ...next } } : r)));
    const a = await invoke('v1.roles.update', {
      params: { id: role.id },
      body: {
        name: role.name,
        description: role.description,
        allProjects: role.allProjects,
        projects: role.projects,
        isActive: role.isActive,
        permissions: next,
      },
    });
    if (!a.ok) toastFailed(`${role.name} was not changed: ${a.error ?? 'refused'}`);
    else changed();
    await load();
  };

  return (
    <div className="panel">
      <h2>Permissions by role</h2>
      <div className="matrix-wrap">
        <table className="matrix">
          <thead>
            <tr>
              <th>Permission</th>
              {roles.map((r) => (
                <th key={r.id} scope="col">
                  {r.name}
                </th>
              ))}
            </tr>
          </thead>
          {[...AREAS.map((a) => a.title), 'Other'].map((area) => {
            const inArea = permissions.filter((p) => areaOf(p) === area);
            if (!inArea.length) return null;
            return (
              <tbody key={area}>
                <tr className="matrix-area">
                  <th scope="colgroup" colSpan={roles.length + 1}>
                    {area}
                  </th>
                </tr>
                {inArea.map((p) => (
                  <tr key={p}>
                    <th scope="row">{label(p)}</th>
                    {roles.map((r) => (
                      <td key={r.id}>
                        <input
                          type="checkbox"
                          aria-label={`${r.name}: ${label(p)}`}
                          checked={r.permissions[p] === true}
                          disabled={!canEdit}
                          onChange={() => void toggle(r, p)}
                        />
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            );
          })}
        </table>
      </div>
    </div>
  );
}
