import type { FieldDef } from '../../components/Form';
import { SYNCHRONIZATION_MODES, USER_DIRECTORY_TYPES } from '../../../../engine/wire';
import {
  choice,
  flag,
  organizationOptions,
  orNull,
  roleOptions,
  text,
  type FormValues,
} from '../../components/options';
import { ResourceScreen } from '../../components/ResourceScreen';
import { crudConfig } from '../../components/crud-config';
import { DirectorySyncPanel } from './DirectorySyncPanel';

const TEXT = [
  'prefix',
  'userDirectoryName',
  'azureClientId',
  'azureTenantId',
  'azureClientSecret',
  'hostName',
  'userName',
  'password',
  'filter',
  'frequency',
  'frequencyTime',
  'timeZone',
] as const;
// One dialog, the fields of the kind chosen: a server and an account for LDAP and Active Directory,
// an app registration for Azure AD; the schedule's fields only when it synchronizes on one.
const azure = (v: FormValues) => v.type === 'AzureAD';
const server = (v: FormValues) => !azure(v);
const scheduled = (v: FormValues) => !!v.synchronization && v.synchronization !== 'Manual';
const fields: FieldDef[] = [
  { name: 'name', label: 'Name', kind: 'text', required: true },
  {
    name: 'type',
    label: 'Type',
    kind: 'select',
    required: true,
    choices: [
      { id: 'LDAP', name: 'LDAP' },
      { id: 'ActiveDirectory', name: 'Active Directory' },
      { id: 'AzureAD', name: 'Azure AD' },
    ],
  },
  { name: 'organizationId', label: 'Organization', kind: 'select', required: true, options: organizationOptions },
  { name: 'synchronization', label: 'Synchronization', kind: 'select', required: true, choices: SYNCHRONIZATION_MODES },
  {
    name: 'frequencyTime',
    label: 'At',
    kind: 'time',
    hint: 'The time of day (its minute, for hourly), in the time zone below; 02:00 when empty',
    shownWhen: scheduled,
  },
  {
    name: 'frequency',
    label: 'On',
    kind: 'text',
    hint: 'Weekly: a weekday (Monday when empty); monthly: a day from 1 to 28',
    shownWhen: scheduled,
  },
  {
    name: 'timeZone',
    label: 'Time zone',
    kind: 'text',
    hint: "Type to search, such as Europe/Paris; this computer's when empty",
    suggestions: Intl.supportedValuesOf('timeZone'),
    shownWhen: scheduled,
  },
  {
    name: 'hostName',
    label: 'Host',
    kind: 'text',
    hint: 'The directory server, such as ldap.example.com',
    shownWhen: server,
  },
  { name: 'port', label: 'Port', kind: 'number', shownWhen: server },
  {
    name: 'userDirectoryName',
    label: 'Base DN',
    kind: 'text',
    hint: 'Where people and groups are searched, such as dc=example,dc=com; the server’s own when empty',
    shownWhen: server,
  },
  {
    name: 'userName',
    label: 'User name',
    kind: 'text',
    hint: 'The DN (LDAP) or account (Active Directory) that reads the directory',
    shownWhen: server,
  },
  {
    name: 'password',
    label: 'Password',
    kind: 'password',
    hint: 'Leave empty to keep the stored one',
    shownWhen: server,
  },
  { name: 'azureTenantId', label: 'Azure tenant id', kind: 'text', shownWhen: azure },
  { name: 'azureClientId', label: 'Azure client id', kind: 'text', shownWhen: azure },
  {
    name: 'azureClientSecret',
    label: 'Azure client secret',
    kind: 'password',
    hint: 'Leave empty to keep the stored one',
    shownWhen: azure,
  },
  {
    name: 'filter',
    label: 'Filter',
    kind: 'text',
    hint: 'Which people to synchronize, as an LDAP filter; every person when empty',
    shownWhen: server,
  },
  {
    name: 'prefix',
    label: 'Domain prefix',
    kind: 'text',
    hint: 'Put before account names, such as CORP',
    shownWhen: server,
  },
  { name: 'defaultUserRole', label: 'Default role', kind: 'select', options: roleOptions },
  {
    name: 'sendNotification',
    label: 'Welcome new people by mail',
    kind: 'checkbox',
    hint: 'Each person a synchronization brings is told how to sign in',
  },
  { name: 'isActive', label: 'Active', kind: 'checkbox' },
];
const body = (v: FormValues) => ({
  name: text(v.name),
  type: choice(USER_DIRECTORY_TYPES)(v.type),
  organizationId: text(v.organizationId),
  synchronization: choice(SYNCHRONIZATION_MODES)(v.synchronization),
  port: v.port === '' || v.port === undefined || v.port === null ? undefined : Number(v.port),
  defaultUserRole: orNull(v.defaultUserRole),
  sendNotification: flag(v.sendNotification),
  isActive: flag(v.isActive),
  ...(Object.fromEntries(TEXT.map((k) => [k, orNull(v[k])])) as Record<(typeof TEXT)[number], string | null>),
});

const config = crudConfig({
  title: 'User directories',
  noun: 'user directory',
  ops: {
    list: 'v1.userDirectories.list',
    create: 'v1.userDirectories.create',
    update: 'v1.userDirectories.update',
    remove: 'v1.userDirectories.delete',
  },
  columns: [
    { key: 'name', label: 'Name', sort: 'Name' },
    { key: 'type', label: 'Type', sort: 'Type' },
    { key: 'synchronization', label: 'Synchronization' },
    { key: 'syncStatus', label: 'Status', sort: 'SyncStatus', render: (r) => r.syncStatus ?? 'Never synchronized' },
  ],
  fields,
  initial: { type: 'LDAP', synchronization: 'Manual', isActive: true, port: 389 },
  body,
  toForm: (r) => ({ ...r, password: '', azureClientSecret: '' }),
  detail: (row, reload) => <DirectorySyncPanel directory={row} changed={reload} />,
});

export function UserDirectoriesScreen() {
  return <ResourceScreen config={config} />;
}
