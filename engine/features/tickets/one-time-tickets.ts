// One-time tickets in the database (sso_tickets): the company sign-in's OpenID and SAML requests and
// hand-offs, and a cloud drive being connected. Their own floor, as both the sign-in and the storage
// services take them.
import { randomBytes } from 'node:crypto';
import { LessThan } from 'typeorm';
import { tokenHash } from '../../core/passwords.js';
import type { EngineServices } from '../../ops/context.js';
import { SsoTicket } from '../../model/sso-tickets.entity.js';

/** `cloud`: a storage service being connected to an account at a cloud drive (its PKCE verifier). */
export type TicketKind = 'oidc' | 'saml' | 'handoff' | 'cloud';

/** How long each kind lives: a person signing in at the provider, or a page taking its hand-off. */
export const TICKET_MS: Record<TicketKind, number> = {
  oidc: 10 * 60_000,
  saml: 10 * 60_000,
  handoff: 60_000,
  cloud: 10 * 60_000,
};

type Store = Pick<EngineServices, 'db' | 'now'>;

/** Issues a ticket holding `data`; answers its key (only its hash is stored). */
export async function issueTicket(
  s: Store,
  kind: TicketKind,
  data: unknown,
  key = randomBytes(32).toString('base64url'),
) {
  const now = s.now();
  const repo = s.db.getRepository(SsoTicket);
  // Old tickets go as new ones come: nobody finishes a sign-in after its ticket died.
  await repo.delete({ expiresAt: LessThan(now) });
  await repo.insert({
    keyHash: tokenHash(key),
    kind,
    data: JSON.stringify(data),
    expiresAt: new Date(now.getTime() + TICKET_MS[kind]),
  });
  return key;
}

/**
 * Takes a ticket: its data once, or null when it is unknown, of another kind, expired or already
 * taken. The delete decides: of two servers taking the same ticket, one gets it.
 */
export async function takeTicket<T>(s: Store, kind: TicketKind, key: string): Promise<T | null> {
  if (!key || key.length > 512) return null;
  const repo = s.db.getRepository(SsoTicket);
  const keyHash = tokenHash(key);
  const row = await repo.findOneBy({ keyHash, kind });
  if (!row) return null;
  const { affected } = await repo.delete({ keyHash, kind });
  if (!affected || row.expiresAt.getTime() <= s.now().getTime()) return null;
  return JSON.parse(row.data) as T;
}

/** Reads a ticket without taking it (a SAML request id the library asks about before it is used). */
export async function peekTicket<T>(s: Store, kind: TicketKind, key: string): Promise<T | null> {
  const row = await s.db.getRepository(SsoTicket).findOneBy({ keyHash: tokenHash(key), kind });
  return row && row.expiresAt.getTime() > s.now().getTime() ? (JSON.parse(row.data) as T) : null;
}
