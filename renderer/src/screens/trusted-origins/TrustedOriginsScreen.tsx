import type { FieldDef } from '../../components/Form';
import { orNull } from '../../components/options';
import { ResourceScreen, type ResourceConfig } from '../../components/ResourceScreen';

const fields: FieldDef[] = [
  { name: 'name', label: 'Name', kind: 'text', required: true },
  { name: 'address', label: 'Origin', kind: 'text', required: true, hint: 'Scheme, host and port, such as https://portal.example.com' },
  { name: 'description', label: 'Description', kind: 'textarea' },
];
const body = (v: Record<string, unknown>) => ({ name: v.name, address: v.address, description: orNull(v.description) });

const config: ResourceConfig = {
  title: 'Trusted origins',
  noun: 'trusted origin',
  listOp: 'v1.trustedOrigins.list',
  filterParam: 'name',
  filterLabel: 'name',
  columns: [
    { key: 'name', label: 'Name', sort: 'Name' },
    { key: 'address', label: 'Origin', sort: 'Address' },
    { key: 'description', label: 'Description', sort: 'Description' },
  ],
  creates: [{ noun: 'trusted origin', op: 'v1.trustedOrigins.create', permission: 'editSettings', fields, initial: {}, toBody: body }],
  update: { op: 'v1.trustedOrigins.update', permission: 'editSettings', fields, toForm: (r) => ({ ...r }), toBody: body },
  remove: { op: 'v1.trustedOrigins.delete', permission: 'editSettings' },
};

export function TrustedOriginsScreen() {
  return <ResourceScreen config={config} />;
}
