import type { FieldDef } from '../../components/Form';
import type { RowOf } from '../../../../engine/catalogue';
import { OAUTH_PROVIDER_TYPES, SAML_FORM_ASKS, SAML_PROVIDER_TYPES, type SamlFormField } from '../../../../engine/wire';
import { invoke } from '../../bridge';
import { choice, flag, orNull, text, type FormValues } from '../../components/options';
import { ResourceScreen, type ResourceConfig } from '../../components/ResourceScreen';
import { createWith } from '../../components/crud-config';
import { ProviderAddresses } from './ProviderAddresses';

// Two shapes of provider on one screen: set A's SAML and JWT providers, set B's OpenID Connect /
// OAuth ones. Each is created and edited through its own set's operation, chosen by the row's type.

type Row = RowOf<'v1.identityProviders.list'>;
const isOpenId = (row: Pick<Row, 'type'>) => (OAUTH_PROVIDER_TYPES as readonly string[]).includes(row.type);

const SAML_TEXT = [
  'description',
  'entityID',
  'singleSignOnUrl',
  'singleLogoutUrl',
  'certificatePublicKey',
  'certificateFile',
  'buttonLabel',
] as const;
/** Both shapes: whether people sign in through it, and whether it creates the ones nobody has. */
const whoSignsIn: FieldDef[] = [
  { name: 'isActive', label: 'Active (people sign in through it)', kind: 'checkbox' },
  {
    name: 'provision',
    label: 'Create people on their first sign-in',
    kind: 'checkbox',
    hint: 'They join the organization that uses this provider as Hub users, in All users',
  },
];
const whoSignsInBody = (v: FormValues) => ({ isActive: flag(v.isActive), provision: flag(v.provision) });

/** Whether the form asks this of the chosen type (SAML_FORM_ASKS); a type not chosen yet is asked as SAML. */
const asks = (field: SamlFormField) => (v: FormValues) =>
  (SAML_FORM_ASKS[v.type as (typeof SAML_PROVIDER_TYPES)[number]] ?? SAML_FORM_ASKS.SAML).includes(field);

const samlFields: FieldDef[] = [
  { name: 'name', label: 'Name', kind: 'text', required: true },
  { name: 'type', label: 'Type', kind: 'select', required: true, choices: SAML_PROVIDER_TYPES },
  { name: 'description', label: 'Description', kind: 'textarea' },
  { name: 'entityID', label: 'Entity ID', kind: 'text', shownWhen: asks('entityID') },
  {
    name: 'singleSignOnUrl',
    label: 'Single sign-on URL',
    kind: 'url',
    hint: 'https://…',
    shownWhen: asks('singleSignOnUrl'),
  },
  {
    name: 'singleLogoutUrl',
    label: 'Single logout URL',
    kind: 'url',
    hint: 'https://…',
    shownWhen: asks('singleLogoutUrl'),
  },
  {
    name: 'certificatePublicKey',
    label: 'Certificate public key',
    kind: 'textarea',
    shownWhen: asks('certificatePublicKey'),
  },
  { name: 'buttonLabel', label: 'Sign-in button label', kind: 'text', shownWhen: asks('buttonLabel') },
  {
    name: 'signAuthnRequest',
    label: 'Sign authentication requests',
    kind: 'checkbox',
    shownWhen: asks('signAuthnRequest'),
  },
  {
    name: 'audience',
    label: 'Audience (JWT)',
    kind: 'text',
    required: true,
    hint: 'The aud every token must name, such as the embedding portal’s client id; a token lives a day at most',
    shownWhen: asks('audience'),
  },
  ...whoSignsIn,
];
const samlBody = (v: FormValues) => ({
  name: text(v.name),
  type: choice(SAML_PROVIDER_TYPES)(v.type),
  signAuthnRequest: flag(v.signAuthnRequest),
  ...whoSignsInBody(v),
  audience: v.type === 'JWT' ? orNull(v.audience) : null,
  ...(Object.fromEntries(SAML_TEXT.map((k) => [k, orNull(v[k])])) as Record<(typeof SAML_TEXT)[number], string | null>),
});

const openIdFields = (secretRequired: boolean): FieldDef[] => [
  { name: 'name', label: 'Name', kind: 'text', required: true },
  { name: 'description', label: 'Description', kind: 'textarea' },
  {
    name: 'issuer',
    label: 'Issuer',
    kind: 'url',
    hint: 'https://login.example.com/… (ID tokens are checked against its keys)',
    fill: {
      label: 'Fill from issuer',
      run: async (v) => {
        const found = await invoke('app.identityProviders.discover', { body: { issuer: text(v.issuer) } });
        if (!found.ok)
          throw new Error(found.errorDetails?.[0]?.message ?? found.error ?? 'The issuer could not be read');
        return {
          authorizationEndpoint: found.data.authorizationEndpoint,
          accessTokenEndpoint: found.data.accessTokenEndpoint,
          userinfoEndpoint: found.data.userinfoEndpoint ?? '',
          logoutEndpoint: found.data.logoutEndpoint ?? '',
        };
      },
    },
  },
  {
    name: 'clientID',
    label: 'Client ID',
    kind: 'text',
    required: true,
    // The redirect URI names the provider's id, which Create gives it; the addresses open right after.
    hint: secretRequired
      ? 'Broadsheet’s redirect URI to register there is shown, with a Copy button, as soon as you press Create'
      : undefined,
  },
  {
    name: 'clientSecret',
    label: 'Client secret',
    kind: 'password',
    required: secretRequired,
    hint: secretRequired ? undefined : 'Leave empty to keep the stored secret',
  },
  { name: 'authorizationEndpoint', label: 'Authorization endpoint', kind: 'url', required: true },
  { name: 'accessTokenEndpoint', label: 'Token endpoint', kind: 'url', required: true },
  { name: 'userinfoEndpoint', label: 'Userinfo endpoint', kind: 'url', required: true },
  { name: 'logoutEndpoint', label: 'Logout endpoint', kind: 'url' },
  { name: 'postLogoutRedirectUrl', label: 'After signing out, back to', kind: 'url' },
  {
    name: 'scopes',
    label: 'Scopes',
    kind: 'text',
    hint: 'Space-separated; openid email profile when left empty',
  },
  ...whoSignsIn,
];
const openIdBody = (v: FormValues) => ({
  name: text(v.name),
  description: orNull(v.description),
  issuer: orNull(v.issuer),
  clientID: text(v.clientID),
  authorizationEndpoint: text(v.authorizationEndpoint),
  accessTokenEndpoint: text(v.accessTokenEndpoint),
  userinfoEndpoint: text(v.userinfoEndpoint),
  logoutEndpoint: orNull(v.logoutEndpoint),
  postLogoutRedirectUrl: orNull(v.postLogoutRedirectUrl),
  scopes: orNull(v.scopes),
  ...whoSignsInBody(v),
});

const config: ResourceConfig<'v1.identityProviders.list'> = {
  title: 'Identity providers',
  noun: 'identity provider',
  listOp: 'v1.identityProviders.list',
  filterParam: 'name',
  filterLabel: 'name',
  columns: [
    { key: 'name', label: 'Name', sort: 'Name' },
    { key: 'type', label: 'Type', sort: 'Type' },
    { key: 'isActive', label: 'Active', render: (r) => (r.isActive ? 'Yes' : 'No') },
    { key: 'description', label: 'Description', sort: 'Description' },
  ],
  creates: [
    createWith('v1.identityProviders.create', {
      noun: 'SAML or JWT provider',
      fields: samlFields,
      initial: { type: 'SAML', isActive: true },
      toBody: samlBody,
    }),
    createWith('v2.identityProviders.create', {
      noun: 'OpenID provider',
      fields: openIdFields(true),
      initial: { isActive: true },
      toBody: (v) => ({ ...openIdBody(v), type: 'OpenID Connect' as const, clientSecret: text(v.clientSecret) }),
    }),
  ],
  update: {
    op: (row) => (isOpenId(row) ? 'v2.identityProviders.update' : 'v1.identityProviders.update'),
    fields: (row) => (isOpenId(row) ? openIdFields(false) : samlFields),
    toForm: (row) => ({ ...row, issuer: row.entityID, clientSecret: '' }),
    submit: (v, row) =>
      isOpenId(row)
        ? invoke('v2.identityProviders.update', {
            params: { id: row.id },
            body: { ...openIdBody(v), clientSecret: orNull(v.clientSecret) },
          })
        : invoke('v1.identityProviders.update', { params: { id: row.id }, body: samlBody(v) }),
  },
  remove: { op: 'v1.identityProviders.delete' },
  detail: (row) => <ProviderAddresses key={row.id} provider={row} />,
  // The addresses to give the provider, reached from the row, not only by a click on it.
  detailLabel: 'Addresses',
};

export function IdentityProvidersScreen() {
  return <ResourceScreen config={config} />;
}
