import type { IdentityProviderRow } from '../../../model/identity-providers.entity.js';
import { kindOf, type ProviderKind } from '../sso-providers.js';
import type { ProviderKindSeam } from './kind.js';
import { oidcKind } from './oidc.js';
import { samlKind } from './saml.js';
import { jwtKind } from './jwt.js';

// Every kind of identity provider, by the kind its `type` names (sso-providers.ts `kindOf`).

const PROVIDER_KINDS: Record<ProviderKind, ProviderKindSeam> = { oidc: oidcKind, saml: samlKind, jwt: jwtKind };

/** The seam of a provider's kind, or null for a type Broadsheet does not sign in with. */
export function seamOf(p: Pick<IdentityProviderRow, 'type'>): ProviderKindSeam | null {
  const kind = kindOf(p);
  return kind ? PROVIDER_KINDS[kind] : null;
}

export type { ProviderKindSeam };
