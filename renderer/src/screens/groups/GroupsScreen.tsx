import { organizationOptions, orNull } from '../../components/options';
import type { FieldDef } from '../../components/Form';
import { ResourceScreen, type ResourceConfig } from '../../components/ResourceScreen';
import { GroupMembers } from './GroupMembers';

const fields: FieldDef[] = [
  { name: 'name', label: 'Name', kind: 'text', required: true },
  { name: 'description', label: 'Description', kind: 'textarea' },
  { name: 'organizationId', label: 'Organization', kind: 'select', options: organizationOptions },
  { name: 'isActive', label: 'Active', kind: 'checkbox' },
];
const body = (v: Record<string, unknown>) => ({ name: v.name, description: orNull(v.description), organizationId: orNull(v.organizationId), isActive: !!v.isActive });

const config: ResourceConfig = {
  title: 'Groups',
  noun: 'group',
  listOp: 'v1.groups.list',
  filterParam: 'name',
  filterLabel: 'name',
  columns: [
    { key: 'name', label: 'Name', sort: 'Name' },
    { key: 'organizationName', label: 'Organization', sort: 'Organization.Name' },
    { key: 'users', label: 'Users', sort: 'Users' },
    { key: 'type', label: 'Type', sort: 'Type' },
    { key: 'createdDate', label: 'Created', sort: 'CreatedDate', render: (r) => new Date(String(r.createdDate)).toLocaleDateString() },
  ],
  creates: [{ noun: 'group', op: 'v1.groups.create', permission: 'createGroup', fields, initial: { isActive: true }, toBody: body }],
  update: { op: 'v1.groups.update', permission: 'editGroup', fields, toForm: (r) => ({ ...r }), toBody: body },
  remove: { op: 'v1.groups.delete', permission: 'deleteGroup' },
  detail: (row, reload) => <GroupMembers key={row.id} group={row as never} changed={reload} />,
};

export function GroupsScreen() {
  return <ResourceScreen config={config} />;
}
