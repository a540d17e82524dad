import type { EngineServices } from '../../ops/context.js';
import { issueTicket } from '../tickets/one-time-tickets.js';
import { userFor } from './sso-providers.js';
import { provisionUser } from './provisioning.js';
import type { Identity } from './identity.js';

export type { Identity } from './identity.js';
import { IdentityProvider } from '../../model/identity-providers.entity.js';

/**
 * Why a company sign-in did not let someone in. `reason` is a fixed word the page turns into a
 * sentence (nothing the provider sent is echoed to the browser); `detail` goes to the log only,
 * never with a token.
 */
export class SsoRefusal extends Error {
  constructor(
    readonly reason:
      | 'setup'
      | 'state'
      | 'provider'
      | 'token'
      | 'userinfo'
      | 'assertion'
      | 'nobody'
      | 'disabled'
      | 'windows'
      | 'signout'
      | 'unverified',
    message: string,
    readonly detail: string | null = null,
  ) {
    super(message);
  }
}

/** The hand-off of a signed-in browser to the page: who, and where they were going. */
export interface Handoff {
  userId: string;
  providerId: string;
  returnTo: string;
  /** Whom the provider signed in and what ending its session takes: kept with the session. */
  subject?: string | null;
  providerSession?: Record<string, unknown> | null;
}

/** Where a person may be sent back to: a screen of this app (`#/…`), never another site. */
export function safeReturnTo(value: unknown): string {
  return typeof value === 'string' && value.length <= 300 && /^#\/[A-Za-z0-9/_\-.~%?=&]*$/.test(value) ? value : '#/';
}

/** The identity matched to a user of an organization with this provider: a hand-off key, or a refusal. */
export async function handOff(
  s: Pick<EngineServices, 'db' | 'now' | 'log'>,
  providerId: string,
  identity: Identity,
  returnTo: string,
): Promise<string> {
  // Nobody here with that identity: the provider may make them (provisioning, off by default).
  const provider = await s.db.getRepository(IdentityProvider).findOneBy({ id: providerId });
  const user =
    (await userFor(s, providerId, identity)) ?? (provider ? await provisionUser(s, provider, identity) : null);
  if (!user)
    throw new SsoRefusal('nobody', 'the identity matches no active user of an organization with this provider');
  return handOffUser(s, user.id, providerId, returnTo, {
    subject: identity.subject ?? null,
    providerSession: identity.providerSession ?? null,
  });
}

/** A hand-off of a user already found (Windows sign-in finds them by account, not by provider). */
export function handOffUser(
  s: Pick<EngineServices, 'db' | 'now'>,
  userId: string,
  via: string,
  returnTo: string,
  link: Pick<Handoff, 'subject' | 'providerSession'> = {},
) {
  return issueTicket(s, 'handoff', {
    userId,
    providerId: via,
    returnTo: safeReturnTo(returnTo),
    ...link,
  } satisfies Handoff);
}
