import { useEffect, useState } from 'react';
import { invoke } from '../../bridge';
import { Form, type FormValues } from '../../components/Form';

export function SettingsScreen() {
  const [methods, setMethods] = useState<FormValues | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => {
    void invoke('app.settings.getAuthenticationMethods').then((a) => setMethods(a.ok ? { ...a.data } : { jwtAuth: false, ntlmAuth: false }));
  }, []);
  return (
    <section className="screen">
      <header className="screen-head"><h1>Settings</h1></header>
      {notice && <div className="notice" role="status">{notice}</div>}
      <div className="panel">
        <h2>Authentication methods</h2>
        {methods && (
          <Form
            fields={[{ name: 'jwtAuth', label: 'JWT authentication', kind: 'checkbox' }, { name: 'ntlmAuth', label: 'Windows (NTLM) authentication', kind: 'checkbox' }]}
            initial={methods}
            submitLabel="Save authentication methods"
            onSubmit={async (v) => {
              const a = await invoke('v1.settings.updateAuthenticationMethods', { body: { jwtAuth: !!v.jwtAuth, ntlmAuth: !!v.ntlmAuth } });
              setNotice(a.ok ? 'Authentication methods saved.' : null);
              return a.ok ? null : { error: a.error, errorDetails: a.errorDetails };
            }}
          />
        )}
      </div>
      <div className="panel">
        <h2>Your password</h2>
        <Form
          fields={[{ name: 'currentPassword', label: 'Current password', kind: 'password', required: true }, { name: 'newPassword', label: 'New password', kind: 'password', required: true, hint: 'At least 8 characters' }]}
          initial={{}}
          submitLabel="Change password"
          onSubmit={async (v) => {
            const a = await invoke('app.auth.changePassword', { body: { currentPassword: String(v.currentPassword ?? ''), newPassword: String(v.newPassword ?? '') } });
            setNotice(a.ok ? 'Password changed; other sessions were signed out.' : null);
            return a.ok ? null : { error: a.error, errorDetails: a.errorDetails };
          }}
        />
      </div>
    </section>
  );
}
