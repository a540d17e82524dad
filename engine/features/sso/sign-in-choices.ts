import type { EngineServices } from '../../ops/context.js';
import { IdentityProvider } from '../../model/identity-providers.entity.js';
import { Organization } from '../../model/organizations.entity.js';
import { organizationsOf, type ProviderKind } from './sso-providers.js';
import { seamOf } from './kinds/index.js';

type Services = Pick<EngineServices, 'db'>;

/** The buttons of the sign-in page: every active browser provider some organization uses. */
export async function signInChoices(s: Services) {
  const providers = await s.db.getRepository(IdentityProvider).findBy({ isActive: true });
  const choices: { id: string; label: string; kind: ProviderKind; passwordsOff: boolean }[] = [];
  for (const p of providers) {
    const seam = seamOf(p);
    if (!seam?.start) continue;
    const orgs = await organizationsOf(s, p.id);
    if (!orgs.length) continue;
    const withPasswords = await s.db
      .getRepository(Organization)
      .createQueryBuilder('o')
      .where('o.id IN (:...orgs)', { orgs })
      .andWhere('o."serviceAuth" = :on', { on: true })
      .getCount();
    choices.push({
      id: p.id,
      label: p.buttonLabel || `Sign in with ${p.name}`,
      kind: seam.kind,
      passwordsOff: withPasswords === 0,
    });
  }
  return choices.sort((a, b) => a.label.localeCompare(b.label));
}
