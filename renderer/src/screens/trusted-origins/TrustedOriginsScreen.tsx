import type { FieldDef } from '../../components/Form';
import { orNull, text, type FormValues } from '../../components/options';
import { ResourceScreen } from '../../components/ResourceScreen';
import { crudConfig } from '../../components/crud-config';

const fields: FieldDef[] = [
  { name: 'name', label: 'Name', kind: 'text', required: true },
  {
    name: 'address',
    label: 'Origin',
    kind: 'text',
    required: true,
    hint: 'Scheme, host and port, such as https://portal.example.com',
  },
  { name: 'description', label: 'Description', kind: 'textarea' },
];
const body = (v: FormValues) => ({ name: text(v.name), address: text(v.address), description: orNull(v.description) });

const config = crudConfig({
  title: 'Trusted origins',
  noun: 'trusted origin',
  ops: {
    list: 'v1.trustedOrigins.list',
    create: 'v1.trustedOrigins.create',
    update: 'v1.trustedOrigins.update',
    remove: 'v1.trustedOrigins.delete',
  },
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
