// A Node stand-in for the secret store, memory only: for tests and the browser preview host, where
// there is no safeStorage. Nothing is written to disk, so `persistent` is false and says why.

import type { SecretStore, SecretStoreState } from './ports.ts';

export const MEMORY_ONLY_NOTE =
  'This preview keeps your sign-in in memory only: you will sign in again after it restarts.';

export class MemorySecretStore implements SecretStore {
  private readonly values = new Map<string, string>();

  constructor(private readonly note: string = MEMORY_ONLY_NOTE) {}

  state(): SecretStoreState {
    return { persistent: false, note: this.note };
  }

  get(name: string): Promise<string | null> {
    return Promise.resolve(this.values.get(name) ?? null);
  }

  set(name: string, value: string): Promise<void> {
    this.values.set(name, value);
    return Promise.resolve();
  }

  delete(name: string): Promise<void> {
    this.values.delete(name);
    return Promise.resolve();
  }

  /** The names held, for tests; the values stay inside. */
  names(): string[] {
    return [...this.values.keys()];
  }
}
