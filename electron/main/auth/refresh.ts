// Tokens for the transport: an interface's access token, renewed with its refresh token shortly
// before it expires or once after a 401; one refresh per token set, however many callers wait.

import * as oidc from 'openid-client';
import type { ApiName } from '@shared/api/request.ts';
import { RENEWAL_UNREACHABLE, type TokenAnswer, type TokenSource } from '../transport/token-source.ts';
import type { ClientConfigurations } from './client-configuration.ts';
import { grantFrom, type Grant } from './grant.ts';
import type { GrantStore } from './grant-store.ts';

/** Refresh this long before expiry (at most half the token's lifetime, for short-lived tokens). */
const REFRESH_MARGIN_MS = 60_000;

type RenewResult = { kind: 'renewed'; grant: Grant } | { kind: 'rejected' } | { kind: 'unreachable' };

export class TokenRefresher implements TokenSource {
  /** Refreshes in progress, by the access token they replace: concurrent callers share one. */
  private readonly renewals = new Map<string, Promise<RenewResult>>();

  constructor(
    private readonly grants: GrantStore,
    private readonly configs: ClientConfigurations,
    private readonly now: () => number,
  ) {}

  async accessToken(api: ApiName, destination?: string): Promise<TokenAnswer> {
    await this.grants.ready();
    const grant = this.grants.usable(api, destination);
    if (!grant) return null;
    if (!this.expiresSoon(grant)) return grant.accessToken;
    // Without a refresh token the set lives until it expires; then only a sign-in helps.
    if (grant.refreshToken === null && !this.expired(grant)) return grant.accessToken;
    const result = await this.renew(grant);
    // Could not reach the server, but the token still works for a while: use it.
    return this.afterRenewal(api, destination, result, this.expired(grant) ? null : grant.accessToken);
  }

  async refreshAfterUnauthorized(api: ApiName, rejected: string, destination?: string): Promise<TokenAnswer> {
    await this.grants.ready();
    const grant = this.grants.usable(api, destination);
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
    if (result.kind === 'rejected' || !this.grants.usable(api, destination)) return null;
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
      await this.grants.forget(grant);
      return { kind: 'rejected' };
    }
    let tokens: Awaited<ReturnType<typeof oidc.refreshTokenGrant>>;
    try {
      const config = await this.configs.configuration(grant.authUrl, grant.clientId);
      tokens = await oidc.refreshTokenGrant(config, grant.refreshToken);
    } catch (error) {
      if (isRefusal(error)) {
        await this.grants.forget(grant);
        return { kind: 'rejected' };
      }
      // No answer (network down, timeout, 5xx, 429, an answer we cannot read): keep the refresh
      // token. The server may never have seen the request, and the token will likely work once it
      // is reachable again; forgetting it would force a sign-in after every network blip. The
      // caller hears "unreachable" (a network failure, retried later) and keeps its queued work;
      // status() still says signed in.
      return { kind: 'unreachable' };
    }
    const next = grantFrom(tokens, grant, grant.refreshToken, this.now());
    await this.grants.replace(grant, next);
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
