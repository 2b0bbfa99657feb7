// The auth service against a standard OpenID server (panva's oidc-provider, in-process) with its own
// endpoint paths, PKCE required, refresh token rotation and RFC 7009 revocation: sign-in, refresh,
// sign-out with revocation, and the refusals (RFC 9207 iss, access_denied, invalid_scope).

import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthService, type AuthServiceOptions } from '../../electron/main/auth/auth-service.ts';
import { MemorySecretStore } from '../../electron/main/auth/memory-secret-store.ts';
import { sandboxProfile, type ConnectionProfile } from '@shared/settings.ts';
import { startPlatform } from '../platform/server.ts';

const CLIENT_ID = 'advisor-desk';
const CLIENT_SECRET = 'standard-server-secret';
const ACCOUNT = 'advisor-1';

const SCOPE_ADVICE = (scope: string) =>
  `The documented platform takes the scope “*”; standard OpenID servers take “openid offline_access”. The scope asked for was “${scope}”: change it in the connection settings if it does not suit this server.`;

/** The sandbox refuses a scope before its form: the browser only follows that redirect. */
class FakeSandboxBrowser {
  readonly open = async (url: string): Promise<boolean> => {
    const res = await fetch(url, { redirect: 'manual' });
    await res.text();
    const location = res.headers.get('location');
    if (location) await (await fetch(location)).text();
    return true;
  };
}

// ---- the server: oidc-provider behind a handler that plays the user at its interaction page ----

/** What the "user" does at the server's interaction page: sign in and consent, or decline. */
let userAnswer: 'consent' | 'decline' = 'consent';

async function interact(provider: Provider, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  if (userAnswer === 'decline') {
    await provider.interactionFinished(req, res, {
      error: 'access_denied',
      error_description: 'The advisor declined to share access.',
    });
    return;
  }
  if (details.prompt.name === 'login') {
    await provider.interactionFinished(req, res, { login: { accountId: ACCOUNT } });
    return;
  }
  const grant = new provider.Grant({ accountId: ACCOUNT, clientId: CLIENT_ID });
  grant.addOIDCScope(String(details.params.scope));
  await provider.interactionFinished(
    req,
    res,
    { consent: { grantId: await grant.save() } },
    {
      mergeWithLastSubmission: true,
    },
  );
}

interface StandardServer {
  /** The address as a user types it into the profile (no trailing slash). */
  url: string;
  /** The issuer the server names itself by (with the trailing slash). */
  issuer: string;
  close(): Promise<void>;
}

async function startStandardServer(): Promise<StandardServer> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const issuer = `${url}/`;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        application_type: 'native',
        redirect_uris: ['http://127.0.0.1/callback'],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    routes: {
      authorization: '/op/auth',
      token: '/op/token',
      revocation: '/op/revoke',
      userinfo: '/op/me',
      jwks: '/op/jwks',
      end_session: '/op/logout',
    },
    pkce: { required: () => true },
    rotateRefreshToken: true,
    features: { revocation: { enabled: true }, devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx: unknown, sub: string) => ({ accountId: sub, claims: () => ({ sub }) }),
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test', use: 'sig', alg: 'RS256' }] },
    cookies: { keys: ['oidc-standard-test'] },
    ttl: { AccessToken: 3600, AuthorizationCode: 60, Grant: 3600, Interaction: 600, Session: 3600 },
  });
  const handle = provider.callback();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.startsWith('/interaction/')) {
      interact(provider, req, res).catch(() => {
        res.statusCode = 500;
        res.end();
      });
    } else {
      handle(req, res);
    }
  });
  return {
    url,
    issuer,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---- the fake system browser: follows redirects with cookies until the app's loopback listener ----

class Browser {
  private readonly cookies = new Map<string, string>();
  /** Changes the callback the browser follows (to drop or forge `iss`). */
  rewriteCallback: ((callback: URL) => URL) | null = null;
  readonly visits: Promise<{ callback: URL | null; status: number | null; html: string }>[] = [];

  readonly open = (url: string): Promise<boolean> => {
    this.visits.push(this.visit(new URL(url)));
    return Promise.resolve(true);
  };

  private async visit(start: URL) {
    const listener = new URL(start.searchParams.get('redirect_uri') as string);
    let url = start;
    for (let hop = 0; hop < 12; hop++) {
      if (url.origin === listener.origin) {
        const callback = this.rewriteCallback ? this.rewriteCallback(url) : url;
        const res = await fetch(callback, { redirect: 'manual' });
        return { callback, status: res.status, html: await res.text() };
      }
      const res = await fetch(url, { redirect: 'manual', headers: { cookie: this.cookieHeader() } });
      for (const line of res.headers.getSetCookie()) this.keep(line);
      const location = res.headers.get('location');
      await res.text();
      if (!location) return { callback: null, status: res.status, html: '' };
      url = new URL(location, url);
    }
    throw new Error('too many redirects');
  }

  private keep(line: string): void {
    const [pair = ''] = line.split(';');
    const at = pair.indexOf('=');
    const name = pair.slice(0, at).trim();
    const expired = /expires=Thu, 01 Jan 1970/i.test(line) || /max-age=0\b/i.test(line);
    if (expired) this.cookies.delete(name);
    else this.cookies.set(name, pair.slice(at + 1));
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async last() {
    const visit = this.visits.at(-1);
    if (!visit) throw new Error('the browser was never opened');
    return visit;
  }
}

// ---- the service under test ----

interface TokenRequest {
  url: string;
  authorization: string | null;
  body: URLSearchParams;
}

let op: StandardServer;
let profile: ConnectionProfile;

function harness(options: Partial<AuthServiceOptions> & { scope?: string } = {}) {
  const browser = new Browser();
  const secrets = new MemorySecretStore();
  const requests: TokenRequest[] = [];
  const auth = new AuthService({
    profile: () => ({ ...profile, scope: options.scope ?? profile.scope }),
    clientSecret: () => Promise.resolve(CLIENT_SECRET),
    openExternal: browser.open,
    fetch: (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      const body = init?.body;
      requests.push({
        url,
        authorization: new Headers(init?.headers).get('authorization'),
        body: new URLSearchParams(body instanceof URLSearchParams || typeof body === 'string' ? body : ''),
      });
      return fetch(input, init);
    },
    ...options,
    secrets,
  });
  return { auth, browser, secrets, requests };
}

async function signIn(h: ReturnType<typeof harness>) {
  const start = await h.auth.beginSignIn('both');
  if (!start.ok) throw new Error(`the sign-in did not start: ${start.message}`);
  const outcome = await h.auth.finishSignIn(start.flowId);
  return { start, outcome, visit: await h.browser.last() };
}

/** The token set the service keeps for version 2 (read from its secret store). */
async function kept(
  secrets: MemorySecretStore,
): Promise<{ accessToken: string; refreshToken: string | null }> {
  return JSON.parse((await secrets.get('auth-tokens-v2')) as string) as {
    accessToken: string;
    refreshToken: string | null;
  };
}

/** Asks the server directly whether a refresh token still works. */
async function refreshStatus(refreshToken: string): Promise<{ status: number; error?: string }> {
  const res = await fetch(`${op.url}/op/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }),
  });
  const body = (await res.json()) as { error?: string };
  return { status: res.status, ...(body.error ? { error: body.error } : {}) };
}

async function userinfoStatus(accessToken: string): Promise<number> {
  const res = await fetch(`${op.url}/op/me`, { headers: { authorization: `Bearer ${accessToken}` } });
  await res.text();
  return res.status;
}

beforeAll(async () => {
  op = await startStandardServer();
  profile = {
    name: 'Standard server',
    v2: { baseUrl: `${op.url}/api/v2`, authUrl: op.url },
    v0: { baseUrl: `${op.url}/api/v0`, authUrl: op.url },
    clientId: CLIENT_ID,
    scope: 'openid offline_access',
    rateLimitPerMinute: 60,
  };
});

afterAll(async () => {
  await op.close();
});

describe('a standard OpenID server with its own paths', () => {
  it('signs in (metadata, PKCE, consent, Basic), refreshes with rotation, and revokes at sign-out', async () => {
    userAnswer = 'consent';
    let now = Date.now();
    const h = harness({ now: () => now });
    const { start, outcome, visit } = await signIn(h);

    // The server's own paths, read from its OpenID metadata (it has no RFC 8414 document).
    const url = new URL(start.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${op.url}/op/auth`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      scope: 'openid offline_access',
      prompt: 'consent',
      code_challenge_method: 'S256',
    });
    expect(h.requests.map((r) => new URL(r.url).pathname).slice(0, 2)).toEqual([
      '/.well-known/oauth-authorization-server',
      '/.well-known/openid-configuration',
    ]);
    // RFC 9207: the callback names the issuer, trailing slash included, and the service accepted it.
    expect(visit.callback?.searchParams.get('iss')).toBe(op.issuer);
    expect(visit.status).toBe(200);
    expect(outcome).toMatchObject({ ok: true, status: { v2: { signedIn: true }, v0: { signedIn: true } } });

    // The client authenticated with HTTP Basic, as the server advertises; no secret in the body.
    const exchange = h.requests.find((r) => r.body.get('grant_type') === 'authorization_code');
    expect(exchange?.url).toBe(`${op.url}/op/token`);
    expect(exchange?.authorization).toMatch(/^Basic /);
    expect(exchange?.body.get('client_secret')).toBeNull();

    const first = await kept(h.secrets);
    expect(first.refreshToken).toEqual(expect.any(String));
    expect(await h.auth.accessToken('v2')).toBe(first.accessToken);
    expect(await userinfoStatus(first.accessToken)).toBe(200);

    // An hour later the token is about to expire: one refresh, and the server rotates the refresh token.
    now += 3600_000 - 30_000;
    const renewed = await h.auth.accessToken('v2');
    expect(renewed).not.toBe(first.accessToken);
    const second = await kept(h.secrets);
    expect(second.accessToken).toBe(renewed);
    expect(second.refreshToken).toEqual(expect.any(String));
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(await userinfoStatus(renewed as string)).toBe(200);

    // Sign-out forgets the tokens and revokes them at the server.
    const out = await h.auth.signOut();
    expect(out.ok).toBe(true);
    expect(h.secrets.names()).toEqual([]);
    const revocations = h.requests.filter((r) => r.url === `${op.url}/op/revoke`);
    expect(revocations.map((r) => r.body.get('token_type_hint'))).toEqual(['refresh_token', 'access_token']);
    expect(revocations.every((r) => r.authorization?.startsWith('Basic '))).toBe(true);
    expect(await refreshStatus(second.refreshToken as string)).toEqual({
      status: 400,
      error: 'invalid_grant',
    });
    expect(await userinfoStatus(renewed as string)).toBe(401);
  });

  it('a server that never answers the revocation does not hold the sign-out', async () => {
    userAnswer = 'consent';
    let asked = 0;
    let answered = false;
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const h = harness({
      fetch: async (input, init) => {
        const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
        if (url === `${op.url}/op/revoke`) {
          asked++;
          await held;
          answered = true;
        }
        return fetch(input, init);
      },
    });
    const { outcome } = await signIn(h);
    expect(outcome.ok).toBe(true);

    const out = await h.auth.signOut();
    // Signed out, tokens gone, while the server still sits on the revocation it was asked.
    expect(out.ok).toBe(true);
    expect(asked).toBe(1);
    expect(answered).toBe(false);
    expect(h.secrets.names()).toEqual([]);
    expect(await h.auth.status()).toMatchObject({ v2: { signedIn: false }, v0: { signedIn: false } });
    release();
  });

  it('refuses a callback without iss, since the server says it always sends one', async () => {
    userAnswer = 'consent';
    const h = harness();
    h.browser.rewriteCallback = (callback) => {
      const url = new URL(callback);
      url.searchParams.delete('iss');
      return url;
    };
    const { outcome, visit } = await signIn(h);
    expect(outcome).toMatchObject({ ok: false, reason: 'failed' });
    expect(!outcome.ok && outcome.message).toBe(
      `The answer to the sign-in does not say which server sent it, although the sign-in server at ${op.issuer} always says so. Advisor Desk did not complete the sign-in. Start it again.`,
    );
    expect(visit.status).toBe(400);
    expect(h.requests.some((r) => r.body.get('grant_type') === 'authorization_code')).toBe(false);
    expect(h.secrets.names()).toEqual([]);
  });

  it('refuses a callback naming another issuer, and names both', async () => {
    userAnswer = 'consent';
    const h = harness();
    h.browser.rewriteCallback = (callback) => {
      const url = new URL(callback);
      url.searchParams.set('iss', 'https://mix-up.example/');
      return url;
    };
    const { outcome } = await signIn(h);
    expect(!outcome.ok && outcome.message).toBe(
      `The answer to the sign-in came from https://mix-up.example/, not from the sign-in server ${op.issuer}. Advisor Desk did not complete the sign-in. Start it again.`,
    );
    expect(h.secrets.names()).toEqual([]);
  });

  it('says what the server said when the user declines (access_denied)', async () => {
    userAnswer = 'decline';
    const h = harness();
    const { outcome, visit } = await signIn(h);
    expect(outcome).toMatchObject({
      ok: false,
      reason: 'denied',
      message: `The sign-in server at ${op.url} refused the sign-in (access_denied: The advisor declined to share access.).`,
    });
    // The browser's tab says it too: the server's words, not "cancelled".
    expect(visit.html).toContain('<h1>Sign-in refused</h1>');
    expect(visit.html).toContain(
      'refused the sign-in (access_denied: The advisor declined to share access.).',
    );
    expect(visit.html).not.toMatch(/cancelled/i);
    userAnswer = 'consent';
  });

  it('explains the scope when the server grants none of those asked for ("*")', async () => {
    userAnswer = 'consent';
    const h = harness({ scope: '*' });
    const { outcome, visit } = await signIn(h);
    expect(outcome).toMatchObject({
      ok: false,
      reason: 'denied',
      message: `The sign-in server at ${op.url} refused the sign-in (access_denied). ${SCOPE_ADVICE('*')}`,
    });
    // The loopback page says what the server said, as the window does; the user cancelled nothing.
    expect(visit.html).toContain('<h1>Sign-in refused</h1>');
    expect(visit.html).toContain(`The sign-in server at ${op.url} refused the sign-in (access_denied).`);
    expect(visit.html).not.toMatch(/cancelled/i);
  });
});

describe('the sandbox platform', () => {
  it('says what it said when it refuses a standard scope (invalid_scope)', async () => {
    const platform = await startPlatform({ port: 0, rateLimit: 0, accounts: 1 });
    try {
      const browser = new FakeSandboxBrowser();
      const auth = new AuthService({
        profile: () => ({ ...sandboxProfile(platform.url), scope: 'openid offline_access' }),
        clientSecret: () => Promise.resolve(null),
        secrets: new MemorySecretStore(),
        openExternal: browser.open,
      });
      const start = await auth.beginSignIn('both');
      if (!start.ok) throw new Error(start.message);
      // No prompt=consent for the platform's own scope, but here offline_access was asked for.
      expect(new URL(start.url).searchParams.get('prompt')).toBe('consent');
      const outcome = await auth.finishSignIn(start.flowId);
      expect(outcome).toMatchObject({
        ok: false,
        reason: 'failed',
        message: `The sign-in server at ${platform.url} refused the scope (invalid_scope: The only scope this platform grants is *.). ${SCOPE_ADVICE('openid offline_access')}`,
      });
    } finally {
      await platform.close();
    }
  });
});
