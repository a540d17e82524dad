import type * as Oidc from 'openid-client';
import type { EngineServices } from '../../ops/context.js';
import type { IdentityProviderRow } from '../../model/identity-providers.entity.js';
import { issueTicket, takeTicket } from '../tickets/one-time-tickets.js';
import { SsoRefusal, type Identity } from './sso-identity.js';

// OpenID Connect / OAuth 2.0 with openid-client (the relying party; no token handled by hand): the
// authorization code flow with PKCE (S256), `state` and `nonce` single-use in a ticket, the client
// authenticated at the token endpoint with client_secret_basic, the ID token verified against the
// provider's keys (signature against the issuer's published JWKS whatever channel brought it,
// issuer, audience, expiry, nonce) when the provider has an issuer, and the userinfo endpoint read.
// An e-mail the provider says it has not verified (`email_verified: false`) signs nobody in.

interface OidcTicket {
  providerId: string;
  verifier: string;
  nonce: string;
  returnTo: string;
  redirectUri: string;
}

/** A loopback provider may speak plain HTTP (a test or a provider on the same machine); others may not. */
const loopback = (url: URL) => ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);

/** What is asked for unless the provider says otherwise: standard OpenID providers answer userinfo only for `openid`. */
const DEFAULT_SCOPES = 'openid email profile';

/** Configurations by provider, as long as the provider's record is unchanged (discovery is a fetch). */
const configurations = new Map<string, { modified: number; config: Promise<Oidc.Configuration> }>();

async function configurationOf(
  s: Pick<EngineServices, 'secrets'>,
  p: IdentityProviderRow,
): Promise<Oidc.Configuration> {
  const known = configurations.get(p.id);
  if (known && known.modified === p.modifiedDate.getTime()) return known.config;
  const config = buildConfiguration(s, p);
  configurations.set(p.id, { modified: p.modifiedDate.getTime(), config });
  config.catch(() => configurations.delete(p.id));
  return config;
}

async function buildConfiguration(s: Pick<EngineServices, 'secrets'>, p: IdentityProviderRow) {
  const client = await import('openid-client');
  if (!p.clientID) throw new SsoRefusal('setup', `${p.name} has no client ID`);
  const auth = client.ClientSecretBasic(p.clientSecret ? s.secrets.open(p.clientSecret) : undefined);
  const insecure = (u: string | null) => !!u && new URL(u).protocol === 'http:' && loopback(new URL(u));
  const explicit = {
    ...(p.authorizationEndpoint && { authorization_endpoint: p.authorizationEndpoint }),
    ...(p.accessTokenEndpoint && { token_endpoint: p.accessTokenEndpoint }),
    ...(p.userinfoEndpoint && { userinfo_endpoint: p.userinfoEndpoint }),
    ...(p.logoutEndpoint && { end_session_endpoint: p.logoutEndpoint }),
  };
  let config: Oidc.Configuration;
  if (p.entityID) {
    // The issuer's discovery document: its keys (to verify ID tokens) and endpoints; fields set here win.
    const issuer = new URL(p.entityID);
    config = await client.discovery(issuer, p.clientID, undefined, auth, {
      execute: insecure(p.entityID) ? [client.allowInsecureRequests] : [],
      timeout: 10,
    });
    // The document as the issuer published it (JSON), with the endpoints set on the provider over it.
    const { supportsPKCE: _helper, ...discovered } = config.serverMetadata();
    config = new client.Configuration({ ...discovered, ...explicit }, p.clientID, undefined, auth);
  } else {
    if (!p.authorizationEndpoint || !p.accessTokenEndpoint)
      throw new SsoRefusal('setup', `${p.name} needs an issuer, or its authorization and token endpoints`);
    config = new client.Configuration(
      { issuer: new URL(p.authorizationEndpoint).origin, ...explicit },
      p.clientID,
      undefined,
      auth,
    );
  }
  if ([p.entityID, p.authorizationEndpoint, p.accessTokenEndpoint, p.userinfoEndpoint].some(insecure))
    client.allowInsecureRequests(config);
  // The ID token's signature is checked against the issuer's keys even though it came over TLS from
  // the token endpoint: a token endpoint answering with a token signed by another key is refused.
  if (p.entityID) client.enableNonRepudiationChecks(config);
  return config;
}

/** The URL that sends the browser to the provider; the ticket remembers what the callback checks. */
export async function oidcStart(
  s: Pick<EngineServices, 'db' | 'now' | 'secrets'>,
  p: IdentityProviderRow,
  redirectUri: string,
  returnTo: string,
): Promise<string> {
  const client = await import('openid-client');
  const config = await configurationOf(s, p);
  const verifier = client.randomPKCECodeVerifier();
  const nonce = client.randomNonce();
  const state = client.randomState();
  await issueTicket(
    s,
    'oidc',
    { providerId: p.id, verifier, nonce, returnTo, redirectUri } satisfies OidcTicket,
    state,
  );
  return client
    .buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: p.scopes?.trim() || DEFAULT_SCOPES,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      ...(p.entityID && { nonce }),
    })
    .toString();
}

/**
 * The provider's answer at the redirect URI: the ticket named by `state` (taken once), the code
 * exchanged with the PKCE verifier, the ID token checked, userinfo read. Answers who signed in.
 */
export async function oidcCallback(
  s: Pick<EngineServices, 'db' | 'now' | 'secrets'>,
  p: IdentityProviderRow,
  callbackUrl: URL,
): Promise<Identity & { returnTo: string }> {
  const client = await import('openid-client');
  const state = callbackUrl.searchParams.get('state') ?? '';
  const ticket = await takeTicket<OidcTicket>(s, 'oidc', state);
  if (!ticket || ticket.providerId !== p.id)
    throw new SsoRefusal('state', 'the sign-in was not started here, was already used, or took too long');
  const error = callbackUrl.searchParams.get('error');
  if (error)
    throw new SsoRefusal(
      'provider',
      `${p.name} answered "${error}"`,
      callbackUrl.searchParams.get('error_description'),
    );
  const config = await configurationOf(s, p);
  // The URL the provider sent the browser to, as the redirect URI registered there.
  const current = new URL(ticket.redirectUri);
  current.search = callbackUrl.search;
  let tokens;
  try {
    tokens = await client.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: ticket.verifier,
      expectedState: state,
      ...(p.entityID && { expectedNonce: ticket.nonce, idTokenExpected: true }),
    });
  } catch (e) {
    throw new SsoRefusal('token', `${p.name}'s answer did not hold`, reasonOf(e));
  }
  const claims = tokens.claims();
  let info: Record<string, unknown> = {};
  if (config.serverMetadata().userinfo_endpoint)
    try {
      info = await client.fetchUserInfo(config, tokens.access_token, claims?.sub ?? client.skipSubjectCheck);
    } catch (e) {
      throw new SsoRefusal('userinfo', `${p.name}'s user information could not be read`, reasonOf(e));
    }
  // The provider's own word that it has not checked the address: whoever typed it may not be its owner.
  if (unverified(info.email_verified) || unverified(claims?.email_verified))
    throw new SsoRefusal('unverified', `${p.name} has not verified this person's e-mail address`);
  const email =
    str(info.email) ?? str(claims?.email) ?? str(info.preferred_username) ?? str(claims?.preferred_username);
  return {
    email,
    givenName: str(info.given_name) ?? str(claims?.given_name),
    familyName: str(info.family_name) ?? str(claims?.family_name),
    subject: str(claims?.sub) ?? str(info.sub),
    returnTo: ticket.returnTo,
  };
}

/** Where the browser goes to end the provider's session too, when the provider has a logout endpoint. */
export async function oidcLogoutUrl(
  s: Pick<EngineServices, 'secrets'>,
  p: IdentityProviderRow,
): Promise<string | null> {
  const client = await import('openid-client');
  const config = await configurationOf(s, p).catch(() => null);
  if (!config?.serverMetadata().end_session_endpoint) return null;
  return client
    .buildEndSessionUrl(config, {
      client_id: p.clientID ?? '',
      ...(p.postLogoutRedirectUrl && { post_logout_redirect_uri: p.postLogoutRedirectUrl }),
    })
    .toString();
}

/** What a library's error says, without a token: its code and message (openid-client's carry no secrets). */
function reasonOf(e: unknown): string {
  const err = e as { code?: string; message?: string; cause?: { message?: string } };
  return [err.code, err.message, err.cause?.message].filter(Boolean).join(': ').slice(0, 300);
}

const unverified = (v: unknown) => v === false || v === 'false';

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
