import type { SessionRow } from '../../model/sessions.entity.js';

/**
 * What a company sign-in stored of the provider's session beside ours (SAML's NameID qualifiers and
 * SessionIndex): read to sign out of both, and to end the sessions a provider's logout names.
 */
export function providerSessionOf(row: Pick<SessionRow, 'providerSession'> | null): Record<string, unknown> {
  try {
    return row?.providerSession ? (JSON.parse(row.providerSession) as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
