// The real main-side transport signed in to the sandbox platform as one of its seeded users: how
// the integration tests and the chaos runner drive the sync engine over real HTTP.

import type { TokenSource } from '../../electron/main/transport/token-source.ts';
import { Transport } from '../../electron/main/transport/transport.ts';
import type { ApiName, ApiRequest, ApiResult } from '@shared/api/request.ts';
import { sandboxProfile } from '@shared/settings.ts';
import type { Platform } from '../platform/server.ts';
import { during, holder, type FixtureScope } from './sandbox.ts';

/** Every permission. */
export const ADVISOR = 'advisor@sandbox.test';
/** Same team as the advisor; may not convert or delete accounts. */
export const ASSISTANT = 'assistant@sandbox.test';

/** Tokens from the sandbox; a refresh asks the sandbox for a new one (or fails, to force a sign-in). */
export class SandboxTokens implements TokenSource {
  refreshes = 0;
  /** While set, a refresh fails: the user has to sign in again. */
  refuse = false;
  private token: string;

  constructor(
    private readonly platform: Platform,
    private readonly email: string,
  ) {
    this.token = platform.control.token(email).access_token;
  }

  accessToken(_api: ApiName): Promise<string | null> {
    return Promise.resolve(this.token);
  }

  refreshAfterUnauthorized(_api: ApiName, rejected: string): Promise<string | null> {
    if (this.refuse) return Promise.resolve(null);
    // Another request renewed it meanwhile.
    if (rejected !== this.token) return Promise.resolve(this.token);
    this.refreshes++;
    this.token = this.platform.control.token(this.email).access_token;
    return Promise.resolve(this.token);
  }

  /** The user signs in again after "sign in needed". */
  signIn(): void {
    this.refuse = false;
    this.token = this.platform.control.token(this.email).access_token;
  }
}

export interface SandboxClient {
  tokens: SandboxTokens;
  transport: Transport;
  /** Every request `send` was asked to send, in order. */
  requests: ApiRequest[];
  send: (req: ApiRequest) => Promise<ApiResult>;
}

/** The real transport for one user of the sandbox, and every request it was asked to send. */
export function sandboxClient(platform: Platform, email: string): SandboxClient {
  const tokens = new SandboxTokens(platform, email);
  // The platform's limit is off in tests; a budget this high also keeps the transport from
  // spacing requests (and the retries after a 429 or 503) as it must against the real platform.
  const profile = () => ({ ...sandboxProfile(platform.url), rateLimitPerMinute: 1_000_000 });
  const transport = new Transport({ profile, tokens });
  const requests: ApiRequest[] = [];
  const send = (req: ApiRequest) => {
    requests.push(req);
    return transport.request(req);
  };
  return { tokens, transport, requests, send };
}

/**
 * Registers the real transport of the seeded user `email` over `platform` (sandbox-client.ts)
 * for the enclosing scope, or a fresh one for each test (`perTest`), disposed after it. Register
 * it after the platform; the handle answers for the client of the moment.
 */
export function sandboxUser(platform: Platform, email: string, scope: FixtureScope = {}): SandboxClient {
  const client = holder<SandboxClient>(`The client of ${email}`);
  during(
    scope,
    () => client.set(sandboxClient(platform, email)),
    () => {
      client.peek()?.transport.dispose();
      client.set(undefined);
    },
  );
  return {
    get tokens() {
      return client.get().tokens;
    },
    get transport() {
      return client.get().transport;
    },
    get requests() {
      return client.get().requests;
    },
    send: (req) => client.get().send(req),
  };
}
