// The main-process auth service: sign-in in the system browser (authorization code + PKCE + state,
// loopback redirect), tokens per interface in memory and the secret store, refresh for the transport.

import { randomUUID } from 'node:crypto';
import * as oidc from 'openid-client';
import { z } from 'zod';
import type { ApiName } from '@shared/api/request.ts';
import type { AuthStatus, SignInOutcome, SignInStart, SignInTarget, StoreIdentity } from '@shared/auth.ts';
import { storeIdentitySchema } from '@shared/bridge-schema.ts';
import type { BindIdentityResult, Bridge, SignInStartResult, SignOutResult } from '@shared/bridge.ts';
import { isLoopbackHttp, sharesSignIn, type ConnectionProfile } from '@shared/settings.ts';
import {
  clientAuthentication,
  discoverAuthServer,
  ServerUnreachable,
  SignInRefused,
  type AuthServer,
} from './auth-server.ts';
import { signInFailure, type FlowResult, type SignInContext } from './sign-in-failure.ts';
import { RENEWAL_UNREACHABLE, type TokenAnswer, type TokenSource } from '../transport/token-source.ts';
import { listenForRedirect, type RedirectListener, type ResultPage } from './loopback.ts';
import type { OpenExternal, SecretStore } from './ports.ts';

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

const APIS: readonly ApiName[] = ['v2', 'v0'];
const DEFAULT_SIGN_IN_TIMEOUT_MS = 5 * 60_000;
/** Refresh this long before expiry (at most half the token's lifetime, for short-lived tokens). */
const REFRESH_MARGIN_MS = 60_000;
/** A finished flow nobody asked about is forgotten after this long. */
const KEEP_OUTCOME_MS = 60_000;
/** How long a sign-out gives the server to revoke the tokens (RFC 7009) before it stops waiting. */
const REVOKE_TIMEOUT_MS = 1500;

const SAVE_FAILED_NOTE =
  "Advisor Desk could not save your sign-in in the system's secret store: you will sign in again after a restart.";
const DEFAULT_NOT_PERSISTENT_NOTE =
  'Your sign-in is kept in memory only: you will sign in again after a restart.';
const REMOVE_FAILED_NOTE =
  "You are signed out, but Advisor Desk could not remove your saved sign-in from the system's secret store, so it may come back after a restart. Sign in and sign out again to remove it.";
const NOT_SIGNED_IN_NOTE = 'Sign in first: the data on this computer is bound to a signed-in user.';
const START_FAILED_NOTE =
  'Advisor Desk could not start the sign-in. Try again; if it keeps failing, restart Advisor Desk.';

/** A token set as kept in memory and in the secret store (one entry per interface). */
const grantSchema = z.object({
  accessToken: z.string().min(1),
  refreshToken: z.string().min(1).nullable(),
  /** Epoch ms; null when the server gave no lifetime (then only a 401 triggers a refresh). */
  expiresAt: z.number().nullable(),
  obtainedAt: z.number(),
  /** Which server and client issued it: a token is never used with another. */
  authUrl: z.string(),
  clientId: z.string(),
  /**
   * The origin of the base address of each interface it was issued for: the token is sent only
   * there. A profile that moves an interface to another origin needs a new sign-in. (Token sets
   * saved before this was recorded fail the schema and are treated as signed out.)
   */
  baseOrigins: z.object({ v2: z.string().optional(), v0: z.string().optional() }),
});
type Grant = z.infer<typeof grantSchema>;
/** Who issued a token set and where it may be sent. */
type Binding = Pick<Grant, 'authUrl' | 'clientId' | 'baseOrigins'>;

type RenewResult = { kind: 'renewed'; grant: Grant } | { kind: 'rejected' } | { kind: 'unreachable' };

interface Flow {
  id: string;
  /** The interfaces this sign-in covers: both when they share the auth server. */
  apis: ApiName[];
  /** What the token set it brings will be bound to (the profile when the sign-in started). */
  binding: Binding;
  config: oidc.Configuration;
  /** What failures name: the server's address and issuer, the scope asked for. */
  context: SignInContext;
  verifier: string;
  state: string;
  listener: RedirectListener;
  timer: ReturnType<typeof setTimeout> | undefined;
  settled: boolean;
  outcome: Promise<SignInOutcome>;
  resolve: (outcome: SignInOutcome) => void;
}

type AuthCommands = Bridge['auth'];

/** The renderer-facing half (Bridge.auth) and the transport-facing half (TokenSource). */
export class AuthService implements TokenSource, AuthCommands {
  private readonly profile: () => ConnectionProfile;
  private readonly clientSecret: () => Promise<string | null>;
  private readonly secrets: SecretStore;
  private readonly openExternal: OpenExternal;
  private readonly fetchImpl: typeof fetch | undefined;
  private readonly now: () => number;
  private readonly signInTimeoutMs: number;
  private readonly signedOut: () => void;

  private readonly grants: Record<ApiName, Grant | null> = { v2: null, v0: null };
  private readonly needsSignIn: Record<ApiName, boolean> = { v2: false, v0: false };
  /**
   * Whose local store the renderer opens (shared/auth.ts), bound after a sign-in and kept with the
   * tokens: a new sign-in starts without one, and it is forgotten whenever tokens are.
   */
  private identity: StoreIdentity | null = null;
  private loading: Promise<void> | null = null;
  /** Refreshes in progress, by the access token they replace: concurrent callers share one. */
  private readonly renewals = new Map<string, Promise<RenewResult>>();
  private readonly flows = new Map<string, Flow>();
  /** The metadata of each sign-in server, by its address in the profile. */
  private readonly servers = new Map<string, AuthServer>();
  /** Secret store writes, in order, so a late save never lands after a sign-out's delete. */
  private writes: Promise<unknown> = Promise.resolve();
  private saveFailed = false;

  constructor(options: AuthServiceOptions) {
    this.profile = options.profile;
    this.clientSecret = options.clientSecret;
    this.secrets = options.secrets;
    this.openExternal = options.openExternal;
    this.fetchImpl = options.fetch;
    this.now = options.now ?? Date.now;
    this.signInTimeoutMs = options.signInTimeoutMs ?? DEFAULT_SIGN_IN_TIMEOUT_MS;
    this.signedOut = options.signedOut ?? (() => undefined);
  }

  // ---- status and sign-out ----

  async status(): Promise<AuthStatus> {
    await this.ready();
    const store = this.secrets.state();
    const persistent = store.persistent && !this.saveFailed;
    const signedIn = this.usable('v2') !== null && this.usable('v0') !== null;
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
      identity: signedIn ? this.identity : null,
    };
  }

  /** Binds the identity whose store the renderer opens to this sign-in; refused while signed out. */
  async bindIdentity(identity: StoreIdentity): Promise<BindIdentityResult> {
    await this.ready();
    if (this.usable('v2') === null || this.usable('v0') === null)
      return { ok: false, message: NOT_SIGNED_IN_NOTE, status: await this.status() };
    this.identity = { user: identity.user, team: identity.team };
    await this.saveIdentityQuietly();
    return { ok: true, status: await this.status() };
  }

  /**
   * Forgets every token of both interfaces, in memory and in the secret store, and cancels the
   * sign-ins still waiting in the browser: one completed later would sign the user back in. The
   * requests in flight end at once (`signedOut`); revoking the tokens waits REVOKE_TIMEOUT_MS at
   * most, so a hanging server never holds the user.
   */
  async signOut(): Promise<SignOutResult> {
    await this.ready();
    // end() marks each flow settled at once, so a code exchanged meanwhile is dropped.
    const cancelled = [...this.flows.values()].map((flow) =>
      this.end(flow, {
        ok: false,
        reason: 'cancelled',
        message: 'You signed out while this sign-in was waiting. Sign in again when you are ready.',
      }),
    );
    const held = [...new Set(APIS.map((api) => this.grants[api]).filter((g): g is Grant => g !== null))];
    for (const api of APIS) {
      this.grants[api] = null;
      this.needsSignIn[api] = true;
    }
    this.identity = null;
    this.signedOut();
    // The tokens are forgotten first; revoking them at the server is a courtesy with a deadline.
    const revoked = Promise.allSettled(held.map((grant) => this.revoke(grant)));
    const removed = await Promise.allSettled([
      ...APIS.map((api) => this.save(api, null)),
      this.write(IDENTITY_SECRET, null),
    ]);
    await Promise.allSettled([...cancelled, revoked]);
    const status = await this.status();
    if (removed.some((r) => r.status === 'rejected'))
      return { ok: false, message: REMOVE_FAILED_NOTE, status };
    return { ok: true, status };
  }

  /**
   * After the connection profile was saved: tokens issued by a server or client the profile no
   * longer names, or bound to a base origin it no longer names, are forgotten (they must never be
   * sent elsewhere), sign-ins still waiting for such a profile are cancelled, and when both
   * interfaces now share one server, a token set one of them holds covers the other if it is
   * already sent to that interface's origin.
   */
  async profileChanged(): Promise<void> {
    await this.ready();
    const profile = this.profile();
    for (const flow of this.flows.values()) {
      const moved = flow.apis.some((api) => !boundHere(flow.binding, profile, api));
      if (moved && !flow.settled) {
        await this.end(flow, {
          ok: false,
          reason: 'cancelled',
          message: 'The connection settings changed during the sign-in. Start it again.',
        });
      }
    }
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

  /**
   * Both interfaces now share one server: the token set one holds covers the other too, but only
   * when that interface's base is on an origin the token is already sent to. A new origin would
   * receive a token the user never signed in to send there. Returns the interfaces changed.
   */
  private widen(profile: ConnectionProfile): ApiName[] {
    const held = this.grants.v2 ?? this.grants.v0;
    if (!held) return [];
    const known = Object.values(held.baseOrigins);
    const added: Partial<Record<ApiName, string>> = {};
    for (const api of APIS) {
      const origin = baseOriginOf(profile, api);
      if (!this.grants[api] && origin !== null && known.includes(origin)) added[api] = origin;
    }
    if (Object.keys(added).length === 0) return [];
    const widened: Grant = { ...held, baseOrigins: { ...held.baseOrigins, ...added } };
    const holders = APIS.filter((api) => this.grants[api] === held || added[api] !== undefined);
    for (const api of holders) {
      this.grants[api] = widened;
      this.needsSignIn[api] = false;
    }
    return holders;
  }

  /**
   * RFC 7009: asks the server that issued a token set to revoke it (the refresh token, then the
   * access token), when it offers revocation. Best effort, never longer than REVOKE_TIMEOUT_MS,
   * never throws: the tokens are already forgotten here.
   */
  private async revoke(grant: Grant): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, REVOKE_TIMEOUT_MS)));
    const work = (async () => {
      const config = await this.configuration(grant.authUrl, grant.clientId);
      if (!config.serverMetadata().revocation_endpoint) return;
      config.timeout = REVOKE_TIMEOUT_MS / 1000;
      if (grant.refreshToken !== null) {
        await oidc.tokenRevocation(config, grant.refreshToken, { token_type_hint: 'refresh_token' });
      }
      await oidc.tokenRevocation(config, grant.accessToken, { token_type_hint: 'access_token' });
    })();
    try {
      await Promise.race([work, deadline]);
    } catch {
      // Unreachable or refused: the server forgets the tokens when they expire.
    } finally {
      clearTimeout(timer);
      work.catch(() => undefined);
    }
  }

  // ---- sign-in ----

  /** Never rejects: a sign-in that cannot start says why, for the sign-in screen to show. */
  async beginSignIn(target: SignInTarget): Promise<SignInStartResult> {
    try {
      return { ok: true, ...(await this.start(target)) };
    } catch (error) {
      if (error instanceof SignInRefused) return { ok: false, message: error.message };
      if (error instanceof ServerUnreachable)
        return { ok: false, message: unreachableNote(this.profile(), target) };
      return { ok: false, message: START_FAILED_NOTE };
    }
  }

  private async start(target: SignInTarget): Promise<SignInStart> {
    await this.ready();
    const profile = this.profile();
    const apis = coveredApis(target, profile);
    const authUrl = trimSlashes(profile[apis[0] as ApiName].authUrl);
    const binding: Binding = { authUrl, clientId: profile.clientId, baseOrigins: {} };
    for (const api of apis) binding.baseOrigins[api] = requireBaseOrigin(profile, api);
    const config = await this.configuration(authUrl, profile.clientId);
    const scope = profile.scope || '*';
    const { issuer, scopes_supported: listed } = config.serverMetadata();
    const unlisted = listed ? scope.split(/\s+/).filter((s) => !listed.includes(s)) : [];
    const context: SignInContext = { authUrl, issuer, scope, unlisted };

    // A newer sign-in for the same interfaces replaces an older one still waiting.
    for (const flow of this.flows.values()) {
      if (!flow.settled && flow.apis.some((api) => apis.includes(api))) {
        await this.end(flow, {
          ok: false,
          reason: 'cancelled',
          message: 'A newer sign-in replaced this one.',
        });
      }
    }

    const state = oidc.randomState();
    const verifier = oidc.randomPKCECodeVerifier();
    const listener = await listenForRedirect(state);
    let url: URL;
    try {
      url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: listener.redirectUri,
        scope,
        state,
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        // OpenID Connect Core §11: a refresh token for offline_access is issued only after consent.
        ...(scope.split(/\s+/).includes('offline_access') ? { prompt: 'consent' } : {}),
      });
    } catch (error) {
      await listener.close();
      throw error;
    }

    let resolve: (outcome: SignInOutcome) => void = () => undefined;
    const outcome = new Promise<SignInOutcome>((r) => (resolve = r));
    const flow: Flow = {
      id: randomUUID(),
      apis,
      binding,
      config,
      context,
      verifier,
      state,
      listener,
      timer: undefined,
      settled: false,
      outcome,
      resolve,
    };
    this.flows.set(flow.id, flow);
    flow.timer = setTimeout(() => void this.end(flow, this.timeoutResult()), this.signInTimeoutMs);
    flow.timer.unref?.();
    void listener.callback
      .then((callbackUrl) => this.complete(flow, callbackUrl))
      .catch(() => this.end(flow, signInFailure(null, context)))
      .catch(() => undefined);

    let openedExternally = false;
    try {
      openedExternally = await this.openExternal(url.href);
    } catch {
      // The caller opens the page itself; nothing is lost.
    }
    return { flowId: flow.id, url: url.href, openedExternally };
  }

  /** Resolves when the browser comes back, or the flow is cancelled, times out or fails. */
  async finishSignIn(flowId: string): Promise<SignInOutcome> {
    const flow = this.flows.get(flowId);
    if (!flow) {
      return {
        ok: false,
        reason: 'failed',
        message: 'Advisor Desk is not waiting for this sign-in any more. Start the sign-in again.',
        status: await this.status(),
      };
    }
    const outcome = await flow.outcome;
    this.flows.delete(flowId);
    return outcome;
  }

  async cancelSignIn(flowId: string): Promise<void> {
    const flow = this.flows.get(flowId);
    if (flow) await this.end(flow, { ok: false, reason: 'cancelled', message: 'You cancelled the sign-in.' });
  }

  /** The browser came back with the right state: exchange the code, keep the tokens, tell the tab. */
  private async complete(flow: Flow, callbackUrl: URL): Promise<void> {
    // The user has done their part; from here the token request's own timeout applies.
    clearTimeout(flow.timer);
    if (flow.settled) return;
    let grant: Grant | null = null;
    let failure: FlowResult | null = null;
    try {
      const tokens = await oidc.authorizationCodeGrant(flow.config, callbackUrl, {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
      });
      grant = this.grantFrom(tokens, flow.binding, null);
    } catch (error) {
      failure = signInFailure(error, flow.context);
    }
    // Cancelled while the code was exchanged: end() has answered; the new tokens are dropped.
    if (flow.settled) return;
    if (grant) {
      await this.adopt(flow.apis, grant);
      await this.end(flow, { ok: true });
    } else if (failure) {
      await this.end(flow, failure);
    }
  }

  /** Settles a flow once: answers the browser, closes the listener, resolves finishSignIn. */
  private async end(flow: Flow, result: FlowResult): Promise<void> {
    if (flow.settled) return;
    flow.settled = true;
    clearTimeout(flow.timer);
    await flow.listener.finish(pageFor(result));
    const status = await this.status();
    flow.resolve(result.ok ? { ok: true, status } : { ...result, status });
    setTimeout(() => {
      if (this.flows.get(flow.id) === flow) this.flows.delete(flow.id);
    }, KEEP_OUTCOME_MS).unref?.();
  }

  private timeoutResult(): FlowResult {
    return {
      ok: false,
      reason: 'timeout',
      message: `The sign-in was not completed within ${duration(this.signInTimeoutMs)}. Start it again when you are ready.`,
    };
  }

  // ---- tokens for the transport ----

  async accessToken(api: ApiName, destination?: string): Promise<TokenAnswer> {
    await this.ready();
    const grant = this.usable(api, destination);
    if (!grant) return null;
    if (!this.expiresSoon(grant)) return grant.accessToken;
    // Without a refresh token the set lives until it expires; then only a sign-in helps.
    if (grant.refreshToken === null && !this.expired(grant)) return grant.accessToken;
    const result = await this.renew(grant);
    // Could not reach the server, but the token still works for a while: use it.
    return this.afterRenewal(api, destination, result, this.expired(grant) ? null : grant.accessToken);
  }

  async refreshAfterUnauthorized(api: ApiName, rejected: string, destination?: string): Promise<TokenAnswer> {
    await this.ready();
    const grant = this.usable(api, destination);
    if (!grant) return null;
    // Someone refreshed (or signed in) since this token was handed out: the new one may work.
    if (grant.accessToken !== rejected) return this.accessToken(api, destination);
    // The platform has refused this token already: it is no fallback while the server is away.
    return this.afterRenewal(api, destination, await this.renew(grant), null);
  }

  /**
   * What a caller gets once a refresh is over. Only a refusal means "sign in again"; a server
   * that cannot be reached keeps the sign-in: the old token while it still works (`fallback`),
   * else "unreachable", and the caller tries again later.
   */
  private afterRenewal(
    api: ApiName,
    destination: string | undefined,
    result: RenewResult,
    fallback: string | null,
  ): TokenAnswer {
    // The profile may have moved (or the user signed out) while the refresh ran.
    if (result.kind === 'rejected' || !this.usable(api, destination)) return null;
    if (result.kind === 'renewed') return result.grant.accessToken;
    return fallback ?? RENEWAL_UNREACHABLE;
  }

  /** One refresh per token set at a time; every caller holding that set shares its result. */
  private renew(grant: Grant): Promise<RenewResult> {
    const key = grant.accessToken;
    let running = this.renewals.get(key);
    if (!running) {
      running = this.runRefresh(grant).finally(() => this.renewals.delete(key));
      this.renewals.set(key, running);
    }
    return running;
  }

  private async runRefresh(grant: Grant): Promise<RenewResult> {
    if (grant.refreshToken === null) {
      await this.forget(grant);
      return { kind: 'rejected' };
    }
    let tokens: Awaited<ReturnType<typeof oidc.refreshTokenGrant>>;
    try {
      const config = await this.configuration(grant.authUrl, grant.clientId);
      tokens = await oidc.refreshTokenGrant(config, grant.refreshToken);
    } catch (error) {
      if (isRefusal(error)) {
        await this.forget(grant);
        return { kind: 'rejected' };
      }
      // No answer (network down, timeout, 5xx, 429, an answer we cannot read): keep the refresh
      // token. The server may never have seen the request, and the token will likely work once it
      // is reachable again; forgetting it would force a sign-in after every network blip. The
      // caller hears "unreachable" (a network failure, retried later) and keeps its queued work;
      // status() still says signed in.
      return { kind: 'unreachable' };
    }
    const next = this.grantFrom(tokens, grant, grant.refreshToken);
    await this.replace(grant, next);
    return { kind: 'renewed', grant: next };
  }

  private expired(grant: Grant): boolean {
    return grant.expiresAt !== null && grant.expiresAt <= this.now();
  }

  private expiresSoon(grant: Grant): boolean {
    if (grant.expiresAt === null) return false;
    const margin = Math.min(REFRESH_MARGIN_MS, (grant.expiresAt - grant.obtainedAt) / 2);
    return grant.expiresAt - this.now() <= margin;
  }

  private grantFrom(
    tokens: oidc.TokenEndpointResponse,
    binding: Binding,
    previousRefreshToken: string | null,
  ): Grant {
    const now = this.now();
    return {
      accessToken: tokens.access_token,
      // A server that does not rotate refresh tokens leaves them out of the refresh answer.
      refreshToken: tokens.refresh_token ?? previousRefreshToken,
      expiresAt: typeof tokens.expires_in === 'number' ? now + tokens.expires_in * 1000 : null,
      obtainedAt: now,
      authUrl: binding.authUrl,
      clientId: binding.clientId,
      baseOrigins: { ...binding.baseOrigins },
    };
  }

  // ---- memory and the secret store ----

  /**
   * The grant of an interface, if it was issued by the server and client the profile names now
   * for the base origin the profile names now, and (when given) that is where it is going.
   */
  private usable(api: ApiName, destination?: string): Grant | null {
    const grant = this.grants[api];
    if (!grant || !boundHere(grant, this.profile(), api)) return null;
    if (destination !== undefined && destination !== grant.baseOrigins[api]) return null;
    return grant;
  }

  /** Loads persisted tokens once, on first use. */
  private ready(): Promise<void> {
    return (this.loading ??= this.load());
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

  /** A successful sign-in: the same token set for every interface it covers. */
  private async adopt(apis: ApiName[], grant: Grant): Promise<void> {
    for (const api of apis) {
      this.grants[api] = grant;
      this.needsSignIn[api] = false;
    }
    // Whoever signed in, the renderer learns who it is from the platform before it opens a store.
    await this.forgetIdentity();
    await this.saveQuietly(apis);
  }

  /** A refresh succeeded: every interface still holding the old set gets the new one. */
  private async replace(old: Grant, next: Grant): Promise<void> {
    const holders = APIS.filter((api) => this.grants[api]?.accessToken === old.accessToken);
    for (const api of holders) this.grants[api] = next;
    await this.saveQuietly(holders);
  }

  /** The server refused the refresh: that token set is gone; the user must sign in again. */
  private async forget(old: Grant): Promise<void> {
    const holders = APIS.filter((api) => this.grants[api]?.accessToken === old.accessToken);
    for (const api of holders) {
      this.grants[api] = null;
      this.needsSignIn[api] = true;
    }
    if (holders.length > 0) await this.forgetIdentity();
    await this.saveQuietly(holders);
  }

  /** Saves the current grants of these interfaces; a failure keeps them in memory and says so. */
  private async saveQuietly(apis: ApiName[]): Promise<void> {
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

  // ---- openid-client configuration ----

  /**
   * The auth server as its metadata describes it (read once per address and kept, so a refresh
   * or a sign-out needs no extra request), with the client authentication it advertises.
   */
  private async configuration(authUrl: string, clientId: string): Promise<oidc.Configuration> {
    const insecure = checkAuthServer(authUrl);
    let server = this.servers.get(authUrl);
    if (!server) {
      server = await discoverAuthServer(authUrl, this.fetchImpl ?? fetch);
      this.servers.set(authUrl, server);
    }
    const secret = await this.clientSecret();
    const config = new oidc.Configuration(
      server.metadata,
      clientId,
      secret ?? undefined,
      clientAuthentication(server, secret),
    );
    if (insecure) oidc.allowInsecureRequests(config);
    const fetchImpl = this.fetchImpl;
    if (fetchImpl) config[oidc.customFetch] = (url, options) => fetchImpl(url, options);
    return config;
  }
}

const secretName = (api: ApiName) => `auth-tokens-${api}`;
/** The identity bound to the sign-in, beside its tokens. */
const IDENTITY_SECRET = 'auth-identity';

function unreachableNote(profile: ConnectionProfile, target: SignInTarget): string {
  const api: ApiName = target === 'v0' ? 'v0' : 'v2';
  return `Advisor Desk could not reach the sign-in server at ${trimSlashes(profile[api].authUrl)} to read its settings. Check the connection and try again.`;
}
const trimSlashes = (url: string) => url.trim().replace(/\/+$/, '');

/** The origin of an interface's base address in the profile; null when it is no valid address. */
function baseOriginOf(profile: ConnectionProfile, api: ApiName): string | null {
  try {
    return new URL(profile[api].baseUrl).origin;
  } catch {
    return null;
  }
}

function requireBaseOrigin(profile: ConnectionProfile, api: ApiName): string {
  const origin = baseOriginOf(profile, api);
  if (origin === null || origin === 'null') {
    throw new SignInRefused(
      `The address of interface ${api} “${profile[api].baseUrl}” is not a valid address. Correct it in the connection settings.`,
    );
  }
  return origin;
}

/** True when the profile still names the server, client and base origin a token set is bound to. */
function boundHere(binding: Binding, profile: ConnectionProfile, api: ApiName): boolean {
  const origin = binding.baseOrigins[api];
  return (
    binding.authUrl === trimSlashes(profile[api].authUrl) &&
    binding.clientId === profile.clientId &&
    origin !== undefined &&
    origin === baseOriginOf(profile, api)
  );
}

/** The interfaces a sign-in covers: both when they share the auth server, whatever the target. */
function coveredApis(target: SignInTarget, profile: ConnectionProfile): ApiName[] {
  if (sharesSignIn(profile)) return [...APIS];
  if (target === 'both') {
    throw new SignInRefused(
      'The two interfaces use different sign-in servers: sign in to each one separately (version 2, then version 0.0.1).',
    );
  }
  return [target];
}

/**
 * Checks the auth server's address; true when it is plain http on this computer, the only place
 * plain http is allowed (a sandbox). Anywhere else, tokens and passwords would cross the network
 * in the clear.
 */
function checkAuthServer(authUrl: string): boolean {
  let url: URL;
  try {
    url = new URL(authUrl);
  } catch {
    throw new SignInRefused(
      `The sign-in server address “${authUrl}” is not a valid address. Correct it in the connection settings.`,
    );
  }
  if (url.protocol === 'https:') return false;
  if (isLoopbackHttp(url)) return true;
  if (url.protocol === 'http:') {
    throw new SignInRefused(
      `Advisor Desk signs in only over https://. The sign-in server ${url.host} uses plain http://, which is allowed only on this computer (127.0.0.1 or localhost). Change the address to https:// in the connection settings.`,
    );
  }
  throw new SignInRefused(
    `The sign-in server address must start with https://. Correct it in the connection settings.`,
  );
}

/**
 * True when the token endpoint answered a refresh with an OAuth error (invalid_grant, a revoked
 * or rotated token, invalid_client …): the token set will never work again. A 429 or 5xx is not
 * a refusal, only a server that cannot answer now.
 */
function isRefusal(error: unknown): boolean {
  return (
    error instanceof oidc.ResponseBodyError &&
    error.status >= 400 &&
    error.status < 500 &&
    error.status !== 429
  );
}

function pageFor(result: FlowResult): ResultPage {
  if (result.ok) {
    return {
      status: 200,
      title: 'Signed in',
      message: 'You are signed in. You can close this tab and return to Advisor Desk.',
    };
  }
  switch (result.reason) {
    case 'denied':
    case 'cancelled':
      return {
        status: 200,
        title: 'Sign-in cancelled',
        message: 'The sign-in was cancelled. You can close this tab and return to Advisor Desk.',
      };
    case 'timeout':
      return {
        status: 408,
        title: 'Sign-in expired',
        message: 'Advisor Desk stopped waiting for this sign-in. Return to Advisor Desk and start it again.',
      };
    case 'failed':
      return {
        status: 400,
        title: 'Sign-in failed',
        message: `${result.message} You can close this tab and return to Advisor Desk.`,
      };
  }
}

function duration(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) {
    const minutes = ms / 60_000;
    return minutes === 1 ? '1 minute' : `${minutes} minutes`;
  }
  const seconds = Math.max(1, Math.round(ms / 1000));
  return seconds === 1 ? '1 second' : `${seconds} seconds`;
}
