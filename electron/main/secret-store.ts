// Secrets on disk encrypted with Electron's safeStorage (Keychain, DPAPI, libsecret/kwallet).
// Where the OS offers only `basic_text`, nothing is written: secrets stay in memory and the user
// is told why.

import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { safeStorage } from 'electron';
import type { SecretStore, SecretStoreState } from './auth/ports.ts';

export class SafeStorageSecretStore implements SecretStore {
  private memory = new Map<string, string>();

  constructor(private readonly dir: string) {}

  state(): SecretStoreState {
    if (!safeStorage.isEncryptionAvailable()) {
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
    try {
      const value = safeStorage.decryptString(await readFile(this.file(name)));
      this.memory.set(name, value);
      return value;
    } catch {
      return null; // unreadable (another user, a reset keyring): as if absent
    }
  }

  async set(name: string, value: string): Promise<void> {
    this.memory.set(name, value);
    if (!this.state().persistent) return;
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await writeFile(this.file(name), safeStorage.encryptString(value), { mode: 0o600 });
  }

  async delete(name: string): Promise<void> {
    this.memory.delete(name);
    await rm(this.file(name), { force: true });
  }
}
