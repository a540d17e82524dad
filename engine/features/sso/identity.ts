/** Who a provider says signed in: an e-mail, a Windows account, the provider's own subject. */
export interface Identity {
  email?: string | null;
  /** Names the provider gives, for a person it creates (provisioning). */
  givenName?: string | null;
  familyName?: string | null;
  account?: string | null;
  subject?: string | null;
  /** What ending the provider's session takes later (SAML: NameID format, SessionIndex, this server's address). */
  providerSession?: Record<string, unknown> | null;
}
