import { randomBytes, scrypt, timingSafeEqual, createHash } from 'node:crypto';

// OWASP password storage: scrypt with N=2^17, r=8, p=1 (128 MiB, about 0.2 s here). Async so the
// event loop keeps serving while a hash is computed on libuv's pool. Each stored hash names its own
// cost, so hashes made at another cost still verify.
const R = 8;
const P = 1;
const KEYLEN = 32;
const MAXMEM = 256 * 1024 * 1024;

/** The scrypt cost of the hashes an engine makes. */
export interface PasswordWork {
  /** scrypt's N, a power of two. */
  N: number;
}

/** What every installation uses: OWASP's scrypt cost. */
export const OWASP_PASSWORD_WORK: PasswordWork = { N: 2 ** 17 };

export interface Passwords {
  hash(password: string): Promise<string>;
  /**
   * Whether a password is the one stored. Without a stored hash (an unknown address, a user of a
   * directory) it does the same work against a fixed hash and answers false, so the time taken
   * does not tell whether an account exists.
   */
  verify(password: string, stored: string | null | undefined): Promise<boolean>;
}

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, KEYLEN, { N: n, r, p, maxmem: MAXMEM }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

const encoded = (n: number, salt: Buffer, key: Buffer) =>
  `scrypt$${n}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;

/** Hashing and checking passwords at one cost (the engine's `passwordWork`; OWASP's unless a test suite lowers it). */
export function passwordHashing(work: PasswordWork = OWASP_PASSWORD_WORK): Passwords {
  if (!Number.isInteger(Math.log2(work.N)) || work.N < 2 ** 10 || work.N > 2 ** 20)
    throw new Error(`passwordWork.N must be a power of two from 2^10 to 2^20, not ${work.N}`);
  const unknownAccount = encoded(work.N, Buffer.alloc(16), Buffer.alloc(KEYLEN));
  return {
    async hash(password) {
      const salt = randomBytes(16);
      return encoded(work.N, salt, await derive(password, salt, work.N, R, P));
    },
    async verify(password, stored) {
      const [kind, n, r, p, salt, hash] = (stored || unknownAccount).split('$');
      if (kind !== 'scrypt') return false;
      const expected = Buffer.from(hash, 'base64');
      const key = await derive(password, Buffer.from(salt, 'base64'), Number(n), Number(r), Number(p));
      return !!stored && key.length === expected.length && timingSafeEqual(key, expected);
    },
  };
}

/** Password rules shown to users: long enough to resist guessing, no other composition rules (NIST 800-63B). */
export function passwordProblem(password: string): string | null {
  if (password.length < 8) return 'must be at least 8 characters';
  if (password.length > 256) return 'must be at most 256 characters';
  return null;
}

/** Tokens and API keys carry 256 random bits, so a fast hash is enough to store them. */
export function newToken(prefix: string): string {
  return prefix + randomBytes(32).toString('base64url');
}

export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
