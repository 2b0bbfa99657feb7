// The openid-client configuration the auth service talks to a sign-in server with: the server's
// address checked (https, or plain http on this computer only), its metadata read once per address
// and kept, so a refresh or a sign-out needs no extra request, and the client authentication it
// advertises.

import * as oidc from 'openid-client';
import { isLoopbackHttp } from '@shared/settings.ts';
import { clientAuthentication, discoverAuthServer, SignInRefused, type AuthServer } from './auth-server.ts';

export class ClientConfigurations {
  /** The metadata of each sign-in server, by its address in the profile. */
  private readonly servers = new Map<string, AuthServer>();

  constructor(
    private readonly clientSecret: () => Promise<string | null>,
    /** Used for every request to the auth servers (tests count and break them through it). */
    private readonly fetchImpl: typeof fetch | undefined,
  ) {}

  /** The server at `authUrl` for the client `clientId`; rejects with SignInRefused or ServerUnreachable. */
  async configuration(authUrl: string, clientId: string): Promise<oidc.Configuration> {
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
