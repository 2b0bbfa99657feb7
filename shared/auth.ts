// Sign-in state as the renderer may see it: which interface is signed in and whether tokens
// survive a restart. Tokens themselves never leave the main process.

import type { ApiName } from './api/request.ts';

export interface InterfaceAuth {
  signedIn: boolean;
  /** Set when a refresh failed or the user signed out: the user must sign in again. */
  needsSignIn: boolean;
}

/**
 * Whose local data the renderer may open (renderer/src/data/identity/): the platform and user as
 * a key (a hash, never the email) and the current team. The main process keeps it with the tokens.
 */
export interface StoreIdentity {
  /** The platform and user, hashed (`userKey`): 32 hex characters. */
  user: string;
  /** The platform's team id. */
  team: number;
}

export interface AuthStatus {
  v2: InterfaceAuth;
  v0: InterfaceAuth;
  /** True when one sign-in covers both interfaces (same auth server). */
  shared: boolean;
  /** False where the OS offers no secret store: tokens are kept in memory only. */
  persistent: boolean;
  /** Why tokens are not kept, in plain words, when `persistent` is false. */
  persistenceNote: string | null;
  /**
   * The identity bound to this sign-in (`auth.bindIdentity`), kept and forgotten with the tokens;
   * null until the renderer has read the user from the platform once after signing in.
   */
  identity: StoreIdentity | null;
}

export type SignInTarget = ApiName | 'both';

export interface SignInStart {
  flowId: string;
  /** The platform's sign-in page (with PKCE challenge and state). */
  url: string;
  /** True when the main process opened it in the system browser; otherwise the caller opens it. */
  openedExternally: boolean;
}

export type SignInOutcome =
  | { ok: true; status: AuthStatus }
  | { ok: false; reason: 'cancelled' | 'denied' | 'timeout' | 'failed'; message: string; status: AuthStatus };
