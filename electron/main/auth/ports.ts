// What the auth service needs from its host. Electron implements these with safeStorage and
// shell.openExternal; the browser preview and tests with Node stand-ins.

export interface SecretStoreState {
  /** False where secrets cannot be kept safely on disk (e.g. Linux `basic_text`): memory only. */
  persistent: boolean;
  /** Why, in plain words, when not persistent. */
  note: string | null;
}

/** Encrypted storage for tokens and the client secret; never logs or returns anything in clear to the renderer. */
export interface SecretStore {
  state(): SecretStoreState;
  get(name: string): Promise<string | null>;
  set(name: string, value: string): Promise<void>;
  delete(name: string): Promise<void>;
}

/** Opens a sign-in page in the system browser; returns false where it cannot (the caller opens it). */
export type OpenExternal = (url: string) => Promise<boolean>;
