import { useEffect, useState } from 'react';
import { invoke } from '../../bridge';
import type { RowOf } from '../../../../engine/catalogue';
import { Dialog } from '../../components/Dialog';
import { Form, submitOutcome, type Option } from '../../components/Form';
import { flag, text, userOptions } from '../../components/options';
import { askConfirm } from '../../stores/feedback/confirm.store';
import { toastOutcome, toastSucceeded } from '../../stores/feedback/toasts';

type Person = RowOf<'v1.users.list'>;

/** Once a user owns nothing, asks whether to delete them now (the usual next step of a transfer). */
export async function offerDeletion(from: Person, deleted: () => void) {
  const yes = await askConfirm({
    title: `Delete ${from.fullName}?`,
    message: `What ${from.fullName} owned has moved, so they can be deleted now: they lose access at once and leave every group and organization. This cannot be undone.`,
    confirmLabel: 'Delete user',
    cancelLabel: 'Keep them',
  });
  if (yes && toastOutcome(await invoke('v2.users.delete', { params: { id: from.id } }), `Deleted ${from.fullName}.`))
    deleted();
}

/**
 * Hands what one user owns (projects, reports, tasks, resources) and holds (roles, groups,
 * organizations, permissions, task recipient entries) to another, typically before they leave;
 * the screen then offers to delete them, which is possible only once they own nothing.
 */
export function TransferDialog({ from, done }: { from: Person; done: (changed: boolean) => void }) {
  const [users, setUsers] = useState<Option[]>([]);
  useEffect(() => void userOptions().then((all) => setUsers(all.filter((u) => u.id !== from.id))), [from.id]);
  return (
    <Dialog title={`Transfer what ${from.fullName} owns`} onClose={() => done(false)}>
      <Form
        fields={[
          { name: 'to', label: 'To', kind: 'select', required: true, choices: users },
          { name: 'content', label: 'Content: projects, reports, tasks and resources they created', kind: 'checkbox' },
          {
            name: 'permissions',
            label: 'Rights: roles, groups, organizations, permissions and task recipient entries',
            kind: 'checkbox',
          },
        ]}
        initial={{ to: '', content: true, permissions: true }}
        submitLabel="Transfer"
        onCancel={() => done(false)}
        onSubmit={async (v) => {
          const to = users.find((u) => u.id === v.to)?.name ?? 'the other user';
          const a = await invoke('v2.users.transfer', {
            params: { id: from.id },
            body: { newUserID: text(v.to), transferContent: flag(v.content), transferPermissions: flag(v.permissions) },
          });
          if (!a.ok) return submitOutcome(a);
          toastSucceeded(
            `Moved ${a.data.content} item${a.data.content === 1 ? '' : 's'} and ${a.data.permissions} right${a.data.permissions === 1 ? '' : 's'} to ${to}.`,
          );
          done(true);
          return null;
        }}
      />
    </Dialog>
  );
}
