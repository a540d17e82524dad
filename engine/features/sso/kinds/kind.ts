import type { EngineServices } from '../../../ops/context.js';
import type { IdentityProviderRow } from '../../../model/identity-providers.entity.js';
import type { SessionRow } from '../../../model/sessions.entity.js';
import type { ProviderKind } from '../sso-providers.js';
import type { ProviderCheck } from './checks.js';
import type { Identity } from '../identity.js';

// One kind of identity provider (OpenID Connect, SAML, JWT bearer tokens) as the rest of sign-in
// uses it. A new kind is a file beside these and a line in the table (`index.ts`): the sign-in
// routes, the test button, sign-out and the bearer check ask the table, never the kind's name.

type Services = EngineServices;

export interface ProviderKindSeam {
  readonly kind: ProviderKind;
  /**
   * A browser sign-in (a button on the sign-in page): where the person is sent, given this
   * provider's addresses here (`base`, `/api/app/sso/{id}`) and the screen to land on afterwards.
   */
  readonly start?: (s: Services, p: IdentityProviderRow, base: string, returnTo: string) => Promise<string>;
  /**
   * The provider's answer as the browser brings it back — a redirect to `/callback` (its address) or
   * a form posted to `/acs` — read into who signed in and the screen to land on; refused (SsoRefusal)
   * when it does not hold.
   */
  readonly finish?: (
    s: Services,
    p: IdentityProviderRow,
    base: string,
    answer: { url: URL; form: Record<string, string> },
  ) => Promise<Identity & { returnTo: string }>;
  /** Whether the desktop signs in with it through a loopback redirect (OpenID). */
  readonly desktop: boolean;
  /** Whether it signs bearer tokens an API caller presents (JWT). */
  readonly bearer: boolean;
  /** The service-provider side a SAML IdP is set up with: its metadata, and its logout messages. */
  readonly serviceProvider: boolean;
  /**
   * Where the browser goes to end the provider's session as well, for a session it made (`row`, or
   * null at sign-in, when only an address that needs no session can be told); null for none.
   */
  signOutUrl(s: Services, p: IdentityProviderRow, row: SessionRow | null): Promise<string | null>;
  /** What this kind needs checked beyond being used and turned on. */
  check(s: Services, p: IdentityProviderRow): Promise<ProviderCheck[]>;
}
