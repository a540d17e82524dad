import type { ProviderKindSeam } from './kind.js';
import { certificateCheck, reachable } from './checks.js';
import { samlAcs, samlLogoutUrl, samlStart } from '../saml-flow.js';
import { providerSessionOf } from '../provider-session.js';

// SAML 2.0: the browser is sent to the IdP's single sign-on URL and posted back to `/acs`; this
// installation serves its metadata and takes the IdP's logout messages (`/slo`). Signing out sends
// a signed LogoutRequest naming the session the sign-in made.

const str = (v: unknown) => (typeof v === 'string' && v ? v : null);

export const samlKind: ProviderKindSeam = {
  kind: 'saml',
  start: (s, p, base, returnTo) => samlStart(s, p, base, returnTo),
  finish: (s, p, base, answer) => samlAcs(s, p, base, answer.form),
  desktop: false,
  bearer: false,
  serviceProvider: true,
  async signOutUrl(s, p, row) {
    const session = providerSessionOf(row);
    if (!row?.providerSubject || typeof session.base !== 'string') return null;
    return samlLogoutUrl(s, p, row.providerSubject, {
      base: session.base,
      nameIDFormat: str(session.nameIDFormat),
      nameQualifier: str(session.nameQualifier),
      spNameQualifier: str(session.spNameQualifier),
      sessionIndex: str(session.sessionIndex),
    });
  },
  check: async (s, p) => [
    certificateCheck(p, s.now()),
    await reachable('Single sign-on URL', p.singleSignOnUrl, 'No single sign-on URL is set'),
  ],
};
