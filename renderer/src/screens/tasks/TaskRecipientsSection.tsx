import { useMemo, useState } from 'react';
import { invoke } from '../../bridge';
import { Dialog } from '../../components/Dialog';
import { Form } from '../../components/Form';
import { flag, groupOptions, ids } from '../../components/options';
import type { RecipientItem } from './task-draft';
import { mayCall } from '../../stores/session/session.store';

async function userChoices() {
  const a = await invoke('v1.users.list', { query: { get_all: true } });
  return a.ok
    ? a.data.map((u) => ({
        id: u.id,
        name: `${u.fullName}${u.email ? ` <${u.email}>` : ''}`,
        email: u.email,
        fullName: u.fullName,
        kind: u.type,
      }))
    : [];
}
const badgeOf = (r: RecipientItem) =>
  r.type === 'group' ? 'group' : r.userKind === 'recipient' ? 'recipient' : 'user';
const labelOf = (r: RecipientItem) => `${r.name}${r.email && r.email !== r.name ? ` <${r.email}>` : ''}`;

/** Users, recipients and groups a task's files go to, each by e-mail and in the hub; part of the task's draft. */
export function TaskRecipientsSection({
  items,
  edited,
  readOnly = false,
}: {
  items: RecipientItem[];
  edited: (items: RecipientItem[]) => void;
  /** Shown to someone who may not change the task: the list alone, no picker to fill (nor ask for). */
  readOnly?: boolean;
}) {
  const [editing, setEditing] = useState<RecipientItem | null>(null);
  const fields = useMemo(() => recipientFields(items), [items]);
  const [note, setNote] = useState<string | null>(null);
  return (
    <div className="panel">
      <h2>Recipients</h2>
      <ul className="cards">
        {items.map((r) => (
          <li key={r.key}>
            {labelOf(r)} <span className="badge">{badgeOf(r)}</span>
            {r.sendEmail && <span className="badge">e-mail</span>}
            {r.seeInHub && <span className="badge">hub</span>}
            <span className="card-actions">
              <button
                type="button"
                className="small"
                aria-label={`Edit recipient ${r.name}`}
                onClick={() => setEditing(r)}
              >
                Edit
              </button>
              <button
                type="button"
                className="small danger"
                aria-label={`Remove recipient ${r.name}`}
                onClick={() => edited(items.filter((x) => x.key !== r.key))}
              >
                Remove
              </button>
            </span>
          </li>
        ))}
        {items.length === 0 && (
          <li className="empty">{readOnly ? 'Nobody yet.' : 'Nobody yet: add users or groups below.'}</li>
        )}
      </ul>
      {note && (
        <p className="hint" role="status">
          {note}
        </p>
      )}
      {!readOnly && !pickable().users && !pickable().groups && (
        <p className="hint">
          Your roles do not let you see users or groups, so you cannot add recipients here; an administrator can give
          you a role that views them.
        </p>
      )}
      {!readOnly && (pickable().users || pickable().groups) && (
        <Form
          fields={fields}
          initial={{ sendEmail: true, seeInHub: true }}
          submitLabel="Add recipients"
          clearOnSuccess
          onSubmit={async (v) => {
            const [users, groups] = await Promise.all([
              pickable().users ? userChoices() : [],
              pickable().groups ? groupOptions() : [],
            ]);
            const chosen: RecipientItem[] = [
              ...ids(v.users)
                .map((id) => users.find((u) => u.id === id))
                .filter((u) => !!u)
                .map((u) => ({
                  key: u.id,
                  type: 'user' as const,
                  name: u.fullName,
                  email: u.email,
                  userKind: u.kind === 'recipient' ? ('recipient' as const) : ('user' as const),
                  sendEmail: flag(v.sendEmail),
                  seeInHub: flag(v.seeInHub),
                })),
              ...ids(v.groups)
                .map((id) => groups.find((g) => g.id === id))
                .filter((g) => !!g)
                .map((g) => ({
                  key: g.id,
                  type: 'group' as const,
                  name: g.name,
                  email: null,
                  userKind: null,
                  sendEmail: flag(v.sendEmail),
                  seeInHub: flag(v.seeInHub),
                })),
            ];
            if (!chosen.length) return { error: 'Choose at least one user or group', errorDetails: [] };
            // Someone already receiving the files is not added twice: said, and the others are added.
            const already = chosen.filter((c) => items.some((x) => x.key === c.key));
            const fresh = chosen.filter((c) => !items.some((x) => x.key === c.key));
            if (!fresh.length)
              return { error: `Already recipients: ${already.map((a) => a.name).join(', ')}`, errorDetails: [] };
            edited([...items, ...fresh]);
            setNote(
              already.length
                ? `Already recipients, left as they were: ${already.map((a) => a.name).join(', ')}.`
                : null,
            );
            return null;
          }}
        />
      )}
      {editing && (
        <Dialog title={`Edit recipient ${editing.name}`} onClose={() => setEditing(null)}>
          <Form
            fields={EDIT_FIELDS}
            initial={{ sendEmail: editing.sendEmail, seeInHub: editing.seeInHub }}
            submitLabel="Apply"
            onCancel={() => setEditing(null)}
            onSubmit={async (v) => {
              edited(
                items.map((x) =>
                  x.key === editing.key ? { ...x, sendEmail: flag(v.sendEmail), seeInHub: flag(v.seeInHub) } : x,
                ),
              );
              setEditing(null);
              return null;
            }}
          />
        </Dialog>
      )}
    </div>
  );
}

/** A choice already among the task's recipients says so in the picker, so nobody adds them twice. */
const marked =
  (items: RecipientItem[]) =>
  <T extends { id: string; name: string }>(choices: T[]) =>
    choices.map((c) => (items.some((x) => x.key === c.id) ? { ...c, name: `${c.name} (already a recipient)` } : c));

/** Who may be picked: users and groups as far as one's roles show them (nobody is asked for a list refused). */
const pickable = () => ({ users: mayCall('v1.users.list'), groups: mayCall('v1.groups.list') });

const recipientFields = (items: RecipientItem[]) => [
  ...(pickable().users
    ? [
        {
          name: 'users',
          label: 'Users and recipients',
          kind: 'multi' as const,
          options: async () => marked(items)(await userChoices()),
        },
      ]
    : []),
  ...(pickable().groups
    ? [
        {
          name: 'groups',
          label: 'Groups',
          kind: 'multi' as const,
          options: async () => marked(items)(await groupOptions()),
        },
      ]
    : []),
  { name: 'sendEmail', label: 'By e-mail', kind: 'checkbox' as const },
  { name: 'seeInHub', label: 'In the hub', kind: 'checkbox' as const },
];

const EDIT_FIELDS = [
  { name: 'sendEmail', label: 'Send the files by e-mail', kind: 'checkbox' as const },
  { name: 'seeInHub', label: 'Show the files in the hub', kind: 'checkbox' as const },
];
