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
}

export interface SamlIdp {
  url: string;
  entityId: string;
  ssoUrl: string;
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
      if (req.method === 'GET' && url.pathname === '/sso' && !url.searchParams.has('SAMLRequest'))
        return res.writeHead(400).end('no SAMLRequest');
      if (req.method === 'GET' && url.pathname === '/sso' && sp) {
        // The signed part of a redirect-binding request: the query as sent, without its Signature.
        const raw = (req.url ?? '').split('?')[1] ?? '';
        const octetString = raw
          .split('&')
          .filter((part) => !part.startsWith('Signature='))
          .join('&');
        const parsed = await idp.parseLoginRequest(sp, 'redirect', {
          query: Object.fromEntries(url.searchParams),
          octetString,
        } as never);
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
        const signer = once.key
          ? samlify.IdentityProvider({
              entityID: idp.entityMeta.getEntityID(),
              privateKey: once.key,
              signingCert: cert.cert,
              singleSignOnService: [{ Binding: samlify.Constants.namespace.binding.redirect, Location: `${base}/sso` }],
            })
          : idp;
        const now = new Date();
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
            context: samlify.SamlLib.replaceTagsByValue(template, {
              ID: `_${randomUUID()}`,
              AssertionID: `_${randomUUID()}`,
              Destination: acs,
              Audience: once.audience ?? sp!.entityMeta.getEntityID(),
              SubjectRecipient: acs,
              Issuer: idp.entityMeta.getEntityID(),
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
    isAssertionEncrypted: !!options.encryptAssertions,
    wantAuthnRequestsSigned: !!options.wantSignedRequests,
  });
  const handle: SamlIdp = {
    url: base,
    entityId: `${base}/metadata`,
    ssoUrl: `${base}/sso`,
    cert,
    async trust(spMetadata) {
      sp = samlify.ServiceProvider({ metadata: spMetadata, wantMessageSigned: true });
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
