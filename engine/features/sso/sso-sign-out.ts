import type { EngineServices } from '../../ops/context.js';
import { Session, type SessionRow } from '../../model/sessions.entity.js';
import { activeProvider } from './sso-providers.js';
import { seamOf } from './kinds/index.js';
import { providerSessionOf } from './provider-session.js';

// Signing out of both: a session a company sign-in made remembers its provider and whom it signed
// in, so signing out here sends the browser on to end the provider's session too, and the
// provider's own logout request (another application signed out) ends the sessions it names here.

type Services = EngineServices;

/**
 * Where the browser goes after this session ends, to end the provider's session too: the OpenID
 * provider's end-session address, or the SAML IdP's logout address with a signed LogoutRequest.
 * Null for a session no provider made, or a provider with no logout address. A provider that fails
 * to answer costs the person nothing: they are signed out here whatever it says.
 */
export async function providerSignOutUrl(s: Services, row: SessionRow): Promise<string | null> {
  if (!row.providerId) return null;
  const p = await activeProvider(s, row.providerId);
  if (!p) return null;
  try {
    return (await seamOf(p)?.signOutUrl(s, p, row)) ?? null;
  } catch (e) {
    s.log.warn('The company sign-in’s sign-out address could not be made; signed out here only', {
      provider: p.id,
      error: (e as Error).message,
    });
    return null;
  }
}

/**
 * Ends the sessions a provider's logout request names: its subject's sessions from that provider,
 * only the one sign-in's when it names a SessionIndex. Answers how many ended.
 */
export async function endProviderSessions(
  s: Services,
  providerId: string,
  subject: string,
  sessionIndex: string | null,
): Promise<number> {
  return s.write(async () => {
    const repo = s.db.getRepository(Session);
    const rows = await repo.findBy({ providerId, providerSubject: subject });
    const ending = rows.filter((r) => !sessionIndex || providerSessionOf(r).sessionIndex === sessionIndex);
    if (ending.length) await repo.delete(ending.map((r) => r.id));
    return ending.length;
  });
}
