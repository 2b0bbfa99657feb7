// The token sets the auth service holds, one per interface (the same set for both when they share
// a sign-in), and the identity bound to them: in memory, and in the secret store, written in order.

import type { ApiName } from '@shared/api/request.ts';
import type { AuthStatus, StoreIdentity } from '@shared/auth.ts';
import { storeIdentitySchema } from '@shared/bridge-schema.ts';
import { sharesSignIn, type ConnectionProfile } from '@shared/settings.ts';
import { APIS, grantSchema, type Grant } from './grant.ts';
import type { SecretStore } from './ports.ts';
import { boundHere, widenedGrant } from './profile-binding.ts';

const SAVE_FAILED_NOTE =
  "Advisor Desk could not save your sign-in in the system's secret store: you will sign in again after a restart.";
const DEFAULT_NOT_PERSISTENT_NOTE =
  'Your sign-in is kept in memory only: you will sign in again after a restart.';

const secretName = (api: ApiName) => `auth-tokens-${api}`;
/** The identity bound to the sign-in, beside its tokens. */
const IDENTITY_SECRET = 'auth-identity';

export class GrantStore {
  private readonly grants: Record<ApiName, Grant | null> = { v2: null, v0: null };
  private readonly needsSignIn: Record<ApiName, boolean> = { v2: false, v0: false };
  /**
   * Whose local store the renderer opens (shared/auth.ts), bound after a sign-in and kept with the
   * tokens: a new sign-in starts without one, and it is forgotten whenever tokens are.
   */
  private identity: StoreIdentity | null = null;
  private loading: Promise<void> | null = null;
  /** Secret store writes, in order, so a late save never lands after a sign-out's delete. */
  private writes: Promise<unknown> = Promise.resolve();
  private saveFailed = false;

  constructor(
    private readonly secrets: SecretStore,
    private readonly profile: () => ConnectionProfile,
  ) {}

  /** Loads persisted tokens once, on first use. */
  ready(): Promise<void> {
    return (this.loading ??= this.load());
  }

  /** What the sign-in screen shows; call after ready(). */
  status(): AuthStatus {
    const store = this.secrets.state();
    const persistent = store.persistent && !this.saveFailed;
    return {
      v2: { signedIn: this.usable('v2') !== null, needsSignIn: this.needsSignIn.v2 },
      v0: { signedIn: this.usable('v0') !== null, needsSignIn: this.needsSignIn.v0 },
      shared: sharesSignIn(this.profile()),
      persistent,
      persistenceNote: persistent
        ? null
        : !store.persistent
          ? (store.note ?? DEFAULT_NOT_PERSISTENT_NOTE)
          : SAVE_FAILED_NOTE,
      identity: this.signedIn() ? this.identity : null,
    };
  }

  /** True when both interfaces hold a token set the profile still allows. */
  signedIn(): boolean {
    return this.usable('v2') !== null && this.usable('v0') !== null;
  }

  /**
   * The grant of an interface, if it was issued by the server and client the profile names now
   * for the base origin the profile names now, and (when given) that is where it is going.
   */
  usable(api: ApiName, destination?: string): Grant | null {
    const grant = this.grants[api];
    if (!grant || !boundHere(grant, this.profile(), api)) return null;
    if (destination !== undefined && destination !== grant.baseOrigins[api]) return null;
    return grant;
  }

  /** Binds the identity whose store the renderer opens to this sign-in; false while signed out. */
  async bindIdentity(identity: StoreIdentity): Promise<boolean> {
    if (!this.signedIn()) return false;
    this.identity = { user: identity.user, team: identity.team };
    await this.saveIdentityQuietly();
    return true;
  }

  /** A successful sign-in: the same token set for every interface it covers. */
  async adopt(apis: readonly ApiName[], grant: Grant): Promise<void> {
    for (const api of apis) {
      this.grants[api] = grant;
      this.needsSignIn[api] = false;
    }
    // Whoever signed in, the renderer learns who it is from the platform before it opens a store.
    await this.forgetIdentity();
    await this.saveQuietly(apis);
  }

  /** A refresh succeeded: every interface still holding the old set gets the new one. */
  async replace(old: Grant, next: Grant): Promise<void> {
    const holders = this.holdersOf(old);
    for (const api of holders) this.grants[api] = next;
    await this.saveQuietly(holders);
  }

  /** The server refused the refresh: that token set is gone; the user must sign in again. */
  async forget(old: Grant): Promise<void> {
    const holders = this.holdersOf(old);
    for (const api of holders) {
      this.grants[api] = null;
      this.needsSignIn[api] = true;
    }
    if (holders.length > 0) await this.forgetIdentity();
    await this.saveQuietly(holders);
  }

  /**
   * Sign-out, in memory and at once: every token set and the identity are forgotten. Returns the
   * sets that were held, for the server to revoke; erase() then removes them from the secret store.
   */
  clear(): Grant[] {
    const held = [...new Set(APIS.map((api) => this.grants[api]).filter((g): g is Grant => g !== null))];
    for (const api of APIS) {
      this.grants[api] = null;
      this.needsSignIn[api] = true;
    }
    this.identity = null;
    return held;
  }

  /** Removes every token set and the identity from the secret store; false when one removal failed. */
  async erase(): Promise<boolean> {
    const removed = await Promise.allSettled([
      ...APIS.map((api) => this.save(api, null)),
      this.write(IDENTITY_SECRET, null),
    ]);
    return removed.every((r) => r.status === 'fulfilled');
  }

  /**
   * The connection profile was saved: a token set it no longer allows is forgotten (it must never
   * be sent elsewhere), and when both interfaces now share one server, a set one of them holds
   * covers the other if it is already sent to that interface's origin (widenedGrant).
   */
  async followProfile(profile: ConnectionProfile): Promise<void> {
    const changed: ApiName[] = [];
    for (const api of APIS) {
      if (this.grants[api] && !this.usable(api)) {
        this.grants[api] = null;
        this.needsSignIn[api] = true;
        changed.push(api);
      }
    }
    if (changed.length > 0) await this.forgetIdentity();
    if (sharesSignIn(profile)) changed.push(...this.widen(profile));
    await this.saveQuietly([...new Set(changed)]);
  }

  /** Gives the widened set to every interface it covers now; returns those interfaces. */
  private widen(profile: ConnectionProfile): ApiName[] {
    const widened = widenedGrant(this.grants, profile);
    if (!widened) return [];
    for (const api of widened.holders) {
      this.grants[api] = widened.grant;
      this.needsSignIn[api] = false;
    }
    return widened.holders;
  }

  private holdersOf(grant: Grant): ApiName[] {
    return APIS.filter((api) => this.grants[api]?.accessToken === grant.accessToken);
  }

  private async load(): Promise<void> {
    for (const api of APIS) {
      try {
        const raw = await this.secrets.get(secretName(api));
        if (raw === null) continue;
        const parsed = grantSchema.safeParse(JSON.parse(raw));
        if (parsed.success) this.grants[api] = parsed.data;
      } catch {
        // Unreadable (the OS key changed, a corrupt entry): treat as signed out.
      }
    }
    try {
      const raw = await this.secrets.get(IDENTITY_SECRET);
      const parsed = raw === null ? null : storeIdentitySchema.safeParse(JSON.parse(raw));
      if (parsed?.success) this.identity = parsed.data;
    } catch {
      // Unreadable: the renderer reads the user from the platform again and binds it anew.
    }
  }

  /** Saves the current grants of these interfaces; a failure keeps them in memory and says so. */
  private async saveQuietly(apis: readonly ApiName[]): Promise<void> {
    const results = await Promise.allSettled(apis.map((api) => this.save(api, this.grants[api])));
    if (results.some((r) => r.status === 'rejected')) this.saveFailed = true;
  }

  private save(api: ApiName, grant: Grant | null): Promise<void> {
    return this.write(secretName(api), grant && JSON.stringify(grant));
  }

  /** Tokens went: the identity bound to them goes with them. */
  private async forgetIdentity(): Promise<void> {
    if (this.identity === null) return;
    this.identity = null;
    await this.saveIdentityQuietly();
  }

  private async saveIdentityQuietly(): Promise<void> {
    try {
      await this.write(IDENTITY_SECRET, this.identity && JSON.stringify(this.identity));
    } catch {
      this.saveFailed = true;
    }
  }

  /** One secret store write (null deletes), after every earlier one. */
  private write(name: string, value: string | null): Promise<void> {
    const write = this.writes.then(() =>
      value !== null ? this.secrets.set(name, value) : this.secrets.delete(name),
    );
    this.writes = write.catch(() => undefined);
    return write;
  }
}
