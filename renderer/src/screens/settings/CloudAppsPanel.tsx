import { useEffect, useState } from 'react';
import { invoke } from '../../bridge';
import { Form, submitOutcome, type FormValues } from '../../components/Form';
import { orNull, text } from '../../components/options';
import { toastSucceeded } from '../../stores/feedback/toasts';
import { mayCall } from '../../stores/session/session.store';

/**
 * The app registered at Microsoft that OneDrive and SharePoint storage services connect through,
 * entered once (docs/CLOUD-DRIVES.md says how to register it). The secret is never shown again.
 */
export function CloudAppsPanel() {
  const [initial, setInitial] = useState<FormValues | null>(null);
  const [hasSecret, setHasSecret] = useState(false);
  useEffect(() => {
    void invoke('app.settings.getCloudApps').then((a) => {
      const m = a.ok ? a.data.microsoft : null;
      setHasSecret(!!m?.hasSecret);
      setInitial({ clientId: m?.clientId ?? '', tenant: m?.tenant ?? '', clientSecret: '' });
    });
  }, []);
  if (!initial) return null;
  return (
    <div className="panel">
      <h2>Cloud drives</h2>
      <p className="hint">
        OneDrive and SharePoint storage services connect through an app your organization registers in Microsoft Entra
        ID, with this server’s address and /api/app/storage/oauth/callback as its redirect URI.
      </p>
      <Form
        fields={[
          { name: 'clientId', label: 'Application (client) ID', kind: 'text', required: true },
          {
            name: 'tenant',
            label: 'Directory (tenant) ID or domain',
            kind: 'text',
            required: true,
            hint: 'Such as contoso.onmicrosoft.com, or organizations for any work account',
          },
          {
            name: 'clientSecret',
            label: 'Client secret',
            kind: 'password',
            hint: hasSecret ? 'Stored encrypted; leave blank to keep the one saved' : 'Stored encrypted',
          },
        ]}
        initial={initial}
        submitLabel="Save the Microsoft app"
        onSubmit={async (v) => {
          const a = await invoke('app.settings.setCloudApps', {
            body: {
              microsoft: {
                clientId: text(v.clientId),
                tenant: text(v.tenant),
                ...(orNull(v.clientSecret) ? { clientSecret: String(v.clientSecret) } : {}),
              },
            },
          });
          if (a.ok) {
            setHasSecret(!!a.data.microsoft?.hasSecret);
            toastSucceeded('The Microsoft app is saved: storage services can connect OneDrive and SharePoint.');
          }
          return submitOutcome(a);
        }}
      />
    </div>
  );
}

/** Whether the panel is offered: the caller may change settings. */
export const mayEnterCloudApps = () => mayCall('app.settings.setCloudApps');
