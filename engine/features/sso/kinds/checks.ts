import { X509Certificate } from 'node:crypto';
import type { IdentityProviderRow } from '../../../model/identity-providers.entity.js';

// What a provider's test button checks, in words: the pieces each kind's checks are made of. Only
// the addresses the provider names are reached, each within a few seconds.

export interface ProviderCheck {
  what: string;
  ok: boolean;
  message: string;
}

export const TIMEOUT_MS = 5_000;

/** Whether an address answers at all (any HTTP status counts: a token endpoint refuses a GET). */
export async function answers(url: string): Promise<string | null> {
  try {
    await fetch(url, { method: 'GET', redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
    return null;
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ?? cause?.message ?? (e as Error).message;
  }
}

export function certificateCheck(p: IdentityProviderRow, now: Date): ProviderCheck {
  const text = (p.certificatePublicKey || p.certificateFile || '').trim();
  if (!text) return { what: 'Certificate', ok: false, message: 'No certificate is set: signatures cannot be checked' };
  const pem = text.includes('-----BEGIN')
    ? text
    : `-----BEGIN CERTIFICATE-----\n${text.replace(/\s+/g, '')}\n-----END CERTIFICATE-----`;
  try {
    const cert = new X509Certificate(pem);
    const until = new Date(cert.validTo);
    if (until < now) return { what: 'Certificate', ok: false, message: `The certificate expired on ${cert.validTo}` };
    return {
      what: 'Certificate',
      ok: true,
      message: `${cert.subject.replace(/\n/g, ', ')}, valid until ${cert.validTo}`,
    };
  } catch {
    return { what: 'Certificate', ok: false, message: 'The certificate is not a PEM or base64 X.509 certificate' };
  }
}

export async function reachable(what: string, url: string | null, missing: string): Promise<ProviderCheck> {
  if (!url) return { what, ok: false, message: missing };
  const problem = await answers(url);
  return problem
    ? { what, ok: false, message: `${url} could not be reached (${problem})` }
    : { what, ok: true, message: `${url} answers` };
}
