// A SAML 2.0 identity provider on loopback for the company sign-in tests: samlify in IdP mode (code
// that is not Broadsheet's) behind a small login page. The person types their e-mail and signs in;
// the IdP answers the service provider's request with a signed response, posted to its ACS when the
// person presses Continue. A test can bend the next answer: another signing key, another audience,
// a time window already past.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { testCertificate, type TestCertificate } from './test-certificate.js';

export interface AnswerBend {
  /** Signs with this key instead of the IdP's own. */
  key?: string;
  audience?: string;
  /** Minutes from now the assertion stops being valid (negative: already expired). */
  validForMinutes?: number;
  /** The Response's Destination, the assertion's Recipient and the Issuer, instead of the true ones. */
  destination?: string;
  recipient?: string;
  issuer?: string;
}

/** A logout the IdP was asked for by the service provider (its signed LogoutRequest, checked). */
export interface LogoutAsked {
  nameID: string;
  sessionIndex: string | null;
}

export interface SamlIdp {
  url: string;
  entityId: string;
  ssoUrl: string;
  /** Its single logout address (the redirect binding). */
  sloUrl: string;
  /** The SessionIndex of each person's last sign-in here. */
  sessionIndexOf: Map<string, string>;
  /** Logouts the service provider asked for, checked (signature, issuer). */
  logoutsAsked: LogoutAsked[];
  /** The service provider's answers to this IdP's own logout requests, checked; `ok` is its status. */
  logoutAnswers: { ok: boolean; inResponseTo: string | null }[];
  /**
   * This IdP signing `email` out (another application's sign-out): the signed LogoutRequest, as the
   * form the browser would post to the service provider's single logout address. `key` signs
   * instead of the IdP's own key (a forger).
   */
  logoutRequest(
    email: string,
    o?: { key?: string },
  ): Promise<{ id: string; action: string; form: Record<string, string> }>;
  cert: TestCertificate;
  /** Makes the IdP know the service provider from its metadata (Broadsheet's /metadata). */
  trust(spMetadata: string): Promise<void>;
  /** Bends the next answer only. */
  bendNext(bend: AnswerBend): void;
  /** The last SAMLResponse the IdP sent (base64), for replaying it. */
  lastResponse: { SAMLResponse: string; RelayState: string; acs: string } | null;
  close(): Promise<void>;
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test IdP</title></head><body>${body}</body></html>`;

export interface SamlIdpOptions {
  /** Encrypts the assertions it sends (to the SP's encryption certificate in its metadata). */
  encryptAssertions?: boolean;
  /** Refuses requests not signed with the SP's signing certificate in its metadata. */
  wantSignedRequests?: boolean;
}

export async function startSamlIdp(options: SamlIdpOptions = {}): Promise<SamlIdp> {
  const samlify = await import('samlify');
  // The tests do not check the XML against the schema (samlify asks for a validator to be chosen).
  samlify.setSchemaValidator({ validate: () => Promise.resolve('skipped') });
  const cert = testCertificate('test-saml-idp');
  let sp: ReturnType<typeof samlify.ServiceProvider> | null = null;
  let bend: AnswerBend | null = null;
  const requests = new Map<string, { id: string; relayState: string }>();

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://idp');
      // The signed part of a redirect-binding message: the query as sent, without its Signature.
      const redirectMessage = () => ({
        query: Object.fromEntries(url.searchParams),
        octetString: ((req.url ?? '').split('?')[1] ?? '')
          .split('&')
          .filter((part) => !part.startsWith('Signature='))
          .join('&'),
      });
      if (req.method === 'GET' && url.pathname === '/slo' && sp && url.searchParams.has('SAMLRequest')) {
        const parsed = await idp.parseLogoutRequest(sp, 'redirect', redirectMessage() as never);
        handle.logoutsAsked.push({
          nameID: String(parsed.extract.nameID),
          sessionIndex: parsed.extract.sessionIndex ? String(parsed.extract.sessionIndex) : null,
        });
        const answer = idp.createLogoutResponse(
          sp,
          parsed as never,
          'post',
          url.searchParams.get('RelayState') ?? '',
        ) as {
          context: string;
          entityEndpoint: string;
          relayState: string;
        };
        res.setHeader('content-type', 'text/html');
        return res.end(
          page(
            `<h1>Signed out at the test IdP</h1><form method="post" action="${escape(answer.entityEndpoint)}">` +
              `<input type="hidden" name="SAMLResponse" value="${escape(answer.context)}">` +
              `<input type="hidden" name="RelayState" value="${escape(answer.relayState)}"><button type="submit">Back to the application</button></form>`,
          ),
        );
      }
      if (req.method === 'GET' && url.pathname === '/slo' && sp && url.searchParams.has('SAMLResponse')) {
        // samlify checks the signature, the issuer and that the status is a success (else it throws).
        const parsed = await idp.parseLogoutResponse(sp, 'redirect', redirectMessage() as never).catch(() => null);
        handle.logoutAnswers.push({
          ok: !!parsed,
          inResponseTo: parsed?.extract.response?.inResponseTo ? String(parsed.extract.response.inResponseTo) : null,
        });
        if (!parsed) return res.writeHead(400).end('logout response refused');
        res.setHeader('content-type', 'text/html');
        return res.end(page('<h1>Signed out everywhere</h1>'));
      }
      if (req.method === 'GET' && url.pathname === '/sso' && !url.searchParams.has('SAMLRequest'))
        return res.writeHead(400).end('no SAMLRequest');
      if (req.method === 'GET' && url.pathname === '/sso' && sp) {
        const parsed = await idp.parseLoginRequest(sp, 'redirect', redirectMessage() as never);
        const handle = randomUUID();
        requests.set(handle, {
          id: String(parsed.extract.request?.id),
          relayState: url.searchParams.get('RelayState') ?? '',
        });
        res.setHeader('content-type', 'text/html');
        return res.end(
          page(
            `<h1>Test IdP</h1><form method="post" action="/login"><input type="hidden" name="handle" value="${handle}">` +
              `<label>E-mail <input name="email" type="email" required></label><button type="submit">Sign in at the IdP</button></form>`,
          ),
        );
      }
      if (req.method === 'POST' && url.pathname === '/login' && sp) {
        let body = '';
        for await (const chunk of req) body += chunk;
        const form = new URLSearchParams(body);
        const request = requests.get(form.get('handle') ?? '');
        const email = form.get('email') ?? '';
        if (!request) return res.writeHead(400).end('unknown request');
        const once = bend ?? {};
        bend = null;
        const signer = signerWith(once.key);
        const now = new Date();
        const sessionIndex = `_session-${randomUUID()}`;
        handle.sessionIndexOf.set(email, sessionIndex);
        const authnStatement =
          `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="${sessionIndex}">` +
          '<saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>';
        const until = new Date(now.getTime() + (once.validForMinutes ?? 5) * 60_000);
        const notBefore =
          once.validForMinutes !== undefined && once.validForMinutes < 0 ? new Date(until.getTime() - 5 * 60_000) : now;
        const acs = sp.entityMeta.getAssertionConsumerService('post') as string;
        const { context } = await signer.createLoginResponse(
          sp,
          { extract: { request: { id: request.id } } },
          'post',
          { email },
          (template: string) => ({
            id: `_${randomUUID()}`,
            // The statement naming the sign-in's session, as XML (the values replaced are escaped).
            context: samlify.SamlLib.replaceTagsByValue(template.replace('{AuthnStatement}', authnStatement), {
              ID: `_${randomUUID()}`,
              AssertionID: `_${randomUUID()}`,
              Destination: once.destination ?? acs,
              Audience: once.audience ?? sp!.entityMeta.getEntityID(),
              SubjectRecipient: once.recipient ?? acs,
              Issuer: once.issuer ?? idp.entityMeta.getEntityID(),
              IssueInstant: notBefore.toISOString(),
              StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
              ConditionsNotBefore: notBefore.toISOString(),
              ConditionsNotOnOrAfter: until.toISOString(),
              SubjectConfirmationDataNotOnOrAfter: until.toISOString(),
              NameIDFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
              NameID: email,
              InResponseTo: request.id,
              AuthnStatement: '',
              AttributeStatement: '',
            }),
          }),
        );
        handle.lastResponse = { SAMLResponse: context, RelayState: request.relayState, acs };
        res.setHeader('content-type', 'text/html');
        return res.end(
          page(
            `<form method="post" action="${escape(acs)}"><input type="hidden" name="SAMLResponse" value="${escape(context)}">` +
              `<input type="hidden" name="RelayState" value="${escape(request.relayState)}"><button type="submit">Continue</button></form>`,
          ),
        );
      }
      res.writeHead(404).end('not found');
    })().catch((e: Error) => {
      console.error('test IdP failed:', e);
      res.writeHead(500).end(e.message);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const idp = samlify.IdentityProvider({
    entityID: `${base}/metadata`,
    privateKey: cert.key,
    signingCert: cert.cert,
    nameIDFormat: ['urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'],
    singleSignOnService: [{ Binding: samlify.Constants.namespace.binding.redirect, Location: `${base}/sso` }],
    singleLogoutService: [{ Binding: samlify.Constants.namespace.binding.redirect, Location: `${base}/slo` }],
    // The service provider's logout messages are checked: signed by the key its metadata names.
    wantLogoutRequestSigned: true,
    wantLogoutResponseSigned: true,
    isAssertionEncrypted: !!options.encryptAssertions,
    wantAuthnRequestsSigned: !!options.wantSignedRequests,
  });
  /** The IdP itself, or one that signs with another key (a forger): its entity id and certificate the same. */
  const signerWith = (key?: string) =>
    key
      ? samlify.IdentityProvider({
          entityID: idp.entityMeta.getEntityID(),
          privateKey: key,
          signingCert: cert.cert,
          singleSignOnService: [{ Binding: samlify.Constants.namespace.binding.redirect, Location: `${base}/sso` }],
        })
      : idp;
  const handle: SamlIdp = {
    url: base,
    entityId: `${base}/metadata`,
    ssoUrl: `${base}/sso`,
    sloUrl: `${base}/slo`,
    sessionIndexOf: new Map(),
    logoutsAsked: [],
    logoutAnswers: [],
    async logoutRequest(email, o = {}) {
      if (!sp) throw new Error('the IdP does not know the service provider yet');
      const signer = signerWith(o.key);
      const made = signer.createLogoutRequest(sp, 'post', {
        logoutNameID: email,
        sessionIndex: handle.sessionIndexOf.get(email),
      }) as { id: string; context: string; entityEndpoint: string };
      return { id: made.id, action: made.entityEndpoint, form: { SAMLRequest: made.context, RelayState: '' } };
    },
    cert,
    async trust(spMetadata) {
      // Its logout messages to the service provider are signed (the SP wants them so).
      sp = samlify.ServiceProvider({
        metadata: spMetadata,
        wantMessageSigned: true,
        wantLogoutRequestSigned: true,
        wantLogoutResponseSigned: true,
      });
    },
    bendNext(b) {
      bend = b;
    },
    lastResponse: null,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return handle;
}
