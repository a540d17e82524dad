import type { FieldDef } from '../../components/Form';
import { orNull, text, type FormValues } from '../../components/options';
import { ResourceScreen } from '../../components/ResourceScreen';
import { crudConfig } from '../../components/crud-config';
import { OrganizationAuthentication } from './OrganizationAuthentication';

const DEFAULT_THEME = '00000000-0000-0000-0000-000000000001';
const fields: FieldDef[] = [
  { name: 'displayName', label: 'Display name', kind: 'text', required: true },
  { name: 'name', label: 'Name', kind: 'text' },
  { name: 'description', label: 'Description', kind: 'textarea' },
];
const body = (v: FormValues) => ({
  displayName: text(v.displayName),
  name: orNull(v.name),
  description: orNull(v.description),
  themeId: orNull(v.themeId) ?? DEFAULT_THEME,
});

const config = crudConfig({
  title: 'Organizations',
  noun: 'organization',
  ops: {
    list: 'v1.organizations.list',
    create: 'v1.organizations.create',
    update: 'v1.organizations.update',
    remove: 'v1.organizations.delete',
  },
  columns: [
    { key: 'displayName', label: 'Display name', sort: 'DisplayName' },
    { key: 'name', label: 'Name', sort: 'Name' },
    { key: 'description', label: 'Description', sort: 'Description' },
  ],
  fields,
  initial: {},
  body,
  detail: (row) => <OrganizationAuthentication key={row.id} org={row} />,
  detailLabel: 'Sign-in settings',
  // Edit shows everything about the organization, its sign-in too, as people look for it there.
  alongside: (row) => <OrganizationAuthentication key={row.id} org={row} />,
});

export function OrganizationsScreen() {
  return <ResourceScreen config={config} />;
}
