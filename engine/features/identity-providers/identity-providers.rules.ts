import type { OpContext } from '../../ops/context.js';
import { iso, newBase } from '../../core/entity-base.js';
import { findOr404 } from '../../core/rows.js';
import { badInput } from '../../core/errors.js';
import { forbiddenHosts } from '../../core/outgoing-hosts.js';
import type { ListSpec } from '../../core/list-query.js';
import { IdentityProvider, type IdentityProviderRow } from '../../model/identity-providers.entity.js';

export const LIST_IDENTITY_PROVIDERS: ListSpec = {
  sort: { Name: 'LOWER(p.name)', Description: 'LOWER(p.description)', Type: 'LOWER(p.type)' },
  defaultSort: { by: 'Name', direction: 'asc' },
  text: { name: 'p.name', description: 'p.description', type: 'p.type' },
};

/** The record both sets read; the client secret is never returned, only whether one is stored. */
export function identityProviderDto(p: IdentityProviderRow) {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    type: p.type,
    isActive: p.isActive,
    signAuthnRequest: p.signAuthnRequest,
    provision: p.provision,
    entityID: p.entityID,
    singleSignOnUrl: p.singleSignOnUrl,
    certificatePublicKey: p.certificatePublicKey,
    singleLogoutUrl: p.singleLogoutUrl,
    certificateFile: p.certificateFile,
    buttonLabel: p.buttonLabel,
    clientID: p.clientID,
    hasClientSecret: p.clientSecret !== null,
    authorizationEndpoint: p.authorizationEndpoint,
    accessTokenEndpoint: p.accessTokenEndpoint,
    userinfoEndpoint: p.userinfoEndpoint,
    logoutEndpoint: p.logoutEndpoint,
    postLogoutRedirectUrl: p.postLogoutRedirectUrl,
    audience: p.audience ?? null,
    scopes: p.scopes ?? null,
    createdDate: iso(p.createdDate),
    modifiedDate: iso(p.modifiedDate),
  };
}

type Fields = Partial<Omit<IdentityProviderRow, 'id' | 'createdDate' | 'modifiedDate' | 'clientSecret'>> & {
  clientSecret?: string | null;
};

const EMPTY: Omit<IdentityProviderRow, 'id' | 'createdDate' | 'modifiedDate' | 'name' | 'type'> = {
  description: null,
  isActive: true,
  signAuthnRequest: false,
  provision: false,
  entityID: null,
  singleSignOnUrl: null,
  certificatePublicKey: null,
  singleLogoutUrl: null,
  certificateFile: null,
  buttonLabel: null,
  clientID: null,
  clientSecret: null,
  authorizationEndpoint: null,
  accessTokenEndpoint: null,
  userinfoEndpoint: null,
  logoutEndpoint: null,
  postLogoutRedirectUrl: null,
  audience: null,
  scopes: null,
};

/** Creates or updates a provider; fields left undefined keep their value, a secret is sealed before it is stored. */
export async function saveIdentityProvider(
  ctx: OpContext,
  id: string | null,
  f: Fields,
  /** Set B calls the entity id `issuer`: a refusal names the field as the caller sent it. */
  issuerField = 'body.entityID',
) {
  const current: IdentityProviderRow = id
    ? await findOr404(ctx, IdentityProvider, id, 'Identity provider')
    : { ...newBase(ctx.now()), ...EMPTY, name: '', type: '' };
  const misdirected = forbiddenHosts({
    [issuerField]: f.entityID,
    'body.singleSignOnUrl': f.singleSignOnUrl,
    'body.singleLogoutUrl': f.singleLogoutUrl,
    'body.authorizationEndpoint': f.authorizationEndpoint,
    'body.accessTokenEndpoint': f.accessTokenEndpoint,
    'body.userinfoEndpoint': f.userinfoEndpoint,
    'body.logoutEndpoint': f.logoutEndpoint,
  });
  if (misdirected.length) throw badInput('The identity provider names an address that may not be used', misdirected);
  const { clientSecret, ...rest } = f;
  const defined = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
  const row: IdentityProviderRow = {
    ...current,
    ...defined,
    clientSecret: ctx.secrets.sealOrKeep(clientSecret, current.clientSecret),
    modifiedDate: ctx.now(),
  };
  await ctx.db.getRepository(IdentityProvider).save(row);
  return identityProviderDto(row);
}
