import { useEffect, useState } from 'react';
import { invoke } from '../../bridge';
import { Form, submitOutcome, type FormValues } from '../../components/Form';
import { toastSucceeded } from '../../stores/feedback/toasts';
import { MailServersPanel } from './MailServersPanel';
import { BackupsPanel } from './BackupsPanel';
import { selectMayCall, useSession } from '../../stores/session/session.store';

export function SettingsScreen() {
  const mayBackUp = useSession(selectMayCall('app.backups.overview'));
  const [methods, setMethods] = useState<FormValues | null>(null);
  useEffect(() => {
    void invoke('app.settings.getAuthenticationMethods').then((a) => setMethods(a.ok ? { ...a.data } : { jwtAuth: false, ntlmAuth: false }));
  }, []);
  return (
    <section className="screen">
      <header className="screen-head"><h1>Settings</h1></header>
      <div className="panel">
        <h2>Authentication methods</h2>
        {methods && (
          <Form
            fields={[{ name: 'jwtAuth', label: 'JWT authentication', kind: 'checkbox' }, { name: 'ntlmAuth', label: 'Windows (NTLM) authentication', kind: 'checkbox' }]}
            initial={methods}
            submitLabel="Save authentication methods"
            onSubmit={async (v) => {
              const a = await invoke('v1.settings.updateAuthenticationMethods', { body: { jwtAuth: !!v.jwtAuth, ntlmAuth: !!v.ntlmAuth } });
              if (a.ok) toastSucceeded('Authentication methods saved.');
              return submitOutcome(a);
            }}
          />
        )}
      </div>
      <MailServersPanel />
      {mayBackUp && <BackupsPanel />}
      <div className="panel">
        <h2>Your password</h2>
        <Form
          fields={[{ name: 'currentPassword', label: 'Current password', kind: 'password', required: true }, { name: 'newPassword', label: 'New password', kind: 'password', required: true, hint: 'At least 8 characters' }]}
          initial={{}}
          submitLabel="Change password"
          clearOnSuccess
          onSubmit={async (v) => {
            const a = await invoke('app.auth.changePassword', { body: { currentPassword: String(v.currentPassword ?? ''), newPassword: String(v.newPassword ?? '') } });
            if (a.ok) toastSucceeded('Password changed; other sessions were signed out.');
            return submitOutcome(a);
          }}
        />
      </div>
    </section>
  );
}
