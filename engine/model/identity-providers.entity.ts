import { EntitySchema } from 'typeorm';
import { baseColumns, flag, text, type BaseRow } from '../core/entity-base.js';

/** One table for both shapes: set A describes SAML-style providers, set B OAuth-style ones. */
export interface IdentityProviderRow extends BaseRow {
  name: string;
  description: string | null;
  type: string;
  isActive: boolean;
  signAuthnRequest: boolean;
  /** Creates a person on their first sign-in (as a Hub user of the provider's organization). */
  provision: boolean;
  entityID: string | null;
  singleSignOnUrl: string | null;
  certificatePublicKey: string | null;
  singleLogoutUrl: string | null;
  certificateFile: string | null;
  buttonLabel: string | null;
  clientID: string | null;
  /** Sealed with the secret box; never returned. */
  clientSecret: string | null;
  authorizationEndpoint: string | null;
  accessTokenEndpoint: string | null;
  userinfoEndpoint: string | null;
  logoutEndpoint: string | null;
  postLogoutRedirectUrl: string | null;
  /** JWT: the audience tokens must be issued for (`aud`), required; no token for another application passes. */
  audience?: string | null;
  /** OpenID/OAuth: the scopes asked for, space-separated, where a provider needs others than `openid email profile`. */
  scopes?: string | null;
}

export const IdentityProvider = new EntitySchema<IdentityProviderRow>({
  name: 'IdentityProvider',
  tableName: 'identity_providers',
  columns: {
    ...baseColumns,
    name: text(false),
    description: text(),
    type: text(false),
    isActive: flag(true),
    signAuthnRequest: flag(),
    provision: flag(),
    entityID: text(),
    singleSignOnUrl: text(),
    certificatePublicKey: text(),
    singleLogoutUrl: text(),
    certificateFile: text(),
    buttonLabel: text(),
    clientID: text(),
    clientSecret: text(),
    authorizationEndpoint: text(),
    accessTokenEndpoint: text(),
    userinfoEndpoint: text(),
    logoutEndpoint: text(),
    postLogoutRedirectUrl: text(),
    audience: text(),
    scopes: text(),
  },
});

export interface OrganizationIdentityProviderRow {
  organizationId: string;
  identityProviderId: string;
}

export const OrganizationIdentityProvider = new EntitySchema<OrganizationIdentityProviderRow>({
  name: 'OrganizationIdentityProvider',
  tableName: 'organization_identity_providers',
  columns: {
    organizationId: { type: 'varchar', length: 36, primary: true },
    identityProviderId: { type: 'varchar', length: 36, primary: true },
  },
  foreignKeys: [
    { target: 'Organization', columnNames: ['organizationId'], referencedColumnNames: ['id'], onDelete: 'CASCADE' },
    {
      target: 'IdentityProvider',
      columnNames: ['identityProviderId'],
      referencedColumnNames: ['id'],
      onDelete: 'CASCADE',
    },
  ],
});
