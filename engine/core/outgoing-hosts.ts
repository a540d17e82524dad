import { isIP } from 'node:net';

// Every outgoing connection a person configures (a storage, a data connection, an identity
// provider) goes to a host they name. Link-local addresses are not such hosts: on a cloud machine
// 169.254.169.254 and its kin answer with the machine's own credentials, so a configured "server"
// there would hand them to whoever may test a connection. Refused by address and by the metadata
// services' names, at save and at every use.

const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata']);
const METADATA_ADDRESSES = new Set(['100.100.100.200', 'fd00:ec2::254']);

/** The host of a URL, a `[v6]` literal or a bare name; lower case, brackets gone. */
function hostOf(target: string): string {
  const text = target.trim();
  try {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return new URL(text).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return text.toLowerCase();
  }
  return text.replace(/^\[|\]$/g, '').toLowerCase();
}

function linkLocal(address: string): boolean {
  const v4 = address.replace(/^::ffff:/, '');
  if (isIP(v4) === 4) return v4.startsWith('169.254.');
  if (isIP(address) === 6) return /^fe[89ab][0-9a-f]:/.test(address);
  return false;
}

/** Why a configured host may not be connected to, or null when it may. */
export function forbiddenHost(target: string | null | undefined): string | null {
  if (!target?.trim()) return null;
  const host = hostOf(target);
  if (linkLocal(host) || METADATA_ADDRESSES.has(host) || METADATA_NAMES.has(host))
    return `must not be a link-local or cloud metadata address (${host}): such addresses answer with this machine's own credentials`;
  return null;
}

/** The field errors of every configured address that is forbidden. */
export const forbiddenHosts = (fields: Record<string, string | null | undefined>) =>
  Object.entries(fields).flatMap(([field, value]) => {
    const problem = forbiddenHost(value);
    return problem ? [{ field, message: problem }] : [];
  });
