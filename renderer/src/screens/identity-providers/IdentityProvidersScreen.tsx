import type { FieldDef } from '../../components/Form';
import { orNull } from '../../components/options';
import { ResourceScreen, type ResourceConfig } from '../../components/ResourceScreen';

const TEXT = ['description', 'entityID', 'singleSignOnUrl', 'singleLogoutUrl', 'certificatePublicKey', 'certificateFile', 'buttonLabel'];
const fields: FieldDef[] = [
  { name: 'name', label: 'Name', kind: 'text', required: true },
  { name: 'type', label: 'Type', kind: 'text', required: true, hint: 'For example SAML or JWT' },
  { name: 'description', label: 'Description', kind: 'textarea' },
  { name: 'entityID', label: 'Entity ID', kind: 'text' },
  { name: 'singleSignOnUrl', label: 'Single sign-on URL', kind: 'text' },
  { name: 'singleLogoutUrl', label: 'Single logout URL', kind: 'text' },
  { name: 'certificatePublicKey', label: 'Certificate public key', kind: 'textarea' },
  { name: 'buttonLabel', label: 'Sign-in button label', kind: 'text' },
  { name: 'signAuthnRequest', label: 'Sign authentication requests', kind: 'checkbox' },
];
const body = (v: Record<string, unknown>) => ({
  name: v.name, type: v.type, signAuthnRequest: !!v.signAuthnRequest, ...Object.fromEntries(TEXT.map((k) => [k, orNull(v[k])])),
});

const config: ResourceConfig = {
  title: 'Identity providers',
  noun: 'identity provider',
  listOp: 'v1.identityProviders.list',
  filterParam: 'name',
  filterLabel: 'name',
  columns: [
    { key: 'name', label: 'Name', sort: 'Name' },
    { key: 'type', label: 'Type', sort: 'Type' },
    { key: 'description', label: 'Description', sort: 'Description' },
  ],
  creates: [{ noun: 'identity provider', op: 'v1.identityProviders.create', permission: 'editSettings', fields, initial: { type: 'SAML' }, toBody: body }],
  update: { op: 'v1.identityProviders.update', permission: 'editSettings', fields, toForm: (r) => ({ ...r }), toBody: body },
  remove: { op: 'v1.identityProviders.delete', permission: 'editSettings' },
};

export function IdentityProvidersScreen() {
  return <ResourceScreen config={config} />;
}
