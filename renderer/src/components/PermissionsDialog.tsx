import { useCallback, useEffect, useState } from 'react';
import { mayCall } from '../stores/session/session.store';
import { invoke, type Answer } from '../bridge';
import type { ResultOf } from '../../../engine/catalogue';
import { PERMISSION_FLAGS } from '../../../engine/wire';
import { Dialog } from './Dialog';
import { askConfirm } from '../stores/feedback/confirm.store';
import { toastFailed, toastOutcome } from '../stores/feedback/toasts';

export type PermissionKind = 'project' | 'report' | 'filter' | 'condition' | 'task';
type Flag = (typeof PERMISSION_FLAGS)[number];
type Set = Record<Flag, boolean>;
type Member = ResultOf<'app.reports.listPermissions'>[number];

/** Each kind's four operations, typed by their catalogue ids. */
const API: Record<
  PermissionKind,
  {
    list: (id: string) => Promise<Answer<Member[]>>;
    add: (id: string, members: { id: string; type: string }[], permissions: Set) => Promise<Answer<Member[]>>;
    change: (id: string, memberPermissionId: string, patch: Partial<Set>) => Promise<Answer<Member>>;
    remove: (id: string, ids: string[]) => Promise<Answer<{ deleted: number }>>;
  }
> = {
  project: {
    list: (id) => invoke('app.projects.listPermissions', { params: { id } }),
    add: (id, members, permissions) =>
      invoke('v2.projects.setPermissions', { params: { id }, body: { members, permissions } }),
    change: (id, memberPermissionId, patch) =>
      invoke('v2.projects.setMemberPermission', { params: { id, memberPermissionId }, body: patch }),
    remove: (id, ids) => invoke('v2.projects.deleteMemberPermissions', { params: { id }, body: ids }),
  },
  report: {
    list: (id) => invoke('app.reports.listPermissions', { params: { id } }),
    add: (id, members, permissions) =>
      invoke('v2.reports.setPermissions', { params: { id }, body: { members, permissions } }),
    change: (id, memberPermissionId, patch) =>
      invoke('v2.reports.setMemberPermission', { params: { id, memberPermissionId }, body: patch }),
    remove: (id, ids) => invoke('v2.reports.deleteMemberPermissions', { params: { id }, body: ids }),
  },
  filter: {
    list: (id) => invoke('app.filters.listPermissions', { params: { id } }),
    add: (id, members, permissions) =>
      invoke('v2.filters.setPermissions', { params: { id }, body: { members, permissions } }),
    change: (id, memberPermissionId, patch) =>
      invoke('v2.filters.setMemberPermission', { params: { id, memberPermissionId }, body: patch }),
    remove: (id, ids) => invoke('v2.filters.deleteMemberPermissions', { params: { id }, body: ids }),
  },
  condition: {
    list: (id) => invoke('app.conditions.listPermissions', { params: { id } }),
    add: (id, members, permissions) =>
      invoke('v2.conditions.setPermissions', { params: { id }, body: { members, permissions } }),
    change: (id, memberPermissionId, patch) =>
      invoke('v2.conditions.setMemberPermission', { params: { id, memberPermissionId }, body: patch }),
    remove: (id, ids) => invoke('v2.conditions.deleteMemberPermissions', { params: { id }, body: ids }),
  },
  task: {
    list: (id) => invoke('app.tasks.listPermissions', { params: { id } }),
    add: (id, members, permissions) =>
      invoke('v2.tasks.setPermissions', { params: { id }, body: { members, permissions } }),
    change: (id, memberPermissionId, patch) =>
      invoke('v2.tasks.setMemberPermission', { params: { id, memberPermissionId }, body: patch }),
    remove: (id, ids) => invoke('v2.tasks.deleteMemberPermissions', { params: { id }, body: ids }),
  },
};

const NAME: Record<Exclude<PermissionKind, 'project'>, string> = {
  report: 'Report',
  filter: 'Filter',
  condition: 'Condition',
  task: 'Task',
};
/** The flags a kind's matrix shows: its own; a project's are the fallbacks for everything in it. */
function flagsOf(kind: PermissionKind): Flag[] {
  if (kind !== 'project') return PERMISSION_FLAGS.filter((f) => f.endsWith(NAME[kind]));
  return PERMISSION_FLAGS.filter(
    (f) => f === 'viewProject' || /^(view|create|edit|run|subscribe|delete)(Report|Task|Filter|Condition)$/.test(f),
  );
}
/** "setPermissionsReport" → "Set permissions", "viewProject" → "View project". */
function label(flag: Flag, kind: PermissionKind) {
  const words = flag
    .replace(/([A-Z])/g, ' $1')
    .toLowerCase()
    .trim()
    .split(' ');
  const action = words.slice(0, kind === 'project' ? words.length : words.length - 1).join(' ');
  return action.charAt(0).toUpperCase() + action.slice(1);
}
const emptySet = (): Set => Object.fromEntries(PERMISSION_FLAGS.map((f) => [f, false])) as Set;

/**
 * Three usual sets of a kind's flags, by what a member does with the object: looks (and subscribes
 * to what is published), works on it, or runs it all.
 */
const PRESETS = {
  Viewer: (f: Flag) => f.startsWith('view') || f === 'subscribeReport',
  Editor: (f: Flag) => /^(view|create|edit|run|subscribe)/.test(f),
  Manager: () => true,
} as const;
/** What each preset means, said before one is picked. */
const PRESET_HELP =
  'Viewer: sees it and subscribes to its published files. Editor: also creates, edits and runs. Manager: everything, deleting and sharing included.';
type Preset = keyof typeof PRESETS;
/** The presets offered, with the one a member already has (shown even where one may not give it). */
const withCurrent = (offered: Preset[], current: Preset | null) =>
  current && !offered.includes(current) ? [...offered, current] : offered;
/** Why a member's column is off: the server refuses changing a set beyond one's own. */
const BEYOND_YOURS = 'Holds permissions you do not: only someone who holds them may change or remove this set';
const presetSet = (kind: PermissionKind, preset: Preset): Partial<Set> =>
  Object.fromEntries(flagsOf(kind).map((f) => [f, PRESETS[preset](f)]));
/** The preset a member's flags are, or null when they are a set of their own. */
const presetOf = (kind: PermissionKind, m: Member): Preset | null =>
  (Object.keys(PRESETS) as Preset[]).find((p) => flagsOf(kind).every((f) => !!m.permissions[f] === PRESETS[p](f))) ??
  null;

/**
 * Who may do what with one object: its members (users and groups) as columns, the kind's permission
 * flags as rows, each a checkbox saved as it is changed, with a preset per member (viewer, editor,
 * manager) that sets them all; add a member as one of the presets; remove one
 * after a question. In a project in permissions mode this is all that opens the object to non-admins.
 */
export function PermissionsDialog({
  kind,
  id,
  name,
  onClose,
}: {
  kind: PermissionKind;
  id: string;
  name: string;
  onClose: () => void;
}) {
  const [members, setMembers] = useState<Member[]>([]);
  const [candidates, setCandidates] = useState<{ id: string; type: 'user' | 'group'; name: string }[]>([]);
  const [chosen, setChosen] = useState('');
  const [preset, setPreset] = useState<Preset>('Viewer');
  const flags = flagsOf(kind);
  const api = API[kind];

  const load = useCallback(async () => {
    const a = await api.list(id);
    if (a.ok) setMembers(a.data);
    else toastFailed(a.error ?? 'The permissions could not be read');
  }, [api, id]);
  useEffect(() => {
    void load();
    void (async () => {
      // Members are picked among the users and groups one's roles show; nothing asked that they refuse.
      const [u, g] = await Promise.all([
        mayCall('v1.users.list') ? invoke('v1.users.list', { query: { get_all: true } }) : null,
        mayCall('v1.groups.list') ? invoke('v1.groups.list', { query: { get_all: true } }) : null,
      ]);
      setCandidates([
        ...(u?.ok
          ? u.data.map((x) => ({
              id: x.id,
              type: 'user' as const,
              name: `${x.firstName} ${x.lastName}`.trim() || (x.email ?? x.id),
            }))
          : []),
        ...(g?.ok ? g.data.map((x) => ({ id: x.id, type: 'group' as const, name: `Group: ${x.name}` })) : []),
      ]);
    })();
  }, [load]);

  const add = async () => {
    const c = candidates.find((x) => x.id === chosen);
    if (!c) return;
    const a = await api.add(id, [{ id: c.id, type: c.type }], { ...emptySet(), ...presetSet(kind, preset) });
    toastOutcome(a, `${c.name} is now ${preset === 'Editor' ? 'an' : 'a'} ${preset.toLowerCase()} of “${name}”.`);
    setChosen('');
    // The Add button turns off once nobody is chosen: focus goes back to the choice, not to the page.
    document.getElementById('add-member-who')?.focus();
    if (a.ok) setMembers(a.data);
  };
  const toggle = async (m: Member, flag: Flag) => {
    const a = await api.change(id, m.id, { [flag]: !m.permissions[flag] });
    if (!a.ok) return toastFailed(a.error ?? 'The permission could not be changed');
    setMembers((all) => all.map((x) => (x.id === m.id ? a.data : x)));
  };
  const applyPreset = async (m: Member, p: Preset) => {
    const a = await api.change(id, m.id, presetSet(kind, p));
    if (!a.ok) return toastFailed(a.error ?? 'The permissions could not be changed');
    setMembers((all) => all.map((x) => (x.id === m.id ? a.data : x)));
  };
  const remove = async (m: Member) => {
    const yes = await askConfirm({
      title: 'Remove member?',
      message: `${m.memberName ?? 'This member'} loses every permission given here on “${name}”.`,
      confirmLabel: 'Remove member',
    });
    if (!yes) return;
    toastOutcome(await api.remove(id, [m.id]), `Removed ${m.memberName ?? 'the member'}.`);
    void load();
  };

  // The presets one may give: those whose flags one holds here (known once the list has answered).
  const grantable = members[0]?.grantable;
  const offered = (Object.keys(PRESETS) as Preset[]).filter(
    (p) => !grantable || flagsOf(kind).every((f) => !PRESETS[p](f) || grantable.includes(f)),
  );
  const mayPick = mayCall('v1.users.list') || mayCall('v1.groups.list');
  const free = candidates.filter((c) => !members.some((m) => m.memberId === c.id));
  return (
    <Dialog title={`Permissions of “${name}”`} onClose={onClose}>
      {members.length ? (
        <div className="matrix-scroll">
          <table className="permission-matrix">
            <thead>
              <tr>
                <th scope="col">Permission</th>
                {members.map((m) => (
                  <th key={m.id} scope="col">
                    {m.memberName ?? m.memberId}
                    <span className="muted"> {m.memberType}</span>
                    {m.mayChange !== false && (
                      <button
                        type="button"
                        className="icon danger"
                        aria-label={`Remove ${m.memberName ?? 'member'}`}
                        onClick={() => void remove(m)}
                      >
                        ×
                      </button>
                    )}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              <tr>
                <th scope="row">Preset</th>
                {members.map((m) => (
                  <td key={m.id}>
                    <select
                      value={presetOf(kind, m) ?? ''}
                      disabled={m.mayChange === false}
                      title={m.mayChange === false ? BEYOND_YOURS : undefined}
                      aria-label={`Preset for ${m.memberName ?? 'member'}`}
                      onChange={(e) => e.target.value && void applyPreset(m, e.target.value as Preset)}
                    >
                      {!presetOf(kind, m) && <option value="">Custom</option>}
                      {withCurrent(offered, presetOf(kind, m)).map((p) => (
                        <option key={p} value={p}>
                          {p}
                        </option>
                      ))}
                    </select>
                  </td>
                ))}
              </tr>
              {flags.map((f) => (
                <tr key={f}>
                  <th scope="row">{label(f, kind)}</th>
                  {members.map((m) => (
                    <td key={m.id}>
                      <input
                        type="checkbox"
                        checked={!!m.permissions[f]}
                        // Only a set that is one's to change, and only a flag one holds to give (taking one away is fine).
                        disabled={
                          m.mayChange === false || (!m.permissions[f] && !!m.grantable && !m.grantable.includes(f))
                        }
                        title={m.mayChange === false ? BEYOND_YOURS : undefined}
                        onChange={() => void toggle(m, f)}
                        aria-label={`${label(f, kind)} for ${m.memberName ?? 'member'}`}
                      />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="empty">
          No members yet. In a project in permissions mode, only administrators reach “{name}” until members are added.
        </p>
      )}
      {!mayPick && (
        <p className="hint">
          Your roles do not let you see users or groups: you can change what the members above may do, and an
          administrator can add others.
        </p>
      )}
      <form
        hidden={!mayPick}
        className="add-member"
        onSubmit={(e) => {
          e.preventDefault();
          void add();
        }}
      >
        <div className="field">
          <label htmlFor="add-member-who">Add member</label>
          <select id="add-member-who" value={chosen} onChange={(e) => setChosen(e.target.value)}>
            <option value="">Choose a user or group…</option>
            {free.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="add-member-as">As</label>
          <select
            id="add-member-as"
            value={preset}
            aria-describedby="add-member-presets"
            onChange={(e) => setPreset(e.target.value as Preset)}
          >
            {offered.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" disabled={!chosen}>
          Add
        </button>
        <p className="hint" id="add-member-presets">
          {PRESET_HELP}
        </p>
      </form>
    </Dialog>
  );
}
