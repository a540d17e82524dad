import { invoke } from '../../bridge';
import { useAllRows } from '../../hooks/useAllRows';
import type { RowOf } from '../../../../engine/catalogue';
import { Form, submitOutcome } from '../../components/Form';
import { groupOptions, ids, userOptions } from '../../components/options';
import { askConfirm } from '../../stores/feedback/confirm.store';
import { toastOutcome } from '../../stores/feedback/toasts';
import type { TaskDto } from './TaskDesigner';

type Recipient = RowOf<'v1.taskRecipients.list'>;

/** Who receives a task's files: users and groups, each by e-mail and in the hub. */
export function TaskRecipientsSection({ task }: { task: TaskDto }) {
  const [rows, load] = useAllRows('v1.taskRecipients.list', { taskId: task.id });
  const remove = async (r: Recipient) => {
    const yes = await askConfirm({ title: 'Remove recipient?', message: `“${r.name}” will no longer receive this task's files.`, confirmLabel: 'Remove recipient' });
    if (!yes) return;
    toastOutcome(await invoke('v2.tasks.deleteRecipients', { params: { id: task.id }, body: [r.id] }), `Removed “${r.name}”.`);
    void load();
  };
  return (
    <div className="panel">
      <h2>Recipients</h2>
      <ul className="cards">
        {rows === null && <li className="empty">Loading…</li>}
        {rows?.map((r) => (
          <li key={r.id}>
            {r.name} <span className="badge">{r.type}</span>
            {r.sendEmail && <span className="badge">e-mail</span>}
            {r.seeInHub && <span className="badge">hub</span>}
            <span className="card-actions">
              <button type="button" className="small danger" aria-label={`Remove recipient ${r.name}`} onClick={() => void remove(r)}>Remove</button>
            </span>
          </li>
        ))}
        {rows?.length === 0 && <li className="empty">Nobody yet: add users or groups below.</li>}
      </ul>
      <Form
        fields={[
          { name: 'users', label: 'Users', kind: 'multi', options: userOptions },
          { name: 'groups', label: 'Groups', kind: 'multi', options: groupOptions },
        ]}
        initial={{}}
        submitLabel="Add recipients"
        clearOnSuccess
        onSubmit={async (v) => {
          const body = [...ids(v.users).map((id) => ({ id, type: 'user' as const })), ...ids(v.groups).map((id) => ({ id, type: 'group' as const }))].map((r) => ({ ...r, sendEmail: true, seeInHub: true }));
          if (!body.length) return { error: 'Choose at least one user or group', errorDetails: [] };
          const a = await invoke('v1.taskRecipients.add', { params: { taskId: task.id }, body });
          if (!a.ok) return submitOutcome(a);
          void load();
          return null;
        }}
      />
    </div>
  );
}
