import type { CacheProvider, SAML } from '@node-saml/node-saml';
import type { EngineServices } from '../../ops/context.js';
import type { IdentityProviderRow } from '../../model/identity-providers.entity.js';
import { issueTicket, peekTicket, takeTicket } from '../tickets/one-time-tickets.js';
import { safeReturnTo, SsoRefusal, type Identity } from './sso-identity.js';
import { serviceProviderKeys } from './sp-keys.js';

// SAML 2.0 with @node-saml/node-saml: SP-initiated login over the redirect binding, the answer taken
// at the ACS over POST; the IdP's signature (on the response or the assertion) checked with the
// provider's certificate, the audience (this provider's SP entity id), the recipient, the time
// window with a minute's skew, and `InResponseTo` matched to a request this installation sent: the
// request's id is a one-time ticket in the database, so a replayed answer finds it gone.

type Services = EngineServices;

/** The minute of clock difference allowed between this server and the IdP. */
const SKEW_MS = 60_000;

/** Request ids as one-time tickets: any server of the installation can take the answer. */
function ticketCache(s: Services): CacheProvider {
  return {
    saveAsync: async (key, value) => {
      await issueTicket(s, 'saml', value, key);
      return { value, createdAt: s.now().getTime() };
    },
    getAsync: (key) => peekTicket<string>(s, 'saml', key),
    removeAsync: async (key) => (key ? takeTicket<string>(s, 'saml', key) : null),
  };
}

/** The IdP's certificate: the PEM or bare base64 of `certificatePublicKey`, or `certificateFile`'s text. */
function idpCertOf(p: IdentityProviderRow): string {
  const text = (p.certificatePublicKey || p.certificateFile || '').trim();
  if (!text) throw new SsoRefusal('setup', `${p.name} has no certificate to check its signature with`);
  return text;
}

/**
 * The SAML service provider of one identity provider at `base` (its address under this server).
 * Sign-in requests are signed when the provider asks for it; logout messages always are (`signAll`):
 * a logout request naming a person must be this installation's, and IdPs refuse unsigned ones.
 */
async function samlFor(s: Services, p: IdentityProviderRow, base: string, signAll = false): Promise<SAML> {
  const { SAML, ValidateInResponseTo } = await import('@node-saml/node-saml');
  if (!p.singleSignOnUrl) throw new SsoRefusal('setup', `${p.name} has no single sign-on URL`);
  const sp = await serviceProviderKeys(s);
  return new SAML({
    // Encrypted assertions always opened.
    ...((signAll || p.signAuthnRequest) && { privateKey: sp.key }),
    decryptionPvk: sp.key,
    entryPoint: p.singleSignOnUrl,
    issuer: `${base}/metadata`,
    audience: `${base}/metadata`,
    callbackUrl: `${base}/acs`,
    idpCert: idpCertOf(p),
    ...(p.entityID && { idpIssuer: p.entityID }),
    wantAssertionsSigned: false,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: SKEW_MS,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: 10 * 60_000,
    cacheProvider: ticketCache(s),
    identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    signatureAlgorithm: 'sha256',
    ...(p.singleLogoutUrl && { logoutUrl: p.singleLogoutUrl, logoutCallbackUrl: `${base}/slo` }),
  });
}

/** The IdP's sign-in address with this installation's request (the redirect binding). */
export async function samlStart(s: Services, p: IdentityProviderRow, base: string, returnTo: string) {
  return (await samlFor(s, p, base)).getAuthorizeUrlAsync(safeReturnTo(returnTo), undefined, {});
}

const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'emailAddress',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  'urn:oid:0.9.2342.19200300.100.1.3',
];

/** The IdP's answer at the ACS: checked whole, then who signed in and where they were going. */
export async function samlAcs(
  s: Services,
  p: IdentityProviderRow,
  base: string,
  body: Record<string, string>,
): Promise<Identity & { returnTo: string }> {
  if (typeof body.SAMLResponse !== 'string' || !body.SAMLResponse)
    throw new SsoRefusal('assertion', 'the post holds no SAMLResponse');
  const saml = await samlFor(s, p, base);
  let profile;
  try {
    ({ profile } = await saml.validatePostResponseAsync({ SAMLResponse: body.SAMLResponse }));
  } catch (e) {
    const message = String((e as Error).message).slice(0, 300);
    throw new SsoRefusal('assertion', `${p.name}'s answer did not hold`, `${whyRefused(message)}: ${message}`);
  }
  if (!profile) throw new SsoRefusal('assertion', `${p.name}'s answer named nobody`);
  const misaddressed = await addressedElsewhere(body.SAMLResponse, `${base}/acs`, p.entityID);
  if (misaddressed) throw new SsoRefusal('assertion', `${p.name}'s answer did not hold`, misaddressed);
  const attributes = profile as unknown as Record<string, unknown>;
  const fromAttributes = EMAIL_ATTRIBUTES.map((a) => attributes[a]).find((v) => typeof v === 'string') as
    | string
    | undefined;
  const nameId = typeof profile.nameID === 'string' && profile.nameID.includes('@') ? profile.nameID : null;
  const first = ['givenName', 'firstName', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname']
    .map((a) => attributes[a])
    .find((v) => typeof v === 'string') as string | undefined;
  const last = ['sn', 'surname', 'lastName', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname']
    .map((a) => attributes[a])
    .find((v) => typeof v === 'string') as string | undefined;
  return {
    email: fromAttributes ?? nameId,
    givenName: first ?? null,
    familyName: last ?? null,
    subject: profile.nameID ?? null,
    // What a logout request for this sign-in names: the NameID as the IdP gave it, and its session.
    providerSession: {
      base,
      nameIDFormat: profile.nameIDFormat ?? null,
      nameQualifier: profile.nameQualifier ?? null,
      spNameQualifier: profile.spNameQualifier ?? null,
      sessionIndex: profile.sessionIndex ?? null,
    },
    returnTo: safeReturnTo(body.RelayState),
  };
}

/**
 * What node-saml leaves unchecked, checked on the signed answer it accepted: the Response's
 * Destination and the bearer confirmation's Recipient are this provider's ACS (an answer a
 * provider gave another service is not replayed here), and the Issuer is the provider's entity id
 * where one is set. Why, in the log's words, or null when all hold. An encrypted assertion's
 * Recipient is inside its encryption: its Destination and Issuer are still checked.
 */
async function addressedElsewhere(samlResponse: string, acs: string, entityId: string | null): Promise<string | null> {
  const { DOMParser } = await import('@xmldom/xmldom');
  const xml = Buffer.from(samlResponse, 'base64').toString('utf8');
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  const PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';
  const ASSERTION = 'urn:oasis:names:tc:SAML:2.0:assertion';
  const response = doc.getElementsByTagNameNS(PROTOCOL, 'Response')[0];
  if (!response) return 'assertion: no Response';
  const destination = response.getAttribute('Destination');
  if (destination && destination !== acs) return `recipient: the Destination ${destination} is not ${acs}`;
  for (const c of Array.from(doc.getElementsByTagNameNS(ASSERTION, 'SubjectConfirmationData'))) {
    const recipient = c.getAttribute('Recipient');
    if (recipient !== acs) return `recipient: the Recipient ${recipient ?? '(none)'} is not ${acs}`;
  }
  if (entityId)
    for (const issuer of Array.from(doc.getElementsByTagNameNS(ASSERTION, 'Issuer'))) {
      const said = issuer.textContent?.trim() ?? '';
      if (said !== entityId) return `issuer: the Issuer ${said} is not ${entityId}`;
    }
  return null;
}

/** node-saml's refusal in one word for the log: what an administrator looks at first. */
function whyRefused(message: string): string {
  if (/InResponseTo/i.test(message)) return 'replayed or unknown request';
  if (/signature/i.test(message)) return 'signature';
  if (/audience/i.test(message)) return 'audience';
  if (/NotOnOrAfter|NotBefore|expired|subject confirmation/i.test(message)) return 'expiry';
  if (/recipient|destination/i.test(message)) return 'recipient';
  if (/issuer/i.test(message)) return 'issuer';
  return 'assertion';
}

/** The service provider's metadata: entity id, ACS URL and name id format, for the IdP's administrator. */
export async function samlMetadata(s: Services, p: IdentityProviderRow, base: string): Promise<string> {
  const { SAML, ValidateInResponseTo } = await import('@node-saml/node-saml');
  const sp = await serviceProviderKeys(s);
  // The IdP's own fields need not be filled in yet: an administrator copies this first.
  const signs = p.signAuthnRequest || !!p.singleLogoutUrl;
  const saml = new SAML({
    ...(signs && { privateKey: sp.key }),
    decryptionPvk: sp.key,
    issuer: `${base}/metadata`,
    callbackUrl: `${base}/acs`,
    ...(p.singleLogoutUrl && { logoutCallbackUrl: `${base}/slo` }),
    idpCert: p.certificatePublicKey || p.certificateFile || 'none',
    identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    validateInResponseTo: ValidateInResponseTo.always,
    cacheProvider: ticketCache(s),
  });
  // The certificate to encrypt assertions with, and to check signed requests with when they are signed.
  return saml.generateServiceProviderMetadata(sp.cert, signs ? sp.cert : null);
}

/** What a session made by a SAML sign-in keeps for its logout (see `samlAcs`). */
interface SamlSession {
  base: string;
  nameIDFormat: string | null;
  nameQualifier: string | null;
  spNameQualifier: string | null;
  sessionIndex: string | null;
}

/**
 * Single logout started here: the IdP's logout address with this installation's signed
 * LogoutRequest for the person and session the sign-in named (the redirect binding). The request's
 * id is a one-time ticket, as a sign-in request's is. Null when the provider has no logout address.
 */
export async function samlLogoutUrl(
  s: Services,
  p: IdentityProviderRow,
  subject: string,
  session: SamlSession,
): Promise<string | null> {
  if (!p.singleLogoutUrl) return null;
  const saml = await samlFor(s, p, session.base, true);
  const profile = {
    issuer: p.entityID ?? '',
    nameID: subject,
    nameIDFormat: session.nameIDFormat ?? 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    ...(session.nameQualifier && { nameQualifier: session.nameQualifier }),
    ...(session.spNameQualifier && { spNameQualifier: session.spNameQualifier }),
    ...(session.sessionIndex && { sessionIndex: session.sessionIndex }),
  };
  return saml.getLogoutUrlAsync(profile, '#/sign-in', {});
}

/** A logout message the IdP sent to this server's single logout address, checked. */
export type SamlLogoutMessage =
  /** The IdP ends a person's sessions (IdP-initiated, or another application's sign-out). */
  | { kind: 'request'; subject: string; sessionIndex: string | null; answer: (ended: boolean) => Promise<string> }
  /** The IdP's answer to this installation's own logout request. */
  | { kind: 'response' };

/**
 * The IdP's logout message at `/slo`, over the redirect binding (GET, `rawQuery` is the query as
 * sent, which the signature covers) or the POST binding (`form`). A request must be signed by the
 * IdP: node-saml lets an unsigned redirect request through, and anyone could then sign anyone out.
 */
export async function samlLogoutMessage(
  s: Services,
  p: IdentityProviderRow,
  base: string,
  form: Record<string, string>,
  rawQuery: string | null,
): Promise<SamlLogoutMessage> {
  const saml = await samlFor(s, p, base, true);
  const isRequest = typeof form.SAMLRequest === 'string' && !!form.SAMLRequest;
  if (!isRequest && !(typeof form.SAMLResponse === 'string' && form.SAMLResponse))
    throw new SsoRefusal('assertion', 'the logout message holds neither SAMLRequest nor SAMLResponse');
  if (rawQuery !== null && !form.Signature)
    throw new SsoRefusal('assertion', `${p.name}'s logout message is not signed`);
  let checked;
  try {
    checked =
      rawQuery !== null
        ? await saml.validateRedirectAsync(form, rawQuery)
        : isRequest
          ? await saml.validatePostRequestAsync(form)
          : await saml.validatePostResponseAsync(form);
  } catch (e) {
    const message = String((e as Error).message).slice(0, 300);
    throw new SsoRefusal('assertion', `${p.name}'s logout message did not hold`, `${whyRefused(message)}: ${message}`);
  }
  if (!isRequest) return { kind: 'response' };
  const profile = checked.profile;
  if (!profile?.nameID) throw new SsoRefusal('assertion', `${p.name}'s logout request names nobody`);
  return {
    kind: 'request',
    subject: profile.nameID,
    sessionIndex: typeof profile.sessionIndex === 'string' ? profile.sessionIndex : null,
    // The answer goes back to the IdP's logout address, signed, over the redirect binding.
    answer: (ended) => saml.getLogoutResponseUrlAsync(profile, form.RelayState ?? '', {}, ended),
  };
}
