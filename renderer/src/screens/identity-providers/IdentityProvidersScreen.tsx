import type { FieldDef } from '../../components/Form';
import { SAML_PROVIDER_TYPES } from '../../../../engine/wire';
import { choice, flag, orNull, text, type FormValues } from '../../components/options';
import { ResourceScreen } from '../../components/ResourceScreen';
import { crudConfig } from '../../components/crud-config';
import { ProviderAddresses } from './ProviderAddresses';

const TEXT = [
  'description',
  'entityID',
  'singleSignOnUrl',
  'singleLogoutUrl',
  'certificatePublicKey',
  'certificateFile',
  'buttonLabel',
] as const;
const fields: FieldDef[] = [
  { name: 'name', label: 'Name', kind: 'text', required: true },
  { name: 'type', label: 'Type', kind: 'select', required: true, choices: SAML_PROVIDER_TYPES },
  { name: 'description', label: 'Description', kind: 'textarea' },
  { name: 'entityID', label: 'Entity ID', kind: 'text' },
  { name: 'singleSignOnUrl', label: 'Single sign-on URL', kind: 'url', hint: 'https://…' },
  { name: 'singleLogoutUrl', label: 'Single logout URL', kind: 'url', hint: 'https://…' },
  { name: 'certificatePublicKey', label: 'Certificate public key', kind: 'textarea' },
  { name: 'buttonLabel', label: 'Sign-in button label', kind: 'text' },
  { name: 'signAuthnRequest', label: 'Sign authentication requests', kind: 'checkbox' },
  { name: 'isActive', label: 'Active (people sign in through it)', kind: 'checkbox' },
];
const body = (v: FormValues) => ({
  name: text(v.name),
  type: choice(SAML_PROVIDER_TYPES)(v.type),
  signAuthnRequest: flag(v.signAuthnRequest),
  isActive: flag(v.isActive),
  ...(Object.fromEntries(TEXT.map((k) => [k, orNull(v[k])])) as Record<(typeof TEXT)[number], string | null>),
});

const config = crudConfig({
  title: 'Identity providers',
  noun: 'identity provider',
  ops: {
    list: 'v1.identityProviders.list',
    create: 'v1.identityProviders.create',
    update: 'v1.identityProviders.update',
    remove: 'v1.identityProviders.delete',
  },
  columns: [
    { key: 'name', label: 'Name', sort: 'Name' },
    { key: 'type', label: 'Type', sort: 'Type' },
    { key: 'description', label: 'Description', sort: 'Description' },
  ],
  fields,
  initial: { type: 'SAML', isActive: true },
  body,
  detail: (row) => <ProviderAddresses key={row.id} provider={row} />,
});

export function IdentityProvidersScreen() {
  return <ResourceScreen config={config} />;
}
