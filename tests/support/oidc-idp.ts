// A real OpenID Connect provider on loopback for the company sign-in tests: panva's oidc-provider
// (the certified implementation), with its development login page, which takes any login as the
// account's e-mail. The client is registered once Broadsheet's redirect URI is known.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OidcIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Registers the client with these redirect URIs, and where it may send people after signing out. */
  register(
    redirectUris: string[],
    postLogoutRedirectUris?: string[],
    applicationType?: 'web' | 'native',
  ): Promise<void>;
  /** What oidc-provider logged as server errors (a test fails on one). */
  errors: string[];
  /**
   * Publishes a key set the provider does not sign with (as a token endpoint answering with a
   * token signed by another key would look to a verifier), until turned off.
   */
  foreignKeys(on: boolean): Promise<void>;
  close(): Promise<void>;
}

export async function startOidcIdp(): Promise<OidcIdp> {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | null = null;
  let otherKeys: string | null = null;
  const server: Server = createServer((req, res) => {
    if (otherKeys && req.url === '/jwks')
      return res.writeHead(200, { 'content-type': 'application/json' }).end(otherKeys);
    if (handler) return handler(req, res);
    res.statusCode = 503;
    res.end('not ready');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'broadsheet-test';
  const clientSecret = 'a-client-secret-of-the-test-provider';
  const errors: string[] = [];
  const make = async (
    redirectUris: string[],
    postLogoutRedirectUris: string[] = [],
    applicationType: 'web' | 'native' = 'web',
  ) => {
    const { default: Provider } = await import('oidc-provider');
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          // A native client (the desktop) may come back to any port of a loopback address (RFC 8252 7.3).
          application_type: applicationType,
          redirect_uris: redirectUris,
          post_logout_redirect_uris: postLogoutRedirectUris,
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_basic',
        },
      ],
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      findAccount: (_ctx, id) => ({
        accountId: id,
        // An account whose login starts with "unverified-" is one whose address the provider never checked.
        claims: () => ({
          sub: id,
          email: id.replace(/^unverified-/, ''),
          email_verified: !id.startsWith('unverified-'),
          name: id,
        }),
      }),
      pkce: { required: () => true },
      cookies: { keys: ['test-cookie-key-one'] },
      features: { devInteractions: { enabled: true } },
    });
    provider.on('server_error', (_ctx: unknown, e: Error) => errors.push(e.message));
    handler = provider.callback();
  };
  // Discovery answers from the start; the client's redirect URI is known once Broadsheet has the provider.
  await make(['http://127.0.0.1/not-yet-registered']);
  return {
    issuer,
    clientId,
    clientSecret,
    errors,
    register: make,
    async foreignKeys(on) {
      if (!on) return void (otherKeys = null);
      const { generateKeyPair, exportJWK } = await import('jose');
      const { publicKey } = await generateKeyPair('RS256', { extractable: true });
      otherKeys = JSON.stringify({
        keys: [{ ...(await exportJWK(publicKey)), use: 'sig', alg: 'RS256', kid: 'not-the-signer' }],
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The body of set B's create call for this provider, its endpoints read from its discovery document. */
export async function oidcProviderBody(idp: OidcIdp, extra: Record<string, unknown> = {}) {
  const discovery = await (await fetch(`${idp.issuer}/.well-known/openid-configuration`)).json();
  return {
    name: 'Acme ID',
    type: 'OpenID Connect',
    clientID: idp.clientId,
    clientSecret: idp.clientSecret,
    issuer: idp.issuer,
    authorizationEndpoint: discovery.authorization_endpoint,
    accessTokenEndpoint: discovery.token_endpoint,
    userinfoEndpoint: discovery.userinfo_endpoint,
    logoutEndpoint: discovery.end_session_endpoint,
    ...extra,
  };
}
