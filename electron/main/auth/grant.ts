// A token set as the auth service keeps it, in memory and in the secret store (one entry per
// interface), with who issued it and where it may be sent.

import type * as oidc from 'openid-client';
import { z } from 'zod';
import type { ApiName } from '@shared/api/request.ts';

export const APIS: readonly ApiName[] = ['v2', 'v0'];

export const grantSchema = z.object({
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
export type Grant = z.infer<typeof grantSchema>;
/** Who issued a token set and where it may be sent. */
export type Binding = Pick<Grant, 'authUrl' | 'clientId' | 'baseOrigins'>;

/** The token set a token endpoint answered with, bound as the sign-in or the set it renews was. */
export function grantFrom(
  tokens: oidc.TokenEndpointResponse,
  binding: Binding,
  previousRefreshToken: string | null,
  now: number,
): Grant {
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
