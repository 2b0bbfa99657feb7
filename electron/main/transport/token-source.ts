// The transport's view of authentication: a token to send, and one refresh after a 401.

import type { ApiName } from '@shared/api/request.ts';

/**
 * The token ran out and the auth server could not be reached to renew it. The sign-in is kept:
 * the request is worth trying again later (a network failure), not a reason to sign in again.
 */
export interface RenewalUnreachable {
  readonly unreachable: true;
}

export const RENEWAL_UNREACHABLE: RenewalUnreachable = Object.freeze({ unreachable: true });

/** A token to send; null when the user must sign in; or "unreachable" (retry later). */
export type TokenAnswer = string | null | RenewalUnreachable;

export const isRenewalUnreachable = (answer: unknown): answer is RenewalUnreachable =>
  typeof answer === 'object' && answer !== null && (answer as { unreachable?: unknown }).unreachable === true;

export interface TokenSource {
  /**
   * A valid access token for the interface (refreshed first when about to expire). `destination`
   * is the origin the token is about to be sent to: a token bound to another origin is not given.
   */
  accessToken(api: ApiName, destination?: string): Promise<TokenAnswer>;
  /**
   * After a 401 with `rejected`: refresh once (concurrent callers share one refresh) and give the
   * new token; null when the server refused the refresh and the user must sign in again.
   */
  refreshAfterUnauthorized(api: ApiName, rejected: string, destination?: string): Promise<TokenAnswer>;
}
