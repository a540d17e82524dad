import { useState } from 'react';
import { Dialog } from '../../components/Dialog';
import type { FieldDef } from '../../components/Form';
import { orNull } from '../../components/options';
import { ResourceScreen, type ResourceConfig } from '../../components/ResourceScreen';

const inDays = (d: number) => new Date(Date.now() + d * 86400_000).toISOString().slice(0, 16);

/** The only time a key is shown: copy it now, it cannot be read again. */
function KeyOnce({ secret, done }: { secret: string; done: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <Dialog title="Your new API key" onClose={done}>
      <p>Copy the key now. For your safety it is stored only as a hash and will not be shown again.</p>
      <code className="secret" data-testid="new-api-key">{secret}</code>
      <div className="form-actions">
        <button type="button" className="primary" onClick={() => void navigator.clipboard.writeText(secret).then(() => setCopied(true))}>
          {copied ? 'Copied' : 'Copy to clipboard'}
        </button>
        <button type="button" onClick={done}>Done</button>
      </div>
    </Dialog>
  );
}

export function ApiKeysScreen() {
  const [secret, setSecret] = useState<string | null>(null);
  const fields: FieldDef[] = [
    { name: 'name', label: 'Name', kind: 'text', required: true },
    { name: 'description', label: 'Description', kind: 'textarea' },
  ];
  const config: ResourceConfig = {
    title: 'API keys',
    noun: 'API key',
    listOp: 'v1.apiKeys.listOwn',
    filterParam: 'name',
    filterLabel: 'name',
    columns: [
      { key: 'name', label: 'Name', sort: 'name' },
      { key: 'keyPrefix', label: 'Key', render: (r) => `${String(r.keyPrefix)}…` },
      { key: 'expiryDate', label: 'Expires', sort: 'expiryDate', render: (r) => `${new Date(String(r.expiryDate)).toLocaleString()}${r.expired ? ' (expired)' : ''}` },
      { key: 'lastUsedDate', label: 'Created', sort: 'createdDate', render: (r) => new Date(String(r.createdDate)).toLocaleDateString() },
    ],
    creates: [{
      noun: 'API key', op: 'v1.apiKeys.create', permission: 'useApiKeys',
      fields: [...fields, { name: 'expiryDate', label: 'Expires', kind: 'datetime', required: true }],
      initial: { expiryDate: inDays(90) },
      toBody: (v) => ({ name: v.name, description: orNull(v.description), expiryDate: v.expiryDate ? new Date(String(v.expiryDate)).toISOString() : undefined }),
      created: (row) => setSecret(String(row.key)),
    }],
    update: { op: 'v1.apiKeys.update', permission: 'useApiKeys', fields, toForm: (r) => ({ ...r }), toBody: (v) => ({ name: v.name, description: orNull(v.description) }) },
    remove: { op: 'v1.apiKeys.delete', permission: 'useApiKeys' },
  };
  return (
    <>
      <ResourceScreen config={config} />
      {secret && <KeyOnce secret={secret} done={() => setSecret(null)} />}
    </>
  );
}
