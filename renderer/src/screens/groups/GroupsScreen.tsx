import { flag, organizationOptions, orNull, text, type FormValues } from '../../components/options';
import type { FieldDef } from '../../components/Form';
import { ResourceScreen } from '../../components/ResourceScreen';
import { crudConfig } from '../../components/crud-config';
import { GroupMembers } from './GroupMembers';

const fields: FieldDef[] = [
  { name: 'name', label: 'Name', kind: 'text', required: true },
  { name: 'description', label: 'Description', kind: 'textarea' },
  { name: 'organizationId', label: 'Organization', kind: 'select', options: organizationOptions },
  { name: 'isActive', label: 'Active', kind: 'checkbox' },
];
const body = (v: FormValues) => ({
  name: text(v.name),
  description: orNull(v.description),
  organizationId: orNull(v.organizationId),
  isActive: flag(v.isActive),
});

const config = crudConfig({
  title: 'Groups',
  noun: 'group',
  ops: { list: 'v1.groups.list', create: 'v1.groups.create', update: 'v1.groups.update', remove: 'v1.groups.delete' },
  columns: [
    { key: 'name', label: 'Name', sort: 'Name' },
    { key: 'organizationName', label: 'Organization', sort: 'Organization.Name' },
    { key: 'users', label: 'Users', sort: 'Users' },
    { key: 'type', label: 'Type', sort: 'Type' },
    {
      key: 'createdDate',
      label: 'Created',
      sort: 'CreatedDate',
      render: (r) => (r.createdDate ? new Date(r.createdDate).toLocaleDateString() : ''),
    },
  ],
  fields,
  initial: { isActive: true },
  body,
  detail: (row, reload) => <GroupMembers key={row.id} group={row} changed={reload} />,
});

export function GroupsScreen() {
  return <ResourceScreen config={config} />;
}
