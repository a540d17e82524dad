import { useEffect, useState, type ReactNode } from 'react';
import { invoke } from '../../bridge';
import { Form, submitOutcome, type FormValues } from '../../components/Form';
import { toastSucceeded } from '../../stores/feedback/toasts';
import { useNav } from '../../stores/nav/nav.store';
import { MailServersPanel } from './MailServersPanel';
import { BackupsPanel } from './BackupsPanel';
import { CloudAppsPanel, mayEnterCloudApps } from './CloudAppsPanel';
import { selectMayCall, useSession } from '../../stores/session/session.store';

function SignInMethodsPanel() {
  const [methods, setMethods] = useState<FormValues | null>(null);
  useEffect(() => {
    void invoke('app.settings.getAuthenticationMethods').then((a) =>
      setMethods(a.ok ? { ...a.data } : { jwtAuth: false, ntlmAuth: false }),
    );
  }, []);
  return (
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
  );
}

interface Section {
  key: string;
  label: string;
  body: () => ReactNode;
}

/**
 * Settings as sections, each with its own address (#/settings/mail, #/settings/backups…) and a
 * link in the section list, so a checklist or a colleague can point at one; mail comes first,
 * since it is what a first report needs.
 */
export function SettingsScreen() {
  const mayBackUp = useSession(selectMayCall('app.backups.overview'));
  const chosen = useNav((s) => s.path[0]);
  const sections: Section[] = [
    { key: 'mail', label: 'Mail', body: () => <MailServersPanel /> },
    { key: 'sign-in', label: 'Sign-in', body: () => <SignInMethodsPanel /> },
    ...(mayEnterCloudApps() ? [{ key: 'cloud', label: 'Cloud drives', body: () => <CloudAppsPanel /> }] : []),
    ...(mayBackUp ? [{ key: 'backups', label: 'Backups', body: () => <BackupsPanel /> }] : []),
  ];
  const current = sections.find((s) => s.key === chosen) ?? sections[0];
  return (
    <section className="screen">
      <header className="screen-head">
        <h1>Settings</h1>
      </header>
      <nav className="section-tabs" aria-label="Settings sections">
        {sections.map((s) => (
          <a key={s.key} href={`#/settings/${s.key}`} aria-current={s === current ? 'page' : undefined}>
            {s.label}
          </a>
        ))}
      </nav>
      <div className="settings-section">{current.body()}</div>
    </section>
  );
}
