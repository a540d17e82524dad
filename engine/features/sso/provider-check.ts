import type { EngineServices } from '../../ops/context.js';
import type { IdentityProviderRow } from '../../model/identity-providers.entity.js';
import { organizationsOf } from './sso-providers.js';
import { seamOf } from './kinds/index.js';
import type { ProviderCheck } from './kinds/checks.js';

// A provider's test button: what an administrator would check by hand, said in words. Whether an
// organization uses it and whether it is on, then what its kind needs (kinds/*.ts `check`).

export type { ProviderCheck };

export async function checkProvider(s: EngineServices, p: IdentityProviderRow): Promise<ProviderCheck[]> {
  const checks: ProviderCheck[] = [];
  const orgs = await organizationsOf(s, p.id);
  checks.push(
    orgs.length
      ? { what: 'Organizations', ok: true, message: `Used by ${orgs.length} organization${orgs.length > 1 ? 's' : ''}` }
      : {
          what: 'Organizations',
          ok: false,
          message: "No organization uses it yet: choose it in an organization's sign-in settings",
        },
  );
  if (!p.isActive) checks.push({ what: 'Active', ok: false, message: 'It is turned off: nobody signs in through it' });
  const seam = seamOf(p);
  if (seam) checks.push(...(await seam.check(s, p)));
  else checks.push({ what: 'Type', ok: false, message: `"${p.type}" is not a type Broadsheet signs in with` });
  return checks;
}
