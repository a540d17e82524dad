import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** Where the host keeps the secrets key: safeStorage on the desktop, a 0600 file under `serve`. */
export interface SecretKeyStore {
  load(): Promise<Buffer | null>;
  save(key: Buffer): Promise<void>;
}

const PREFIX = 'enc:v1:';

/** AES-256-GCM for stored secrets (SMTP, FTP, identity-provider, directory passwords and client secrets). */
export class SecretBox {
  private constructor(private readonly key: Buffer) {}

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
