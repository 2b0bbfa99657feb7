// Integration tests of the main-process auth service against the sandbox platform over real HTTP.
// The system browser is a fake: it loads the sign-in page, submits the form and follows the
// platform's redirect to the service's loopback listener, as a person in a browser would.

import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthService, type AuthServiceOptions } from '../../electron/main/auth/auth-service.ts';
import { MEMORY_ONLY_NOTE, MemorySecretStore } from '../../electron/main/auth/memory-secret-store.ts';
import { createServices } from '../../electron/main/services.ts';
import type { KeyValueStore } from '../../electron/main/settings/settings-service.ts';
import { RENEWAL_UNREACHABLE } from '../../electron/main/transport/token-source.ts';
import { Transport } from '../../electron/main/transport/transport.ts';
import type { ApiName, ApiRequest } from '@shared/api/request.ts';
import type { AuthStatus, SignInStart, SignInTarget } from '@shared/auth.ts';
import { sandboxProfile, type ConnectionProfile } from '@shared/settings.ts';
import { startPlatform, type Platform } from '../platform/server.ts';
import { sandbox as sandboxPlatform } from '../support/sandbox.ts';
import { FakeBrowser } from './fake-browser.ts';

const ADVISOR = 'advisor@sandbox.test';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- what the service produces, checked at the end for leaked tokens ----

/** Every code and token the platform handed out in this file (seen through the injected fetch). */
const issued = new Set<string>();
/** Every status, outcome and error message the service produced in this file. */
const produced: string[] = [];

const record = <T>(value: T): T => {
  produced.push(JSON.stringify(value));
  return value;
};

// ---- the fetch the service uses: counts token requests, can fail them, records tokens ----

interface TokenRequest {
  url: string;
  body: URLSearchParams;
}

class ServiceFetch {
  readonly tokenRequests: TokenRequest[] = [];
  /** The tokens of each answer of the token endpoint, in order. */
  readonly tokenAnswers: { access_token?: string; refresh_token?: string }[] = [];
  offline = false;

  readonly fetch: typeof fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.endsWith('/oauth/token')) return fetch(input, init);
    const sent = init?.body;
    const body = new URLSearchParams(sent instanceof URLSearchParams || typeof sent === 'string' ? sent : '');
    this.tokenRequests.push({ url, body });
    const code = body.get('code');
    if (code) issued.add(code);
    if (this.offline) throw new TypeError('fetch failed');
    const res = await fetch(input, init);
    const copy = (await res.clone().json()) as { access_token?: string; refresh_token?: string };
    this.tokenAnswers.push(copy);
    for (const token of [copy.access_token, copy.refresh_token]) if (token) issued.add(token);
    return res;
  };

  count(grantType: string): number {
    return this.tokenRequests.filter((r) => r.body.get('grant_type') === grantType).length;
  }
}

// ---- the service under test ----

interface Harness {
  auth: AuthService;
  browser: FakeBrowser;
  secrets: MemorySecretStore;
  net: ServiceFetch;
}

function harness(
  profile: ConnectionProfile,
  options: Partial<AuthServiceOptions> & { secrets?: MemorySecretStore; browser?: FakeBrowser } = {},
): Harness {
  const browser = options.browser ?? new FakeBrowser();
  const secrets = options.secrets ?? new MemorySecretStore();
  const net = new ServiceFetch();
  const auth = new AuthService({
    profile: () => profile,
    clientSecret: () => Promise.resolve(null),
    openExternal: browser.open,
    fetch: net.fetch,
    ...options,
    secrets,
  });
  return { auth, browser, secrets, net };
}

/** Starts a sign-in that is expected to start. */
async function begin(auth: AuthService, target: SignInTarget): Promise<SignInStart> {
  const start = record(await auth.beginSignIn(target));
  if (!start.ok) throw new Error(`the sign-in did not start: ${start.message}`);
  return start;
}

async function signIn(h: Harness, target: SignInTarget = 'both') {
  const start = await begin(h.auth, target);
  const outcome = record(await h.auth.finishSignIn(start.flowId));
  return { start, outcome, visit: await h.browser.last() };
}

/** A service that reads the profile the test changes at every use, signed in to both interfaces. */
async function signedInFollowing(profile: () => ConnectionProfile, secrets: MemorySecretStore) {
  const h = harness(profile(), { secrets });
  const auth = new AuthService({
    profile,
    clientSecret: () => Promise.resolve(null),
    secrets,
    openExternal: h.browser.open,
    fetch: h.net.fetch,
  });
  const start = await begin(auth, 'both');
  expect((await auth.finishSignIn(start.flowId)).ok).toBe(true);
  return auth;
}

async function status(auth: AuthService): Promise<AuthStatus> {
  return record(await auth.status());
}

async function token(auth: AuthService, api: ApiName): Promise<string> {
  const value = await auth.accessToken(api);
  expect(value, `access token of ${api}`).toEqual(expect.any(String));
  return value as string;
}

/** Who the platform says a token belongs to on an interface (status and email). */
async function whoAmI(platform: Platform, api: ApiName, accessToken: string) {
  const res = await fetch(`${platform.url}/api/${api}/user`, {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  const body = (await res.json()) as { email?: string };
  return { status: res.status, email: body.email ?? null };
}

async function sandbox(platform: Platform, path: string): Promise<void> {
  const res = await fetch(`${platform.url}/__sandbox/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  expect(res.status).toBe(200);
  await res.text();
}

/** Resolves true when something accepts connections at the address. */
async function listening(url: string): Promise<boolean> {
  try {
    const res = await fetch(url);
    await res.text();
    return true;
  } catch {
    return false;
  }
}

const platform = sandboxPlatform({ accounts: 10 });
let profile: ConnectionProfile;

beforeAll(() => {
  profile = sandboxProfile(platform.url);
});

describe('sign-in through the system browser', () => {
  it('one sign-in covers both interfaces of a shared server; PKCE and state are sent and checked', async () => {
    const h = harness(profile);
    const { start, outcome, visit } = await signIn(h, 'both');

    expect(start.openedExternally).toBe(true);
    const url = new URL(start.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${platform.url}/oauth/authorize`);
    const params = Object.fromEntries(url.searchParams);
    expect(params).toMatchObject({
      response_type: 'code',
      client_id: 'advisor-desk',
      scope: '*',
      code_challenge_method: 'S256',
    });
    expect(params.state).toMatch(/^[\w-]{20,}$/);
    expect(params.code_challenge).toMatch(/^[\w-]{43}$/);
    const redirect = new URL(params.redirect_uri as string);
    expect(redirect.protocol).toBe('http:');
    expect(redirect.hostname).toBe('127.0.0.1');
    expect(Number(redirect.port)).toBeGreaterThan(0);
    expect(redirect.pathname).toBe('/callback');

    // The platform sent the browser back with the state, and the service exchanged the code with
    // the verifier of the challenge it sent.
    expect(visit.location?.searchParams.get('state')).toBe(params.state);
    const exchange = h.net.tokenRequests.find((r) => r.body.get('grant_type') === 'authorization_code');
    const verifier = exchange?.body.get('code_verifier') as string;
    expect(verifier).toMatch(/^[\w-]{43,128}$/);
    expect(createHash('sha256').update(verifier).digest('base64url')).toBe(params.code_challenge);
    expect(exchange?.body.get('redirect_uri')).toBe(params.redirect_uri);
    expect(exchange?.body.get('client_secret')).toBeNull();

    expect(visit.callbackStatus).toBe(200);
    expect(visit.callbackHtml).toContain(
      'You are signed in. You can close this tab and return to Advisor Desk.',
    );
    expect(outcome).toEqual({ ok: true, status: expect.any(Object) as unknown });
    expect(await status(h.auth)).toEqual({
      v2: { signedIn: true, needsSignIn: false },
      v0: { signedIn: true, needsSignIn: false },
      shared: true,
      persistent: false,
      persistenceNote: MEMORY_ONLY_NOTE,
      identity: null,
    });

    const v2 = await token(h.auth, 'v2');
    expect(await token(h.auth, 'v0')).toBe(v2);
    expect(await whoAmI(platform, 'v2', v2)).toEqual({ status: 200, email: ADVISOR });
    expect(await whoAmI(platform, 'v0', v2)).toEqual({ status: 200, email: ADVISOR });
    expect(h.secrets.names().sort()).toEqual(['auth-tokens-v0', 'auth-tokens-v2']);

    // One callback only: the listener is gone.
    expect(await listening(redirect.href)).toBe(false);
  });

  it('sends the client secret in the body when one is configured', async () => {
    const h = harness(profile, { clientSecret: () => Promise.resolve('sandbox-secret') });
    const { outcome } = await signIn(h, 'v2');
    expect(outcome.ok).toBe(true);
    expect(h.net.tokenRequests[0]?.body.get('client_secret')).toBe('sandbox-secret');
    expect((await whoAmI(platform, 'v2', await token(h.auth, 'v2'))).status).toBe(200);
  });

  it('refuses a callback with another state or none, keeps waiting, and the genuine one still works', async () => {
    const h = harness(profile);
    const refused: { status: number; html: string }[] = [];
    h.browser.beforeCallback = async (callback) => {
      const forged = new URL(callback);
      forged.searchParams.set('state', 'not-the-state');
      const missing = new URL(callback);
      missing.searchParams.delete('state');
      const elsewhere = new URL('/favicon.ico', callback);
      for (const url of [forged, missing, elsewhere]) {
        const res = await fetch(url);
        refused.push({ status: res.status, html: await res.text() });
      }
    };
    const { outcome, visit } = await signIn(h);
    expect(refused.map((r) => r.status)).toEqual([400, 400, 404]);
    expect(refused[0]?.html).toContain('does not belong to the sign-in Advisor Desk is waiting for');
    // The forged requests never reached the token endpoint: only the genuine code was exchanged.
    expect(h.net.count('authorization_code')).toBe(1);
    expect(visit.callbackStatus).toBe(200);
    expect(outcome.ok).toBe(true);
  });

  it('shows what the callback carries as plain text, never as markup', async () => {
    const h = harness(profile);
    h.browser.rewriteCallback = (callback) => {
      const url = new URL(callback);
      url.searchParams.delete('code');
      url.searchParams.set('error', 'server_error');
      url.searchParams.set('error_description', '<script>alert(1)</script>');
      return url;
    };
    const { outcome, visit } = await signIn(h);
    expect(outcome).toMatchObject({ ok: false, reason: 'failed' });
    expect(!outcome.ok && outcome.message).toContain('<script>alert(1)</script>');
    expect(visit.callbackStatus).toBe(400);
    expect(visit.callbackHtml).not.toContain('<script>');
    expect(visit.callbackHtml).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(h.net.count('authorization_code')).toBe(0);
  });

  it('a wrong password leaves the browser on the form; the sign-in times out', async () => {
    const h = harness(profile, { signInTimeoutMs: 1500 });
    h.browser.password = 'not-the-password';
    const { start, outcome, visit } = await signIn(h);
    expect(visit.submitStatus).toBe(401);
    expect(visit.location).toBeNull();
    expect(visit.submitHtml).toMatch(/<form\b/);
    expect(visit.submitHtml).toMatch(/incorrect/i);
    expect(outcome).toMatchObject({ ok: false, reason: 'timeout' });
    expect(!outcome.ok && outcome.message).toMatch(/not completed within 2 seconds/);
    expect(outcome.status.v2.signedIn).toBe(false);
    const redirect = new URL(start.url).searchParams.get('redirect_uri') as string;
    expect(await listening(redirect)).toBe(false);
  });

  it('cancelling on the platform page is "denied"', async () => {
    const h = harness(profile);
    h.browser.action = 'cancel';
    const { outcome, visit } = await signIn(h);
    expect(visit.location?.searchParams.get('error')).toBe('access_denied');
    expect(outcome).toMatchObject({ ok: false, reason: 'denied' });
    expect(visit.callbackStatus).toBe(200);
    // The tab says what the platform said (issue 24), as the window does.
    expect(visit.callbackHtml).toContain('<h1>Sign-in refused</h1>');
    expect(visit.callbackHtml).toContain('(access_denied: The user declined to sign in.)');
    expect((await status(h.auth)).v2.signedIn).toBe(false);
  });

  it('cancelSignIn ends the flow as "cancelled" and closes the listener', async () => {
    const opened: string[] = [];
    const h = harness(profile, {
      openExternal: (url) => {
        opened.push(url);
        return Promise.resolve(true);
      },
    });
    const start = await begin(h.auth, 'both');
    expect(opened).toEqual([start.url]);
    const redirect = new URL(start.url).searchParams.get('redirect_uri') as string;
    expect(await listening(redirect)).toBe(true);
    const finished = h.auth.finishSignIn(start.flowId);
    await h.auth.cancelSignIn(start.flowId);
    expect(await listening(redirect)).toBe(false);
    expect(record(await finished)).toMatchObject({ ok: false, reason: 'cancelled' });
    // Asking again about a flow that is over is answered, not left hanging.
    expect(record(await h.auth.finishSignIn(start.flowId))).toMatchObject({ ok: false, reason: 'failed' });
  });

  it('a newer sign-in replaces one still waiting', async () => {
    const h = harness(profile, { openExternal: () => Promise.resolve(true) });
    const first = await begin(h.auth, 'v2');
    const second = await begin(h.auth, 'v0');
    expect(record(await h.auth.finishSignIn(first.flowId))).toMatchObject({ ok: false, reason: 'cancelled' });
    await h.auth.cancelSignIn(second.flowId);
  });

  it('when the browser cannot be opened, says so and the caller opens the page', async () => {
    const browser = new FakeBrowser();
    const h = harness(profile, { openExternal: () => Promise.reject(new Error('no browser here')) });
    const start = await begin(h.auth, 'both');
    expect(start.openedExternally).toBe(false);
    const visit = await browser.visit(new URL(start.url));
    expect(visit.callbackStatus).toBe(200);
    expect(record(await h.auth.finishSignIn(start.flowId)).ok).toBe(true);
  });

  it('an error of the token endpoint fails the sign-in with its message', async () => {
    const h = harness(profile, { clientSecret: () => Promise.resolve('not-the-secret') });
    const { outcome, visit } = await signIn(h);
    expect(outcome).toMatchObject({ ok: false, reason: 'failed' });
    expect(!outcome.ok && outcome.message).toMatch(/invalid_client/);
    expect(visit.callbackStatus).toBe(400);
    expect(visit.callbackHtml).toContain('Sign-in failed');
    expect((await status(h.auth)).v2.signedIn).toBe(false);
    expect(h.secrets.names()).toEqual([]);
  });

  it('refuses plain http to a server that is not on this computer, and a "both" sign-in across two servers', async () => {
    const opened: string[] = [];
    const remote: ConnectionProfile = {
      ...profile,
      v2: { baseUrl: 'http://platform.example.com/api/v2', authUrl: 'http://platform.example.com' },
      v0: { baseUrl: 'http://platform.example.com/api/v0', authUrl: 'http://platform.example.com' },
    };
    const h = harness(remote, {
      openExternal: (url) => {
        opened.push(url);
        return Promise.resolve(true);
      },
    });
    // A refusal is an answer with the reason, for the sign-in screen to show; never an exception.
    const insecure = record(await h.auth.beginSignIn('both'));
    expect(insecure).toEqual({
      ok: false,
      message: expect.stringMatching(/only over https:\/\/.*platform\.example\.com/) as unknown,
    });

    const split: ConnectionProfile = { ...profile, v0: remote.v0 };
    const h2 = harness(split, { openExternal: h.browser.open });
    const both = record(await h2.auth.beginSignIn('both'));
    expect(both).toEqual({
      ok: false,
      message: expect.stringMatching(/different sign-in servers/) as unknown,
    });
    expect(opened).toEqual([]);
  });
});

describe('two auth servers', () => {
  const second = sandboxPlatform({ accounts: 10 });

  it('needs one sign-in per server and keeps a separate token for each interface', async () => {
    const split: ConnectionProfile = {
      ...profile,
      v0: { baseUrl: `${second.url}/api/v0`, authUrl: second.url },
    };
    const h = harness(split);
    expect(await status(h.auth)).toMatchObject({
      shared: false,
      v2: { signedIn: false },
      v0: { signedIn: false },
    });

    const first = await signIn(h, 'v2');
    expect(new URL(first.start.url).origin).toBe(platform.url);
    expect(first.outcome.status).toMatchObject({ v2: { signedIn: true }, v0: { signedIn: false } });
    expect(await h.auth.accessToken('v0')).toBeNull();

    const next = await signIn(h, 'v0');
    expect(new URL(next.start.url).origin).toBe(second.url);
    expect(next.outcome.status).toMatchObject({ v2: { signedIn: true }, v0: { signedIn: true } });

    const v2 = await token(h.auth, 'v2');
    const v0 = await token(h.auth, 'v0');
    expect(v2).not.toBe(v0);
    expect(await whoAmI(platform, 'v2', v2)).toEqual({ status: 200, email: ADVISOR });
    expect((await whoAmI(second, 'v0', v2)).status).toBe(401);
    expect(await whoAmI(second, 'v0', v0)).toEqual({ status: 200, email: ADVISOR });
    expect(JSON.parse((await h.secrets.get('auth-tokens-v0')) as string)).toMatchObject({
      authUrl: second.url,
    });

    // A refresh on one server leaves the other interface's tokens alone.
    await sandbox(platform, 'tokens/expire');
    const renewed = await h.auth.refreshAfterUnauthorized('v2', v2);
    expect(renewed).not.toBe(v2);
    expect((await whoAmI(platform, 'v2', renewed as string)).status).toBe(200);
    expect(await token(h.auth, 'v0')).toBe(v0);
    expect(h.net.tokenRequests.filter((r) => r.url.startsWith(second.url))).toHaveLength(1);
  });
});

describe('tokens for the transport', () => {
  it('refreshes shortly before expiry, once for both interfaces (injected clock)', async () => {
    let now = Date.now();
    const h = harness(profile, { now: () => now });
    await signIn(h);
    const first = await token(h.auth, 'v2');

    now += 3600_000 - 61_000;
    expect(await token(h.auth, 'v2')).toBe(first);
    expect(h.net.count('refresh_token')).toBe(0);

    now += 2_000;
    const renewed = await token(h.auth, 'v2');
    expect(renewed).not.toBe(first);
    expect(await token(h.auth, 'v0')).toBe(renewed);
    expect(h.net.count('refresh_token')).toBe(1);
    expect(await whoAmI(platform, 'v2', renewed)).toEqual({ status: 200, email: ADVISOR });
    expect(JSON.parse((await h.secrets.get('auth-tokens-v0')) as string)).toMatchObject({
      accessToken: renewed,
    });
  });

  describe('with short-lived tokens (tokenTtl 2)', () => {
    const short = sandboxPlatform({ accounts: 10, tokenTtl: 2 });

    it('refreshes before the token runs out (real clock)', async () => {
      const h = harness(sandboxProfile(short.url));
      await signIn(h);
      const first = await token(h.auth, 'v2');
      expect(await token(h.auth, 'v2')).toBe(first);
      expect(h.net.count('refresh_token')).toBe(0);
      await sleep(1200);
      const renewed = await token(h.auth, 'v2');
      expect(renewed).not.toBe(first);
      expect(h.net.count('refresh_token')).toBe(1);
      expect((await whoAmI(short, 'v2', renewed)).status).toBe(200);
    });
  });

  it('after a 401, refreshAfterUnauthorized gives a working token; a late caller gets it without a refresh', async () => {
    const h = harness(profile);
    await signIn(h);
    const old = await token(h.auth, 'v2');
    await sandbox(platform, 'tokens/expire');
    expect((await whoAmI(platform, 'v2', old)).status).toBe(401);

    const renewed = await h.auth.refreshAfterUnauthorized('v2', old);
    expect(renewed).not.toBeNull();
    expect(renewed).not.toBe(old);
    expect(await whoAmI(platform, 'v2', renewed as string)).toEqual({ status: 200, email: ADVISOR });
    expect(await h.auth.refreshAfterUnauthorized('v0', old)).toBe(renewed);
    expect(h.net.count('refresh_token')).toBe(1);
  });

  it('concurrent callers on both interfaces share one refresh', async () => {
    const h = harness(profile);
    await signIn(h);
    const old = await token(h.auth, 'v2');
    await sandbox(platform, 'tokens/expire');
    const apis: ApiName[] = ['v2', 'v0', 'v2', 'v0', 'v2', 'v0'];
    const results = await Promise.all(apis.map((api) => h.auth.refreshAfterUnauthorized(api, old)));
    expect(new Set(results).size).toBe(1);
    expect(results[0]).not.toBe(old);
    expect(h.net.count('refresh_token')).toBe(1);
    expect((await whoAmI(platform, 'v0', results[0] as string)).status).toBe(200);
  });

  it('a network failure during a refresh says "unreachable" (not "sign in") and keeps the refresh token for later', async () => {
    const h = harness(profile);
    await signIn(h);
    const old = await token(h.auth, 'v2');
    await sandbox(platform, 'tokens/expire');
    h.net.offline = true;
    expect(await h.auth.refreshAfterUnauthorized('v2', old)).toEqual(RENEWAL_UNREACHABLE);
    expect(await status(h.auth)).toMatchObject({
      v2: { signedIn: true, needsSignIn: false },
      v0: { signedIn: true, needsSignIn: false },
    });
    expect(h.secrets.names()).toHaveLength(2);
    h.net.offline = false;
    const renewed = await h.auth.refreshAfterUnauthorized('v2', old);
    expect((await whoAmI(platform, 'v2', renewed as string)).status).toBe(200);
  });

  it('a revoked refresh token gives null and "needs sign-in", and forgets that sign-in', async () => {
    const h = harness(profile);
    await signIn(h);
    const old = await token(h.auth, 'v2');
    await sandbox(platform, 'tokens/revoke');
    expect(await h.auth.refreshAfterUnauthorized('v2', old)).toBeNull();
    expect(await status(h.auth)).toMatchObject({
      v2: { signedIn: false, needsSignIn: true },
      v0: { signedIn: false, needsSignIn: true },
    });
    expect(await h.auth.accessToken('v0')).toBeNull();
    expect(h.secrets.names()).toEqual([]);
    // Signing in again clears the flag.
    const again = await signIn(h);
    expect(again.outcome.status.v2).toEqual({ signedIn: true, needsSignIn: false });
  });

  it('tokens persisted in the secret store survive a new service; sign-out forgets them everywhere', async () => {
    const secrets = new MemorySecretStore();
    const first = harness(profile, { secrets });
    await signIn(first);
    const kept = await token(first.auth, 'v2');

    const restarted = harness(profile, { secrets });
    expect((await status(restarted.auth)).v0.signedIn).toBe(true);
    expect(await token(restarted.auth, 'v0')).toBe(kept);
    expect((await whoAmI(platform, 'v2', kept)).status).toBe(200);

    const after = record(await restarted.auth.signOut());
    expect(after).toMatchObject({
      ok: true,
      status: { v2: { signedIn: false, needsSignIn: true }, v0: { signedIn: false, needsSignIn: true } },
    });
    expect(await restarted.auth.accessToken('v2')).toBeNull();
    expect(secrets.names()).toEqual([]);
    expect((await status(harness(profile, { secrets }).auth)).v2.signedIn).toBe(false);
  });

  it('sign-out revokes the tokens on the platform (RFC 7009): both are refused there afterwards', async () => {
    const h = harness(profile);
    await signIn(h);
    const access = await token(h.auth, 'v2');
    const refresh = h.net.tokenAnswers.at(-1)?.refresh_token ?? '';
    expect(refresh).not.toBe('');
    expect((await whoAmI(platform, 'v2', access)).status).toBe(200);

    expect(record(await h.auth.signOut())).toMatchObject({ ok: true });

    // Not only forgotten here: a copy of either token taken before is worth nothing.
    expect((await whoAmI(platform, 'v2', access)).status).toBe(401);
    expect((await whoAmI(platform, 'v0', access)).status).toBe(401);
    const renewed = await fetch(`${platform.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: refresh,
        client_id: 'advisor-desk',
      }),
    });
    expect(renewed.status).toBe(400);
    expect(((await renewed.json()) as { error?: string }).error).toBe('invalid_grant');
  });

  it('a changed profile forgets the tokens of the server it no longer names', async () => {
    let current = profile;
    const secrets = new MemorySecretStore();
    const auth = await signedInFollowing(() => current, secrets);
    current = {
      ...profile,
      v0: { baseUrl: 'https://other.example.com/api/v0', authUrl: 'https://other.example.com' },
    };
    // Even before the host says so, a token is never handed out for another server.
    expect(await auth.accessToken('v0')).toBeNull();
    await auth.profileChanged();
    expect(await status(auth)).toMatchObject({
      shared: false,
      v2: { signedIn: true },
      v0: { signedIn: false, needsSignIn: true },
    });
    expect(secrets.names()).toEqual(['auth-tokens-v2']);
  });
});

describe('sign-out', () => {
  it('cancels a sign-in still waiting in the browser: finishing it afterwards signs no one in', async () => {
    // The browser opens the page, but the user finishes only later (below).
    const h = harness(profile, { openExternal: () => Promise.resolve(true) });
    const start = await begin(h.auth, 'both');
    const finished = h.auth.finishSignIn(start.flowId);

    const out = record(await h.auth.signOut());
    expect(out).toMatchObject({ ok: true, status: { v2: { signedIn: false }, v0: { signedIn: false } } });
    expect(record(await finished)).toMatchObject({ ok: false, reason: 'cancelled' });

    // The user completes the platform's page now: the redirect finds nobody waiting.
    await expect(h.browser.visit(new URL(start.url))).rejects.toThrow();
    await sleep(100);
    expect(h.net.count('authorization_code')).toBe(0);
    expect(await status(h.auth)).toMatchObject({ v2: { signedIn: false }, v0: { signedIn: false } });
    expect(await h.auth.accessToken('v2')).toBeNull();
    expect(h.secrets.names()).toEqual([]);
  });

  it('a secret store that cannot forget is said in the answer, not thrown; the tokens are gone anyway', async () => {
    const secrets = new MemorySecretStore();
    const h = harness(profile, { secrets });
    await signIn(h);
    secrets.delete = () => Promise.reject(new Error('the keychain is locked'));
    const out = record(await h.auth.signOut());
    expect(out).toMatchObject({
      ok: false,
      message: expect.stringMatching(/could not remove your saved sign-in/) as unknown,
      status: { v2: { signedIn: false, needsSignIn: true }, v0: { signedIn: false, needsSignIn: true } },
    });
    expect(await h.auth.accessToken('v0')).toBeNull();
  });
});

describe('the identity bound to a sign-in', () => {
  const ADVISOR_IN_HARBOR = { user: 'a1'.repeat(16), team: 2 };

  it('is refused while signed out, kept with the tokens across a restart, and forgotten at sign-out', async () => {
    const secrets = new MemorySecretStore();
    const h = harness(profile, { secrets });
    // Nobody is signed in: no store may be bound to nobody.
    expect(record(await h.auth.bindIdentity(ADVISOR_IN_HARBOR))).toMatchObject({
      ok: false,
      message: expect.stringMatching(/Sign in first/) as unknown,
      status: { identity: null },
    });
    expect(secrets.names()).toEqual([]);

    await signIn(h);
    expect((await status(h.auth)).identity).toBeNull();
    expect(record(await h.auth.bindIdentity(ADVISOR_IN_HARBOR))).toMatchObject({
      ok: true,
      status: { identity: ADVISOR_IN_HARBOR },
    });
    expect(secrets.names().sort()).toEqual(['auth-identity', 'auth-tokens-v0', 'auth-tokens-v2']);

    // A restart (offline, say) finds the identity with the tokens: the store opens at once.
    const restarted = harness(profile, { secrets });
    expect((await status(restarted.auth)).identity).toEqual(ADVISOR_IN_HARBOR);

    // A team switch binds the new team.
    const inMainStreet = { ...ADVISOR_IN_HARBOR, team: 1 };
    expect((await restarted.auth.bindIdentity(inMainStreet)).status.identity).toEqual(inMainStreet);

    await restarted.auth.signOut();
    expect((await status(restarted.auth)).identity).toBeNull();
    expect(secrets.names()).toEqual([]);
    // The next sign-in (whoever it is) starts without one: the renderer asks the platform first.
    await signIn(restarted);
    expect((await status(restarted.auth)).identity).toBeNull();
    expect((await status(harness(profile, { secrets }).auth)).identity).toBeNull();
  });

  it('a new sign-in over a bound one starts without an identity', async () => {
    const h = harness(profile);
    await signIn(h);
    await h.auth.bindIdentity(ADVISOR_IN_HARBOR);
    await signIn(h);
    expect((await status(h.auth)).identity).toBeNull();
  });

  it('is forgotten when a profile change drops the tokens, and when a refresh is refused', async () => {
    let current = profile;
    const secrets = new MemorySecretStore();
    const auth = await signedInFollowing(() => current, secrets);
    await auth.bindIdentity(ADVISOR_IN_HARBOR);
    // A profile change that keeps the tokens keeps the identity.
    current = { ...profile, rateLimitPerMinute: 30 };
    await auth.profileChanged();
    expect((await status(auth)).identity).toEqual(ADVISOR_IN_HARBOR);
    current = {
      ...profile,
      v0: { baseUrl: 'https://other.example.com/api/v0', authUrl: 'https://other.example.com' },
    };
    await auth.profileChanged();
    expect(secrets.names()).toEqual(['auth-tokens-v2']);
    current = profile;
    expect((await status(auth)).identity).toBeNull();

    const again = harness(profile);
    await signIn(again);
    await again.auth.bindIdentity(ADVISOR_IN_HARBOR);
    const old = await token(again.auth, 'v2');
    await sandbox(platform, 'tokens/revoke');
    expect(await again.auth.refreshAfterUnauthorized('v2', old)).toBeNull();
    expect(again.secrets.names()).toEqual([]);
  });
});

// ---- a token follows its interface's address only as far as the origin it was issued for ----

/** A host that records who called it (and with which authorization): where a token must not go. */
async function startWitness(): Promise<{ url: string; calls: string[]; close(): Promise<void> }> {
  const calls: string[] = [];
  const server = createServer((req, res) => {
    calls.push(`${req.method ?? ''} ${req.url ?? ''} ${req.headers.authorization ?? '(no authorization)'}`);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"first_name":"Not","last_name":"The platform"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

class MapStore implements KeyValueStore {
  private readonly data = new Map<string, unknown>();
  get(key: string): unknown {
    return this.data.get(key);
  }
  set(key: string, value: unknown): void {
    this.data.set(key, structuredClone(value));
  }
}

describe('a changed interface address', () => {
  let witness: Awaited<ReturnType<typeof startWitness>>;

  beforeAll(async () => {
    witness = await startWitness();
  });

  afterAll(async () => {
    await witness.close();
  });

  it('the bridge: a profile saved with a new v2 address but the same sign-in server sends no token there', async () => {
    const browser = new FakeBrowser();
    const dir = mkdtempSync(join(tmpdir(), 'auth-profile-'));
    const services = createServices({
      settingsStore: new MapStore(),
      secrets: new MemorySecretStore(),
      openExternal: browser.open,
      chooseSavePath: () => Promise.resolve(null),
      cacheDir: join(dir, 'files'),
      defaultProfile: profile,
      // The advisor agrees to each change of addresses (the dialog's own tests: settings-service).
      confirmAddressChange: () => Promise.resolve(true),
    });
    const bridge = services.handlers;
    try {
      const start = record(await bridge['auth.beginSignIn']('both'));
      expect(start.ok).toBe(true);
      if (!start.ok) return;
      expect(record(await bridge['auth.finishSignIn'](start.flowId)).ok).toBe(true);
      const me = await bridge['api.request']({ api: 'v2', method: 'GET', path: '/user' });
      expect(me).toMatchObject({ ok: true, data: { email: ADVISOR } });

      const moved = { ...profile, v2: { ...profile.v2, baseUrl: `${witness.url}/api/v2` } };
      expect((await bridge['settings.saveProfile'](moved)).ok).toBe(true);
      const there = record(await bridge['api.request']({ api: 'v2', method: 'GET', path: '/user' }));
      expect(there).toMatchObject({ ok: false, kind: 'auth' });
      expect(witness.calls).toEqual([]);
      // The user must sign in again for version 2; version 0.0.1 did not move and keeps its sign-in.
      expect(record(await bridge['auth.status']())).toMatchObject({
        v2: { signedIn: false, needsSignIn: true },
        v0: { signedIn: true },
      });
      expect(await bridge['api.request']({ api: 'v0', method: 'GET', path: '/user' })).toMatchObject({
        ok: true,
      });

      // Back on the platform's origin, the sign-in version 0.0.1 kept covers version 2 again (one
      // server, and an origin that token is sent to already); the other host never saw a token.
      expect((await bridge['settings.saveProfile'](profile)).ok).toBe(true);
      expect(await bridge['api.request']({ api: 'v2', method: 'GET', path: '/user' })).toMatchObject({
        ok: true,
      });
      expect(witness.calls).toEqual([]);
    } finally {
      services.transport.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the profile form: a base address in plain http:// to another computer is refused, with the field named', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'auth-profile-'));
    const services = createServices({
      settingsStore: new MapStore(),
      secrets: new MemorySecretStore(),
      openExternal: () => Promise.resolve(false),
      chooseSavePath: () => Promise.resolve(null),
      cacheDir: join(dir, 'files'),
      defaultProfile: profile,
      // The advisor agrees to each change of addresses (the dialog's own tests: settings-service).
      confirmAddressChange: () => Promise.resolve(true),
    });
    try {
      const saved = await services.handlers['settings.saveProfile']({
        ...profile,
        v2: { ...profile.v2, baseUrl: 'http://platform.example.com/api/v2' },
        v0: { ...profile.v0, baseUrl: 'ftp://platform.example.com/api/v0' },
      });
      expect(saved).toEqual({
        ok: false,
        fields: {
          'v2.baseUrl': [
            expect.stringMatching(/^Version 2 address must start with https:\/\/ \(plain http/) as unknown,
          ],
          'v0.baseUrl': [
            expect.stringMatching(/^Version 0\.0\.1 address must start with https:\/\//) as unknown,
          ],
        },
      });
      expect((await services.handlers['settings.get']()).profile.v2.baseUrl).toBe(profile.v2.baseUrl);
    } finally {
      services.transport.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the service: a token is bound to the base origin of each interface it was issued for', async () => {
    let current = profile;
    const secrets = new MemorySecretStore();
    const h = harness(profile, { secrets });
    const auth = new AuthService({
      profile: () => current,
      clientSecret: () => Promise.resolve(null),
      secrets,
      openExternal: h.browser.open,
      fetch: h.net.fetch,
    });
    expect((await auth.finishSignIn((await begin(auth, 'both')).flowId)).ok).toBe(true);
    const origin = new URL(platform.url).origin;
    expect(await auth.accessToken('v2', origin)).toEqual(expect.any(String));
    // Asked for another destination than the interface's origin, there is no token.
    expect(await auth.accessToken('v2', witness.url)).toBeNull();

    current = { ...profile, v2: { ...profile.v2, baseUrl: `${witness.url}/api/v2` } };
    // Even before the host says the profile changed, the token is not handed out for the new host.
    expect(await auth.accessToken('v2')).toBeNull();
    expect(await auth.accessToken('v2', witness.url)).toBeNull();
    await auth.profileChanged();
    expect(await status(auth)).toMatchObject({
      v2: { signedIn: false, needsSignIn: true },
      v0: { signedIn: true, needsSignIn: false },
    });
    expect(secrets.names()).toEqual(['auth-tokens-v0']);
    expect(JSON.parse((await secrets.get('auth-tokens-v0')) as string)).toMatchObject({
      baseOrigins: { v0: origin },
    });
  });

  it('one sign-in covers a second interface that joins its server only on an origin it already goes to', async () => {
    const second = await startPlatform({ port: 0, rateLimit: 0, accounts: 5 });
    try {
      const split: ConnectionProfile = {
        ...profile,
        v0: { baseUrl: `${second.url}/api/v0`, authUrl: second.url },
      };
      let current = split;
      const secrets = new MemorySecretStore();
      const h = harness(split, { secrets });
      const auth = new AuthService({
        profile: () => current,
        clientSecret: () => Promise.resolve(null),
        secrets,
        openExternal: h.browser.open,
        fetch: h.net.fetch,
      });
      expect((await auth.finishSignIn((await begin(auth, 'v2')).flowId)).ok).toBe(true);

      // Version 0.0.1 now uses the same sign-in server, but lives on a host the token never went to.
      current = { ...profile, v0: { baseUrl: `${witness.url}/api/v0`, authUrl: profile.v0.authUrl } };
      await auth.profileChanged();
      expect(await status(auth)).toMatchObject({
        shared: true,
        v2: { signedIn: true },
        v0: { signedIn: false },
      });
      expect(await auth.accessToken('v0')).toBeNull();

      // On the platform's own origin, the one sign-in covers it.
      current = profile;
      await auth.profileChanged();
      expect(await status(auth)).toMatchObject({ v2: { signedIn: true }, v0: { signedIn: true } });
      expect(await whoAmI(platform, 'v0', await token(auth, 'v0'))).toEqual({ status: 200, email: ADVISOR });
      expect(witness.calls).toEqual([]);
    } finally {
      await second.close();
    }
  });
});

// ---- the transport over this service: no answer from the sign-in server is no reason to sign in ----

/** A stand-in address for the sign-in server that forwards to the platform, until it is closed. */
async function startRelay(target: string): Promise<{ url: string; close(): Promise<void> }> {
  let self = '';
  const server = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers))
        if (typeof value === 'string' && name !== 'host' && name !== 'content-length')
          headers.set(name, value);
      const answer = await fetch(new URL(req.url ?? '/', target), {
        method: req.method ?? 'GET',
        headers,
        ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
        redirect: 'manual',
      });
      // Like a reverse proxy, the relay presents the server's metadata under its own address.
      const raw = Buffer.from(await answer.arrayBuffer());
      const json = answer.headers.get('content-type')?.startsWith('application/json');
      const body = json ? Buffer.from(raw.toString('utf8').replaceAll(target, self)) : raw;
      const out: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(name))
          out[name] = value;
      });
      res.writeHead(answer.status, out);
      res.end(body);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  self = `http://127.0.0.1:${port}`;
  return {
    url: self,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const USER: ApiRequest = { api: 'v2', method: 'GET', path: '/user' };

describe('the transport over the auth service', () => {
  it('a token that expired while the sign-in server is down is a network failure; the sign-in is kept', async () => {
    const own = await startPlatform({ port: 0, rateLimit: 0, accounts: 5 });
    let now = Date.now();
    const h = harness(sandboxProfile(own.url), { now: () => now });
    const transport = new Transport({ profile: () => sandboxProfile(own.url), tokens: h.auth });
    try {
      await signIn(h);
      expect(await transport.request(USER)).toMatchObject({ ok: true });
      now += 2 * 3600_000;
      await own.close();

      const failure = record(await transport.request(USER));
      expect(failure).toMatchObject({ ok: false, kind: 'network', status: null });
      expect(!failure.ok && failure.retryAfterMs).toBeGreaterThan(0);
      expect(!failure.ok && failure.message).toMatch(/could not be renewed/);
      expect(h.net.count('refresh_token')).toBeGreaterThan(0);
      expect(await status(h.auth)).toMatchObject({
        v2: { signedIn: true, needsSignIn: false },
        v0: { signedIn: true, needsSignIn: false },
      });
      expect(h.secrets.names()).toHaveLength(2);
    } finally {
      transport.dispose();
      await own.close().catch(() => undefined);
    }
  });

  it('a 401 whose refresh cannot reach the sign-in server is a network failure; the sign-in is kept', async () => {
    const relay = await startRelay(platform.url);
    const viaRelay: ConnectionProfile = {
      ...profile,
      v2: { ...profile.v2, authUrl: relay.url },
      v0: { ...profile.v0, authUrl: relay.url },
    };
    const h = harness(viaRelay);
    const transport = new Transport({ profile: () => viaRelay, tokens: h.auth });
    try {
      await signIn(h);
      expect(await transport.request(USER)).toMatchObject({ ok: true });
      await sandbox(platform, 'tokens/expire');
      await relay.close();
      const unauthorized = platform.control.stats().byStatus['401'] ?? 0;

      const failure = record(await transport.request(USER));
      expect(failure).toMatchObject({ ok: false, kind: 'network', status: null });
      expect(!failure.ok && failure.message).toMatch(/could not be renewed/);
      expect(platform.control.stats().byStatus['401']).toBe(unauthorized + 1);
      expect(await status(h.auth)).toMatchObject({ v2: { signedIn: true, needsSignIn: false } });
      expect(h.secrets.names()).toHaveLength(2);
    } finally {
      transport.dispose();
      await relay.close();
    }
  });

  it('only a refresh the server refuses (a revoked token) means "sign in again"', async () => {
    const h = harness(profile);
    const transport = new Transport({ profile: () => profile, tokens: h.auth });
    try {
      await signIn(h);
      await sandbox(platform, 'tokens/revoke');
      const failure = record(await transport.request(USER));
      expect(failure).toMatchObject({ ok: false, kind: 'auth', status: 401 });
      expect(!failure.ok && failure.message).toMatch(/sign in again/i);
      expect(await status(h.auth)).toMatchObject({ v2: { signedIn: false, needsSignIn: true } });
    } finally {
      transport.dispose();
    }
  });
});

describe('secrecy', () => {
  it('no code or token ever appeared in a status, an outcome or an error message', () => {
    expect(issued.size).toBeGreaterThan(10);
    expect(produced.length).toBeGreaterThan(20);
    const leaks = produced.filter((text) => [...issued].some((secret) => text.includes(secret)));
    expect(leaks).toEqual([]);
  });
});
