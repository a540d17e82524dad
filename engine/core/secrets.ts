import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/** Where the host keeps the secrets key: safeStorage on the desktop, a 0600 file under `serve`. */
export interface SecretKeyStore {
  load(): Promise<Buffer | null>;
  save(key: Buffer): Promise<void>;
  /** Where the key is kept, in words for a message (`the key file /srv/secret.key`). */
  readonly where?: string;
  /** The key's file, where it is one: data connections and storages are kept out of its folder. */
  readonly file?: string;
}

/** What every sealed value starts with (the key check finds them by it). */
export const SEALED_PREFIX = 'enc:v1:';
const PREFIX = SEALED_PREFIX;

/** AES-256-GCM for stored secrets (SMTP, FTP, identity-provider, directory passwords and client secrets). */
export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  /** A box on a key already loaded (the key check decides whether it is the database's). */
  static of(key: Buffer): SecretBox {
    if (key.length !== 32) throw new Error('The secrets key must be 32 bytes');
    return new SecretBox(key);
  }

  /** A short name of the key that tells keys apart and reveals nothing of it (named in messages). */
  keyId(): string {
    return createHmac('sha256', this.key).update('broadsheet secrets key id').digest('hex').slice(0, 12);
  }

  /** Whether a sealed value opens with this key. */
  opens(sealed: string): boolean {
    try {
      this.open(sealed);
      return true;
    } catch {
      return false;
    }
  }

  static async open(store: SecretKeyStore): Promise<SecretBox> {
    let key = await store.load();
    if (!key) {
      key = randomBytes(32);
      await store.save(key);
      // Servers starting together on one shared key file: the key that was kept is the one to use.
      key = (await store.load()) ?? key;
    }
    if (key.length !== 32) throw new Error('The secrets key must be 32 bytes');
    return new SecretBox(key);
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
  }

  open(sealed: string): string {
    if (!sealed.startsWith(PREFIX)) throw new Error('Not a sealed secret');
    const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }

  /** For updates: a new value replaces the secret, an omitted or null one keeps it. */
  sealOrKeep(next: string | null | undefined, current: string | null): string | null {
    return next === undefined || next === null || next === '' ? current : this.seal(next);
  }
}

/**
 * Whether a changed connection or storage still points where its stored secret was given for: the
 * same values of every field that says where it goes (kind, host, port, database, user, URL, root).
 * When it does not, the stored password or token is dropped unless a new one comes with the change,
 * so a secret never leaves for a destination it was not entered for.
 */
export function sameDestination<T extends object>(
  current: T | null,
  next: Partial<T>,
  fields: readonly (keyof T)[],
): boolean {
  if (!current) return false;
  return fields.every((k) => (current[k] ?? null) === (next[k] ?? null));
}
