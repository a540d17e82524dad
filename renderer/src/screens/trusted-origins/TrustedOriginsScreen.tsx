import type { FieldDef } from '../../components/Form';
import { orNull } from '../../components/options';
import { ResourceScreen } from '../../components/ResourceScreen';
import { crudConfig } from '../../components/crud-config';

const fields: FieldDef[] = [
  { name: 'name', label: 'Name', kind: 'text', required: true },
  { name: 'address', label: 'Origin', kind: 'text', required: true, hint: 'Scheme, host and port, such as https://portal.example.com' },
  { name: 'description', label: 'Description', kind: 'textarea' },
];
const body = (v: Record<string, unknown>) => ({ name: v.name, address: v.address, description: orNull(v.description) });

const config = crudConfig({
  title: 'Trusted origins',
  noun: 'trusted origin',
  ops: { list: 'v1.trustedOrigins.list', create: 'v1.trustedOrigins.create', update: 'v1.trustedOrigins.update', remove: 'v1.trustedOrigins.delete' },
  permissions: { create: 'editSettings', update: 'editSettings', remove: 'editSettings' },
  columns: [
    { key: 'name', label: 'Name', sort: 'Name' },
    { key: 'address', label: 'Origin', sort: 'Address' },
    { key: 'description', label: 'Description', sort: 'Description' },
  ],
  fields,
  initial: {},
  body,
});

export function TrustedOriginsScreen() {
  return <ResourceScreen config={config} />;
}
