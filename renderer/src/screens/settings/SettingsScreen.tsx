import { useEffect, useState } from 'react';
import { invoke } from '../../bridge';
import { Form, submitOutcome, type FormValues } from '../../components/Form';
import { toastSucceeded } from '../../stores/feedback/toasts';
import { MailServersPanel } from './MailServersPanel';
import { BackupsPanel } from './BackupsPanel';
import { CloudAppsPanel, mayEnterCloudApps } from './CloudAppsPanel';
import { selectMayCall, useSession } from '../../stores/session/session.store';

export function SettingsScreen() {
  const mayBackUp = useSession(selectMayCall('app.backups.overview'));
  const [methods, setMethods] = useState<FormValues | null>(null);
  useEffect(() => {
    void invoke('app.settings.getAuthenticationMethods').then((a) =>
      setMethods(a.ok ? { ...a.data } : { jwtAuth: false, ntlmAuth: false }),
    );
  }, []);
  return (
    <section className="screen">
      <header className="screen-head">
        <h1>Settings</h1>
      </header>
      <div className="panel">
        <h2>Authentication methods</h2>
        {methods && (
          <Form
            fields={[
              { name: 'jwtAuth', label: 'JWT authentication', kind: 'checkbox' },
              { name: 'ntlmAuth', label: 'Windows (NTLM) authentication', kind: 'checkbox' },
            ]}
            initial={methods}
            submitLabel="Save authentication methods"
            onSubmit={async (v) => {
              const a = await invoke('v1.settings.updateAuthenticationMethods', {
                body: { jwtAuth: !!v.jwtAuth, ntlmAuth: !!v.ntlmAuth },
              });
              if (a.ok) toastSucceeded('Authentication methods saved.');
              return submitOutcome(a);
            }}
          />
        )}
      </div>
      <MailServersPanel />
      {mayEnterCloudApps() && <CloudAppsPanel />}
      {mayBackUp && <BackupsPanel />}
    </section>
  );
}
