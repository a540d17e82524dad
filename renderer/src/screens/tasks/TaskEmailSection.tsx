import { useEffect, useState } from 'react';
import { invoke } from '../../bridge';
import { Form, submitOutcome } from '../../components/Form';
import { flag, orNull, text } from '../../components/options';
import { toastSucceeded } from '../../stores/feedback/toasts';
import type { TaskDto } from './TaskDesigner';

/** The mail a task sends with its files (delivered by the outbox). */
export function TaskEmailSection({ task, saved }: { task: TaskDto; saved: () => void }) {
  const e = task.email;
  // A new task's sender starts as the mail server's own (the one most tasks keep); unknown until asked.
  const [serverSender, setServerSender] = useState<string | undefined>(e?.from ? e.from : undefined);
  useEffect(() => {
    if (e?.from) return;
    void invoke('app.mailServers.list', {}).then((a) => setServerSender((a.ok ? a.data[0]?.fromAddress : null) ?? ''));
  }, [e?.from]);
  if (serverSender === undefined) return <div className="panel"><h2>E-mail</h2><p className="empty">Loading…</p></div>;
  return (
    <div className="panel">
      <h2>E-mail</h2>
      <Form
        fields={[
          { name: 'from', label: 'From', kind: 'email', required: true },
          { name: 'subject', label: 'Subject', kind: 'text', required: true },
          { name: 'message', label: 'Message', kind: 'textarea' },
          { name: 'oneToAll', label: 'One mail to all recipients (instead of one each)', kind: 'checkbox' },
          { name: 'isActive', label: 'Send e-mail', kind: 'checkbox' },
          { name: 'sendWithoutFiles', label: 'Send it even when no report file was made (conditions held back every one)', kind: 'checkbox' },
        ]}
        initial={{ from: e?.from || serverSender, subject: e?.subject ?? `${task.name}`, message: e?.message ?? '', oneToAll: e?.oneToAll ?? false, isActive: e?.isActive ?? true, sendWithoutFiles: e?.sendWithoutFiles ?? false }}
        submitLabel="Save e-mail"
        onSubmit={async (v) => {
          const a = await invoke('v2.tasks.updateEmail', { params: { id: task.id }, body: { from: text(v.from), subject: text(v.subject), message: orNull(v.message), oneToAll: flag(v.oneToAll), isActive: flag(v.isActive), sendWithoutFiles: flag(v.sendWithoutFiles) } });
          if (!a.ok) return submitOutcome(a);
          toastSucceeded('Saved the e-mail.');
          saved();
          return null;
        }}
      />
    </div>
  );
}
