import { useState } from 'react';
import { Dialog } from '../../components/Dialog';
import type { FieldDef } from '../../components/Form';
import { orNull, text } from '../../components/options';
import { ResourceScreen, type ResourceConfig } from '../../components/ResourceScreen';
import { createWith, updateWith } from '../../components/crud-config';

const inDays = (d: number) => new Date(Date.now() + d * 86400_000).toISOString().slice(0, 16);

/** The only time a key is shown: copy it now, it cannot be read again. */
function KeyOnce({ secret, done }: { secret: string; done: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <Dialog title="Your new API key" onClose={done} closesOnlyByButtons>
      <p>Copy the key now. For your safety it is stored only as a hash and will not be shown again.</p>
      <code className="secret" data-testid="new-api-key">
        {secret}
      </code>
      <div className="form-actions">
        <button
          type="button"
          className="primary"
          onClick={() => void navigator.clipboard.writeText(secret).then(() => setCopied(true))}
        >
          {copied ? 'Copied' : 'Copy to clipboard'}
        </button>
        <button type="button" onClick={done}>
          I have saved the key
        </button>
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
  const config: ResourceConfig<'v1.apiKeys.listOwn'> = {
    title: 'API keys',
    noun: 'API key',
    listOp: 'v1.apiKeys.listOwn',
    filterParam: 'name',
    filterLabel: 'name',
    columns: [
      { key: 'name', label: 'Name', sort: 'name' },
      { key: 'keyPrefix', label: 'Key', render: (r) => `${r.keyPrefix}…` },
      {
        key: 'expiryDate',
        label: 'Expires',
        sort: 'expiryDate',
        render: (r) => `${r.expiryDate ? new Date(r.expiryDate).toLocaleString() : ''}${r.expired ? ' (expired)' : ''}`,
      },
      {
        key: 'createdDate',
        label: 'Created',
        sort: 'createdDate',
        render: (r) => (r.createdDate ? new Date(r.createdDate).toLocaleDateString() : ''),
      },
    ],
    creates: [
      createWith('v1.apiKeys.create', {
        noun: 'API key',
        fields: [...fields, { name: 'expiryDate', label: 'Expires', kind: 'datetime', required: true }],
        initial: { expiryDate: inDays(90) },
        // An empty or unreadable date is sent as typed, so the engine names the field.
        toBody: (v) => ({
          name: text(v.name),
          description: orNull(v.description),
          expiryDate:
            v.expiryDate && !Number.isNaN(Date.parse(text(v.expiryDate)))
              ? new Date(text(v.expiryDate)).toISOString()
              : text(v.expiryDate),
        }),
        created: (key) => setSecret(key.key),
      }),
    ],
    update: updateWith('v1.apiKeys.update', {
      fields,
      toForm: (r) => ({ ...r }),
      toBody: (v) => ({ name: text(v.name), description: orNull(v.description) }),
    }),
    remove: { op: 'v1.apiKeys.delete' },
  };
  return (
    <>
      <ResourceScreen config={config} />
      {secret && <KeyOnce secret={secret} done={() => setSecret(null)} />}
    </>
  );
}
