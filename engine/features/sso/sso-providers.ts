import type { EngineServices } from '../../ops/context.js';
import { sql } from '../../core/sql.js';
import { IdentityProvider, type IdentityProviderRow } from '../../model/identity-providers.entity.js';
import { User, type UserRow } from '../../model/users.entity.js';

/** What a provider's `type` says it speaks; the interface sets spell the same kind several ways. */
export type ProviderKind = 'oidc' | 'saml' | 'jwt';

const KINDS: Record<string, ProviderKind> = {
  oauth: 'oidc',
  oauth2: 'oidc',
  oidc: 'oidc',
  openidconnect: 'oidc',
  saml: 'saml',
  saml2: 'saml',
  jwt: 'jwt',
};

export function kindOf(p: Pick<IdentityProviderRow, 'type'>): ProviderKind | null {
  return KINDS[p.type.toLowerCase().replace(/[^a-z0-9]/g, '')] ?? null;
}

type Services = Pick<EngineServices, 'db'>;

/** The ids of the organizations that have this provider: set B's one provider, or set A's links. */
export async function organizationsOf(s: Services, providerId: string): Promise<string[]> {
  const rows = await sql<{ id: string }>(
    s.db,
    `SELECT o.id FROM organizations o WHERE o."identityProviderId" = ?
     UNION SELECT l."organizationId" FROM organization_identity_providers l WHERE l."identityProviderId" = ?`,
    [providerId, providerId],
  );
  return rows.map((r) => r.id);
}

/** An active provider of a kind that signs people in, used by at least one organization; else null. */
export async function activeProvider(s: Services, providerId: string): Promise<IdentityProviderRow | null> {
  const p = await s.db.getRepository(IdentityProvider).findOneBy({ id: providerId });
  if (!p || !p.isActive || !kindOf(p)) return null;
  return (await organizationsOf(s, p.id)).length ? p : null;
}

/**
 * A saved provider of a kind that signs people in, used or not: its service-provider metadata is
 * what an administrator gives the IdP before any organization uses it.
 */
export async function savedProvider(s: Services, providerId: string): Promise<IdentityProviderRow | null> {
  const p = await s.db.getRepository(IdentityProvider).findOneBy({ id: providerId });
  return p && kindOf(p) ? p : null;
}

/**
 * Who the provider's identity is here: the active user with that e-mail (or Windows account) who
 * belongs to an organization that has this provider. Nobody else, and never a user of another
 * organization because the addresses match.
 */
export async function userFor(
  s: Services,
  providerId: string,
  identity: { email?: string | null; account?: string | null },
): Promise<UserRow | null> {
  const orgs = await organizationsOf(s, providerId);
  if (!orgs.length) return null;
  const q = s.db
    .getRepository(User)
    .createQueryBuilder('u')
    .innerJoin('user_organizations', 'uo', 'uo."userId" = u.id AND uo."targetId" IN (:...orgs)', { orgs })
    .where('u."isActive" = :active', { active: true });
  const email = identity.email?.trim().toLowerCase();
  const account = identity.account?.trim().toLowerCase();
  if (email && account)
    q.andWhere('(LOWER(u.email) = :email OR LOWER(u."domainAccount") = :account)', { email, account });
  else if (email) q.andWhere('LOWER(u.email) = :email', { email });
  else if (account) q.andWhere('LOWER(u."domainAccount") = :account', { account });
  else return null;
  return q.getOne();
}
