// Sign-out's courtesy to the server (RFC 7009): the tokens are already forgotten here, and the
// server that issued them is asked to revoke them too, with a deadline so a hanging server never
// holds the user.

import * as oidc from 'openid-client';
import type { ClientConfigurations } from './client-configuration.ts';
import type { Grant } from './grant.ts';

/** How long a sign-out gives the server to revoke the tokens before it stops waiting. */
const REVOKE_TIMEOUT_MS = 1500;

/**
 * Asks the server that issued a token set to revoke it (the refresh token, then the access
 * token), when it offers revocation. Best effort, never longer than REVOKE_TIMEOUT_MS, never throws.
 */
export async function revoke(grant: Grant, configs: ClientConfigurations): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, REVOKE_TIMEOUT_MS)));
  const work = (async () => {
    const config = await configs.configuration(grant.authUrl, grant.clientId);
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
