import type { EngineServices } from '../../ops/context.js';
import { sql } from '../../core/sql.js';
import { readSetting } from '../settings/settings.rules.js';
import { User, type UserRow } from '../../model/users.entity.js';
import { SsoRefusal } from './sso-identity.js';
import { loadKerberos } from './kerberos-module.js';

// Windows sign-in: HTTP Negotiate with Kerberos (SPNEGO), through the `kerberos` addon and the
// machine's GSSAPI (MIT krb5 on Linux, SSPI-compatible tickets from Active Directory). The server's
// key comes from its keytab (KRB5_KTNAME); the service is HTTP@<the host the browser asked for>.
// The person is the active user whose `domainAccount` is the Kerberos principal (alice@REALM,
// REALM\alice or alice) or whose e-mail is the principal, in an organization that allows Windows
// sign-in, with the system's `ntlmAuth` on. NTLM itself is not spoken: a browser that offers it
// (no ticket) is refused in words.

export interface WindowsStep {
  /** The token to send back (mutual authentication), when the handshake finished. */
  response: string | null;
  principal: string;
}

/** Whether Windows sign-in is on for the system and some organization allows it. */
export async function windowsSignInOffered(s: Pick<EngineServices, 'db'>): Promise<boolean> {
  if (!(await readSetting(s as EngineServices, 'authenticationMethods')).ntlmAuth) return false;
  const rows = await sql<{ n: number }>(s.db, 'SELECT COUNT(*) AS n FROM organizations WHERE "allowNtlm" = TRUE');
  return Number(rows[0]?.n ?? 0) > 0;
}

/** One Negotiate step: the browser's token in, the principal out (Kerberos finishes in one step). */
export async function negotiateStep(host: string, token: string): Promise<WindowsStep> {
  if (token.startsWith('TlRMTVNT'))
    throw new SsoRefusal(
      'windows',
      'the browser offered NTLM, which Broadsheet does not speak: it needs a Kerberos ticket',
    );
  let kerberos;
  try {
    kerberos = await loadKerberos();
  } catch (e) {
    throw new SsoRefusal('setup', 'Kerberos is not available on this server', (e as Error).message);
  }
  const server = await kerberos.initializeServer(`HTTP@${host}`);
  try {
    await server.step(token);
  } catch (e) {
    throw new SsoRefusal('windows', 'the Kerberos ticket did not hold', (e as Error).message.slice(0, 300));
  }
  if (!server.contextComplete || !server.username)
    throw new SsoRefusal('windows', 'the Kerberos handshake did not finish in one step');
  return { response: server.response || null, principal: server.username };
}

/** The user a principal is: by Windows account, or by e-mail, in an organization that allows Windows sign-in. */
export async function windowsUser(s: Pick<EngineServices, 'db'>, principal: string): Promise<UserRow | null> {
  const [name, realm = ''] = principal.toLowerCase().split('@');
  const short = realm.split('.')[0];
  const accounts = [principal.toLowerCase(), `${realm}\\${name}`, `${short}\\${name}`, name];
  const ids = await sql<{ id: string }>(
    s.db,
    `SELECT u.id FROM users u
     JOIN user_organizations uo ON uo."userId" = u.id
     JOIN organizations o ON o.id = uo."targetId" AND o."allowNtlm" = TRUE
     WHERE u."isActive" = TRUE AND (LOWER(u."domainAccount") IN (?, ?, ?, ?) OR LOWER(u.email) = ?)`,
    [...accounts, principal.toLowerCase()],
  );
  return ids.length ? s.db.getRepository(User).findOneBy({ id: ids[0].id }) : null;
}
