import { useCallback, useEffect, useState } from 'react';
import { invoke } from '../../bridge';
import type { ResultOf } from '../../../../engine/catalogue';
import { Form, submitOutcome, type FieldDef, type FormValues } from '../../components/Form';
import { flag, num, orNull, text } from '../../components/options';
import { askConfirm } from '../../stores/feedback/confirm.store';
import { toastOutcome, toastSucceeded } from '../../stores/feedback/toasts';

type Server = ResultOf<'app.mailServers.list'>[number];

const FIELDS: FieldDef[] = [
  { name: 'name', label: 'Name', kind: 'text', required: true },
  { name: 'hostName', label: 'SMTP host', kind: 'text', required: true, hint: 'Such as smtp.example.com' },
  { name: 'smtpPort', label: 'Port', kind: 'number', required: true },
  { name: 'ssl', label: 'Use TLS from the start (port 465)', kind: 'checkbox' },
  { name: 'userName', label: 'User name', kind: 'text' },
  {
    name: 'password',
    label: 'Password',
    kind: 'password',
    hint: 'Stored encrypted; leave blank to keep the one saved',
  },
  { name: 'fromName', label: 'Sender name', kind: 'text', required: true },
  { name: 'fromAddress', label: 'Sender address', kind: 'email' },
];

const body = (v: FormValues) => ({
  name: text(v.name),
  hostName: text(v.hostName),
  smtpPort: num(v.smtpPort) as number,
  ssl: flag(v.ssl),
  userName: orNull(v.userName),
  password: orNull(v.password),
  fromName: text(v.fromName),
  fromAddress: orNull(v.fromAddress),
  testEmail: orNull(v.testEmail),
});

/** The SMTP servers mail goes out through (the first is used), each with a real test mail. */
export function MailServersPanel() {
  const [servers, setServers] = useState<Server[] | null>(null);
  const [reply, setReply] = useState<string | null>(null);
  const load = useCallback(async () => {
    const a = await invoke('app.mailServers.list');
    setServers(a.ok ? a.data : []);
  }, []);
  useEffect(() => void load(), [load]);
  const current = servers?.[0] ?? null;
  const remove = async (m: Server) => {
    const yes = await askConfirm({
      title: 'Delete mail server?',
      message: `Mail will no longer go out through “${m.name}”. Mail waiting in the outbox for it will fail.`,
      confirmLabel: 'Delete mail server',
    });
    if (!yes) return;
    toastOutcome(await invoke('app.mailServers.delete', { params: { id: m.id } }), `Deleted mail server “${m.name}”.`);
    void load();
  };
  if (!servers)
    return (
      <div className="panel">
        <h2>Mail server</h2>
        <p className="empty">Loading…</p>
      </div>
    );
  return (
    <div className="panel">
      <h2>Mail server</h2>
      {current ? (
        <p className="status-line">
          Mail goes out through “{current.name}” ({current.hostName}:{current.smtpPort}).{' '}
          <button type="button" className="small danger" onClick={() => void remove(current)}>
            Delete
          </button>
        </p>
      ) : (
        <p className="empty">No mail server yet: tasks cannot mail their files until one is set up.</p>
      )}
      <Form
        key={current?.id ?? 'new'}
        fields={FIELDS}
        initial={current ? { ...current, password: '' } : { smtpPort: 587, fromName: 'Broadsheet' }}
        submitLabel={current ? 'Save mail server' : 'Add mail server'}
        onSubmit={async (v) => {
          const a = current
            ? await invoke('v1.mailServers.update', { params: { id: current.id }, body: body(v) })
            : await invoke('v1.mailServers.create', { body: body(v) });
          if (!a.ok) return submitOutcome(a);
          toastSucceeded('Mail server saved.');
          void load();
          return null;
        }}
      />
      {current && (
        <>
          <h3 className="spaced">Test</h3>
          {reply && (
            <p className="notice" role="status">
              {reply}
            </p>
          )}
          <Form
            fields={[{ name: 'testEmail', label: 'Send a test mail to', kind: 'email', required: true }]}
            initial={{ testEmail: current.testEmail ?? '' }}
            submitLabel="Send a test mail"
            onSubmit={async (v) => {
              setReply(null);
              // The saved settings, with the stored password (the engine uses it when none is given).
              const a = await invoke('v1.mailServers.test', {
                body: { ...body({ ...current, password: '' }), testEmail: text(v.testEmail) },
              });
              if (!a.ok) return submitOutcome(a);
              setReply(`Test mail accepted for ${a.data.accepted.join(', ')}: ${a.data.response}`);
              return null;
            }}
          />
        </>
      )}
    </div>
  );
}
