// A key pair and a self-signed X.509 certificate for a test's identity provider (a JWT issuer, a
// SAML IdP), made by OpenSSL into a folder the test removes.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCertificate {
  /** PKCS#8 private key, PEM. */
  key: string;
  /** The self-signed certificate, PEM. */
  cert: string;
}

export function testCertificate(commonName = 'test-idp', algorithm: 'rsa' | 'ec' = 'rsa'): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'bs-cert-'));
  try {
    const keyArgs =
      algorithm === 'rsa' ? ['-newkey', 'rsa:2048'] : ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256'];
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        ...keyArgs,
        '-nodes',
        '-days',
        '2',
        '-subj',
        `/CN=${commonName}`,
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
