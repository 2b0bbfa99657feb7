// Secrets on disk encrypted with Electron's safeStorage (Keychain, DPAPI, libsecret/kwallet).
// Where the OS offers only `basic_text`, nothing is written: secrets stay in memory and the user
// is told why. The asynchronous API is used: Electron 45 deprecates the synchronous one.

import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { safeStorage } from 'electron';
import type { SecretStore, SecretStoreState } from './auth/ports.ts';

export class SafeStorageSecretStore implements SecretStore {
  private memory = new Map<string, string>();

  private constructor(
    private readonly dir: string,
    private readonly encryptionAvailable: boolean,
  ) {}

  /** After `ready`: asks the system once whether it can encrypt (the answer is asynchronous now). */
  static async open(dir: string): Promise<SafeStorageSecretStore> {
    return new SafeStorageSecretStore(dir, await safeStorage.isAsyncEncryptionAvailable());
  }

  state(): SecretStoreState {
    if (!this.encryptionAvailable) {
      return {
        persistent: false,
        note: 'This computer offers no secure place for secrets, so you will sign in again after each restart.',
      };
    }
    if (process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text') {
      return {
        persistent: false,
        note: 'No keyring (GNOME Keyring or KWallet) is running, so your sign-in is kept in memory only and asked for again after a restart.',
      };
    }
    return { persistent: true, note: null };
  }

  private file(name: string): string {
    return join(this.dir, `${name.replace(/[^a-z0-9-]/gi, '_')}.bin`);
  }

  async get(name: string): Promise<string | null> {
    if (this.memory.has(name)) return this.memory.get(name) ?? null;
    if (!this.state().persistent || !existsSync(this.file(name))) return null;
    let value: string;
    try {
      const decrypted = await safeStorage.decryptStringAsync(await readFile(this.file(name)));
      value = decrypted.result;
      // The system's key was rotated: written again under the new one, so it stays readable.
      if (decrypted.shouldReEncrypt) await this.write(name, value).catch(() => undefined);
    } catch {
      return null; // unreadable (another user, a reset keyring): as if absent
    }
    this.memory.set(name, value);
    return value;
  }

  async set(name: string, value: string): Promise<void> {
    this.memory.set(name, value);
    if (!this.state().persistent) return;
    await this.write(name, value);
  }

  async delete(name: string): Promise<void> {
    this.memory.delete(name);
    await rm(this.file(name), { force: true });
  }

  private async write(name: string, value: string): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await writeFile(this.file(name), await safeStorage.encryptStringAsync(value), { mode: 0o600 });
  }
}
