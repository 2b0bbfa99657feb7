// The main-process auth service, as the renderer (Bridge.auth) and the transport (TokenSource) see
// it. Its parts: the sign-in in the system browser (sign-in-flow.ts), the token sets per interface
// in memory and the secret store (grant-store.ts), their refresh (refresh.ts), and what the
// connection profile still allows (profile-binding.ts). Here: the steps that span them.

import type { ApiName } from '@shared/api/request.ts';
import type { AuthStatus, SignInOutcome, SignInTarget, StoreIdentity } from '@shared/auth.ts';
import type { BindIdentityResult, Bridge, SignInStartResult, SignOutResult } from '@shared/bridge.ts';
import type { ConnectionProfile } from '@shared/settings.ts';
import type { TokenAnswer, TokenSource } from '../transport/token-source.ts';
import { ClientConfigurations } from './client-configuration.ts';
import { GrantStore } from './grant-store.ts';
import type { OpenExternal, SecretStore } from './ports.ts';
import { TokenRefresher } from './refresh.ts';
import { revoke } from './revocation.ts';
import { SignInFlows } from './sign-in-flow.ts';

export interface AuthServiceOptions {
  profile: () => ConnectionProfile;
  clientSecret: () => Promise<string | null>;
  secrets: SecretStore;
  openExternal: OpenExternal;
  /** Used for every request to the auth servers (tests count and break them through it). */
  fetch?: typeof fetch;
  now?: () => number;
  /** How long a sign-in waits for the browser to come back; default 5 minutes. */
  signInTimeoutMs?: number;
  /**
   * Called on sign-out the moment the tokens are forgotten, before anything is awaited: the
   * transport ends the session's requests there (`Transport.endSession`).
   */
  signedOut?: () => void;
}

const DEFAULT_SIGN_IN_TIMEOUT_MS = 5 * 60_000;

const REMOVE_FAILED_NOTE =
  "You are signed out, but Advisor Desk could not remove your saved sign-in from the system's secret store, so it may come back after a restart. Sign in and sign out again to remove it.";
const NOT_SIGNED_IN_NOTE = 'Sign in first: the data on this computer is bound to a signed-in user.';

type AuthCommands = Bridge['auth'];

/** The renderer-facing half (Bridge.auth) and the transport-facing half (TokenSource). */
export class AuthService implements TokenSource, AuthCommands {
  private readonly profile: () => ConnectionProfile;
  private readonly signedOut: () => void;
  private readonly configs: ClientConfigurations;
  private readonly grants: GrantStore;
  private readonly flows: SignInFlows;
  private readonly tokens: TokenRefresher;

  constructor(options: AuthServiceOptions) {
    const now = options.now ?? Date.now;
    this.profile = options.profile;
    this.signedOut = options.signedOut ?? (() => undefined);
    this.configs = new ClientConfigurations(options.clientSecret, options.fetch);
    this.grants = new GrantStore(options.secrets, options.profile);
    this.flows = new SignInFlows({
      profile: options.profile,
      configs: this.configs,
      grants: this.grants,
      openExternal: options.openExternal,
      status: () => this.status(),
      now,
      signInTimeoutMs: options.signInTimeoutMs ?? DEFAULT_SIGN_IN_TIMEOUT_MS,
    });
    this.tokens = new TokenRefresher(this.grants, this.configs, now);
  }

  async status(): Promise<AuthStatus> {
    await this.grants.ready();
    return this.grants.status();
  }

  /** Binds the identity whose store the renderer opens to this sign-in; refused while signed out. */
  async bindIdentity(identity: StoreIdentity): Promise<BindIdentityResult> {
    await this.grants.ready();
    if (!(await this.grants.bindIdentity(identity)))
      return { ok: false, message: NOT_SIGNED_IN_NOTE, status: await this.status() };
    return { ok: true, status: await this.status() };
  }

  /**
   * Forgets every token of both interfaces, in memory and in the secret store, and cancels the
   * sign-ins still waiting in the browser: one completed later would sign the user back in. The
   * requests in flight end at once (`signedOut`); revoking the tokens has a deadline
   * (revocation.ts), so a hanging server never holds the user.
   */
  async signOut(): Promise<SignOutResult> {
    await this.grants.ready();
    const cancelled = this.flows.cancelAll();
    const held = this.grants.clear();
    this.signedOut();
    // The tokens are forgotten first; revoking them at the server is a courtesy with a deadline.
    const revoked = Promise.allSettled(held.map((grant) => revoke(grant, this.configs)));
    const removed = await this.grants.erase();
    await Promise.allSettled([...cancelled, revoked]);
    const status = await this.status();
    if (!removed) return { ok: false, message: REMOVE_FAILED_NOTE, status };
    return { ok: true, status };
  }

  /**
   * After the connection profile was saved: sign-ins still waiting for a profile it no longer
   * names are cancelled, and the token sets follow it (GrantStore.followProfile): forgotten where
   * it moved their server, client or origin, widened where both interfaces now share one server.
   */
  async profileChanged(): Promise<void> {
    await this.grants.ready();
    const profile = this.profile();
    await this.flows.cancelUnbound(profile);
    await this.grants.followProfile(profile);
  }

  /** Never rejects: a sign-in that cannot start says why, for the sign-in screen to show. */
  beginSignIn(target: SignInTarget): Promise<SignInStartResult> {
    return this.flows.begin(target);
  }

  /** Resolves when the browser comes back, or the flow is cancelled, times out or fails. */
  finishSignIn(flowId: string): Promise<SignInOutcome> {
    return this.flows.finish(flowId);
  }

  cancelSignIn(flowId: string): Promise<void> {
    return this.flows.cancel(flowId);
  }

  accessToken(api: ApiName, destination?: string): Promise<TokenAnswer> {
    return this.tokens.accessToken(api, destination);
  }

  refreshAfterUnauthorized(api: ApiName, rejected: string, destination?: string): Promise<TokenAnswer> {
    return this.tokens.refreshAfterUnauthorized(api, rejected, destination);
  }
}
