import { webcrypto } from 'node:crypto';
import type { EngineServices } from '../../ops/context.js';
import { readSetting, writeSetting } from '../settings/settings.rules.js';

// The installation's own SAML service-provider key and certificate: it signs AuthnRequests (when a
// provider asks for signed requests) and decrypts encrypted assertions; its certificate is in the SP
// metadata. Made once, on first need (RSA 2048, self-signed, ten years: IdPs trust it by metadata,
// not by a chain); the key is sealed with the installation's secrets key like every stored secret.

export interface ServiceProviderKeys {
  /** PKCS#8 PEM. */
  key: string;
  /** X.509 PEM. */
  cert: string;
}

const YEARS = 10;

async function generate(now: Date): Promise<ServiceProviderKeys> {
  const x509 = await import('@peculiar/x509');
  x509.cryptoProvider.set(webcrypto as unknown as Crypto);
  const algorithm = {
    name: 'RSASSA-PKCS1-v1_5',
    hash: 'SHA-256',
    publicExponent: new Uint8Array([1, 0, 1]),
    modulusLength: 2048,
  };
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const notAfter = new Date(now);
  notAfter.setFullYear(notAfter.getFullYear() + YEARS);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Buffer.from(webcrypto.getRandomValues(new Uint8Array(16)))
      .toString('hex')
      .replace(/^[89a-f]/, '1'),
    name: 'CN=Broadsheet SAML service provider',
    notBefore: now,
    notAfter,
    keys: keys as unknown as CryptoKeyPair,
    signingAlgorithm: algorithm,
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)).toString('base64');
  const key = `-----BEGIN PRIVATE KEY-----\n${pkcs8.replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END PRIVATE KEY-----\n`;
  return { key, cert: cert.toString('pem') };
}

/** One making at a time per database: two first needs at once share one key. */
const making = new WeakMap<object, Promise<ServiceProviderKeys>>();

/**
 * The SP key and certificate, made and stored the first time they are needed (and made anew when
 * the stored key cannot be opened: a restore without the secrets key; the IdPs then take the new
 * metadata).
 */
export async function serviceProviderKeys(s: EngineServices): Promise<ServiceProviderKeys> {
  const stored = await readSetting(s, 'samlServiceProvider');
  if (stored) {
    try {
      return { key: s.secrets.open(stored.key), cert: stored.cert };
    } catch {
      s.log.warn('The SAML service-provider key could not be opened; a new one is made', {});
    }
  }
  let pending = making.get(s.db);
  if (!pending) {
    pending = (async () => {
      const made = await generate(s.now());
      await writeSetting(s, 'samlServiceProvider', { key: s.secrets.seal(made.key), cert: made.cert });
      return made;
    })().finally(() => making.delete(s.db));
    making.set(s.db, pending);
  }
  return pending;
}
