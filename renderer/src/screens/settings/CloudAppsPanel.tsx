import { useEffect, useState } from 'react';
import { invoke } from '../../bridge';
import { Form, submitOutcome, type FieldDef, type FormValues } from '../../components/Form';
import { orNull, text } from '../../components/options';
import { toastSucceeded } from '../../stores/feedback/toasts';
import { mayCall } from '../../stores/session/session.store';

type Registered = { clientId: string; hasSecret: boolean; tenant?: string } | null;
type Provider = 'microsoft' | 'google' | 'dropbox';

/** What each provider's registration asks, and what it lets storage services connect. */
const PROVIDERS: {
  key: Provider;
  title: string;
  drives: string;
  where: string;
  fields: FieldDef[];
  secretRequired: boolean;
}[] = [
  {
    key: 'microsoft',
    title: 'Microsoft',
    drives: 'OneDrive and SharePoint',
    where: 'an app your organization registers in Microsoft Entra ID',
    fields: [
      { name: 'clientId', label: 'Application (client) ID', kind: 'text', required: true },
      {
        name: 'tenant',
        label: 'Directory (tenant) ID or domain',
        kind: 'text',
        required: true,
        hint: 'Such as contoso.onmicrosoft.com, or organizations for any work account',
      },
    ],
    secretRequired: false,
  },
  {
    key: 'google',
    title: 'Google',
    drives: 'Google Drive',
    where: 'an OAuth client of a Google Cloud project with the Drive API turned on',
    fields: [
      {
        name: 'clientId',
        label: 'Client ID',
        kind: 'text',
        required: true,
        hint: 'Ends in .apps.googleusercontent.com',
      },
    ],
    secretRequired: true,
  },
  {
    key: 'dropbox',
    title: 'Dropbox',
    drives: 'Dropbox',
    where: 'an app created in the Dropbox App Console (scoped access, files.content.write)',
    fields: [{ name: 'clientId', label: 'App key', kind: 'text', required: true }],
    secretRequired: false,
  },
];

/**
 * The apps registered at Microsoft, Google and Dropbox that cloud drive storage services connect
 * through, entered once (docs/CLOUD-DRIVES.md says how to register each). Secrets are never shown again.
 */
export function CloudAppsPanel() {
  const [apps, setApps] = useState<Record<Provider, Registered> | null>(null);
  useEffect(() => {
    void invoke('app.settings.getCloudApps').then((a) => {
      setApps(a.ok ? a.data : { microsoft: null, google: null, dropbox: null });
    });
  }, []);
  if (!apps) return null;
  return (
    <div className="panel">
      <h2>Cloud drives</h2>
      <p className="hint">
        Each provider’s registration takes this server’s address with /api/app/storage/oauth/callback as its redirect
        URI; the desktop app comes back to http://127.0.0.1 on a port of its own.
      </p>
      {PROVIDERS.map((p) => {
        const saved = apps[p.key];
        return (
          <section key={p.key} aria-labelledby={`cloud-app-${p.key}`}>
            <h3 id={`cloud-app-${p.key}`}>{p.title}</h3>
            <p className="hint">
              {p.drives} storage services connect through {p.where}.
            </p>
            <Form
              fields={[
                ...p.fields,
                {
                  name: 'clientSecret',
                  label: 'Client secret',
                  kind: 'password',
                  required: p.secretRequired && !saved?.hasSecret,
                  hint: saved?.hasSecret ? 'Stored encrypted; leave blank to keep the one saved' : 'Stored encrypted',
                },
              ]}
              initial={{ clientId: saved?.clientId ?? '', tenant: saved?.tenant ?? '', clientSecret: '' } as FormValues}
              submitLabel={`Save the ${p.title} app`}
              onSubmit={async (v) => {
                const a = await invoke('app.settings.setCloudApps', {
                  body: {
                    [p.key]: {
                      clientId: text(v.clientId),
                      ...(p.key === 'microsoft' ? { tenant: text(v.tenant) } : {}),
                      ...(orNull(v.clientSecret) ? { clientSecret: String(v.clientSecret) } : {}),
                    },
                  } as never,
                });
                if (a.ok) {
                  setApps(a.data);
                  toastSucceeded(`The ${p.title} app is saved: storage services can connect ${p.drives}.`);
                }
                return submitOutcome(a);
              }}
            />
          </section>
        );
      })}
    </div>
  );
}

/** Whether the panel is offered: the caller may change settings. */
export const mayEnterCloudApps = () => mayCall('app.settings.setCloudApps');
