import type { FieldDef } from '../../components/Form';
import { orNull } from '../../components/options';
import { ResourceScreen, type ResourceConfig } from '../../components/ResourceScreen';
import { OrganizationAuthentication } from './OrganizationAuthentication';

const DEFAULT_THEME = '00000000-0000-0000-0000-000000000001';
const fields: FieldDef[] = [
  { name: 'displayName', label: 'Display name', kind: 'text', required: true },
  { name: 'name', label: 'Name', kind: 'text' },
  { name: 'description', label: 'Description', kind: 'textarea' },
];
const body = (v: Record<string, unknown>) => ({ displayName: v.displayName, name: orNull(v.name), description: orNull(v.description), themeId: v.themeId ?? DEFAULT_THEME });

const config: ResourceConfig = {
  title: 'Organizations',
  noun: 'organization',
  listOp: 'v1.organizations.list',
  filterParam: 'name',
  filterLabel: 'name',
  columns: [
    { key: 'displayName', label: 'Display name', sort: 'DisplayName' },
    { key: 'name', label: 'Name', sort: 'Name' },
    { key: 'description', label: 'Description', sort: 'Description' },
  ],
  creates: [{ noun: 'organization', op: 'v1.organizations.create', permission: 'createSystem', fields, initial: {}, toBody: body }],
  update: { op: 'v1.organizations.update', permission: 'editSystem', fields, toForm: (r) => ({ ...r }), toBody: body },
  remove: { op: 'v1.organizations.delete', permission: 'deleteSystem' },
  detail: (row) => <OrganizationAuthentication key={row.id} org={row as never} />,
};

export function OrganizationsScreen() {
  return <ResourceScreen config={config} />;
}
