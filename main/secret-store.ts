import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SafeStorage } from 'electron';
import type { SecretKeyStore } from '../engine/core/secrets.js';

/** The secrets key, encrypted by the OS keychain through safeStorage, in the data folder. */
export function safeStorageKeyStore(
  safeStorage: Pick<SafeStorage, 'isEncryptionAvailable' | 'encryptString' | 'decryptString'>,
  dataDir: string,
): SecretKeyStore {
  const file = join(dataDir, 'secret.key.enc');
  return {
    async load() {
      try {
        const sealed = await readFile(file);
        return Buffer.from(safeStorage.decryptString(sealed), 'base64');
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw e;
      }
    },
    async save(key) {
      if (!safeStorage.isEncryptionAvailable())
        throw new Error('The OS keychain is not available, so secrets cannot be protected');
      await writeFile(file, safeStorage.encryptString(key.toString('base64')), { mode: 0o600 });
    },
  };
}

/**
 * How well safeStorage protects secrets here: by the OS keychain, or (Linux without a keyring,
 * backend "basic_text") only obfuscated with a key built into Chromium.
 */
export function secretsProtection(
  safeStorage: Pick<SafeStorage, 'getSelectedStorageBackend'>,
): 'encrypted' | 'obfuscated' {
  if (process.platform !== 'linux' || typeof safeStorage.getSelectedStorageBackend !== 'function') return 'encrypted';
  return safeStorage.getSelectedStorageBackend() === 'basic_text' ? 'obfuscated' : 'encrypted';
}
