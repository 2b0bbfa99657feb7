// The transport's view of authentication: a token to send, and one refresh after a 401.

import type { ApiName } from '../../../shared/api/request.ts';

export interface TokenSource {
  /** A valid access token for the interface (refreshed first when about to expire); null when sign-in is needed. */
  accessToken(api: ApiName): Promise<string | null>;
  /**
   * After a 401 with `rejected`: refresh once (concurrent callers share one refresh) and give the
   * new token; null when the refresh failed and the user must sign in again.
   */
  refreshAfterUnauthorized(api: ApiName, rejected: string): Promise<string | null>;
}
