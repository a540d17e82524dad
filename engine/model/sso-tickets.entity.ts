import { EntitySchema } from 'typeorm';

/**
 * One-time tickets of the company sign-in: an OpenID login under way (its `state`, PKCE verifier and
 * nonce), a SAML request waiting for its answer (`InResponseTo`), and the hand-off of a signed-in
 * browser to the page. Kept in the database, so the server that answers the provider need not be the
 * one that sent the person there; each is taken once (deleted as it is read) and dies young.
 */
export interface SsoTicketRow {
  /** SHA-256 of the ticket's key: a key read from the table opens nothing. */
  keyHash: string;
  kind: string;
  data: string;
  expiresAt: Date;
}

export const SsoTicket = new EntitySchema<SsoTicketRow>({
  name: 'SsoTicket',
  tableName: 'sso_tickets',
  columns: {
    keyHash: { type: 'varchar', length: 64, primary: true },
    kind: { type: 'varchar', length: 16 },
    data: { type: 'text' },
    expiresAt: { type: 'datetime' },
  },
  indices: [{ name: 'IDX_sso_tickets_expires', columns: ['expiresAt'] }],
});
