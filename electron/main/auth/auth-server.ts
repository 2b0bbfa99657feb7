// What the app knows of a sign-in server: its metadata (RFC 8414, then OpenID discovery, else the
// documented platform's /oauth/authorize and /oauth/token), and how the client authenticates there.

import * as oidc from 'openid-client';
import { isLoopbackHttp } from '@shared/settings.ts';

/** Why a sign-in cannot start, written for the user (the sign-in screen shows it as it is). */
export class SignInRefused extends Error {}

/** The server answered neither with metadata nor with "there is none" (5xx, 429, no answer). */
export class ServerUnreachable extends Error {}

/** How long one metadata request may take; the token requests have openid-client's own timeout. */
const METADATA_TIMEOUT_MS = 15_000;

export interface AuthServer {
  metadata: oidc.ServerMetadata;
  /** True when the metadata came from the server; false for the documented platform's paths. */
  discovered: boolean;
}

/** The well-known addresses of a server, RFC 8414 first (§3.1: inserted before the path). */
export function metadataUrls(authUrl: string): string[] {
  const url = new URL(authUrl);
  const path = url.pathname.replace(/\/+$/, '');
  return [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
}

const trimSlashes = (url: string) => url.trim().replace(/\/+$/, '');

/**
 * Reads the server's metadata. A server that has none (every well-known address answers 4xx, or
 * something that is not metadata) is the documented platform: `{authUrl}/oauth/authorize` and
 * `/oauth/token`. Metadata naming another issuer, or endpoints that would carry secrets in the
 * clear, is refused.
 */
export async function discoverAuthServer(authUrl: string, fetchImpl: typeof fetch): Promise<AuthServer> {
  for (const address of metadataUrls(authUrl)) {
    let res: Response;
    try {
      res = await fetchImpl(address, {
        headers: { accept: 'application/json' },
        redirect: 'manual',
        signal: AbortSignal.timeout(METADATA_TIMEOUT_MS),
      });
    } catch {
      throw new ServerUnreachable(`no answer from ${address}`);
    }
    if (res.status >= 500 || res.status === 429) {
      await res.body?.cancel();
      throw new ServerUnreachable(`${address} answered ${res.status}`);
    }
    const metadata = res.ok ? await readMetadata(res) : (await res.body?.cancel(), null);
    if (!metadata) continue;
    // RFC 8414 §3.3 / OpenID Discovery §4.3: the issuer is the address the metadata was asked of.
    if (trimSlashes(metadata.issuer) !== trimSlashes(authUrl)) {
      throw new SignInRefused(
        `The sign-in server at ${authUrl} says it is ${metadata.issuer}. Advisor Desk does not sign in to a server that names another address; check the sign-in server address in the connection settings.`,
      );
    }
    for (const endpoint of [
      metadata.authorization_endpoint,
      metadata.token_endpoint,
      metadata.revocation_endpoint,
    ]) {
      if (endpoint !== undefined) checkEndpoint(endpoint);
    }
    return { metadata, discovered: true };
  }
  const base = trimSlashes(authUrl);
  return {
    metadata: {
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
    },
    discovered: false,
  };
}

async function readMetadata(res: Response): Promise<oidc.ServerMetadata | null> {
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    return null;
  }
  if (typeof body !== 'object' || body === null) return null;
  const m = body as Record<string, unknown>;
  const text = (k: string) => typeof m[k] === 'string' && m[k] !== '';
  if (!text('issuer') || !text('authorization_endpoint') || !text('token_endpoint')) return null;
  if (m.revocation_endpoint !== undefined && !text('revocation_endpoint')) return null;
  return m as unknown as oidc.ServerMetadata;
}

/** An endpoint in the metadata must be https, or plain http on this computer (a sandbox). */
function checkEndpoint(endpoint: string): void {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new SignInRefused(
      `The sign-in server announces an endpoint that is not a valid address (${endpoint}).`,
    );
  }
  if (url.protocol === 'https:' || isLoopbackHttp(url)) return;
  throw new SignInRefused(
    `The sign-in server announces an endpoint at ${url.origin}, which is neither https:// nor on this computer. Advisor Desk does not send sign-in secrets there.`,
  );
}

/**
 * The client authentication to use at the token endpoint: what the server advertises, preferring
 * HTTP Basic (RFC 6749 §2.3.1), then the secret in the body, then none. RFC 8414 §2: a server that
 * lists nothing supports client_secret_basic. The documented platform (no metadata) takes the
 * secret in the body.
 */
export function clientAuthentication(server: AuthServer, secret: string | null): oidc.ClientAuth {
  if (!secret) return oidc.None();
  if (!server.discovered) return oidc.ClientSecretPost(secret);
  const methods = server.metadata.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
  if (methods.includes('client_secret_basic')) return oidc.ClientSecretBasic(secret);
  if (methods.includes('client_secret_post')) return oidc.ClientSecretPost(secret);
  if (methods.includes('none')) return oidc.None();
  throw new SignInRefused(
    `The sign-in server accepts only ${methods.join(', ')} to identify the app, which Advisor Desk does not support. Ask the platform for a client that uses a client secret.`,
  );
}
