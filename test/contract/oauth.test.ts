// Contract tests of the OAuth 2.0 server both interfaces share, driven by openid-client 6 the way
// the app drives it: metadata discovery, authorization code with PKCE and state, a loopback
// redirect URI, the sign-in form submitted programmatically, refresh with rotation, expiry.

import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Platform } from '../platform/server.ts';
import {
  ADVISOR,
  ASSISTANT,
  Api,
  PASSWORD,
  control,
  expectJsonError,
  sleep,
  start,
  type User,
  contractSandbox,
} from './helpers.ts';

const CLIENT_ID = 'advisor-desk';
const SECRET = 'sandbox-secret';
const REDIRECT = 'http://127.0.0.1:53682/callback';

const platform = contractSandbox();

interface FormPage {
  status: number;
  html: string;
  action: string;
  fields: Record<string, string>;
}

const decode = (s: string) =>
  s
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

function attributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of tag.matchAll(/([a-zA-Z_:][\w:.-]*)\s*=\s*"([^"]*)"/g))
    out[(m[1] as string).toLowerCase()] = decode(m[2] as string);
  return out;
}

/** Reads the sign-in form of an HTML page: where it posts and the values of its inputs. */
function readForm(html: string, pageUrl: string): { action: string; fields: Record<string, string> } {
  const form = /<form\b[^>]*>/i.exec(html);
  if (!form) throw new Error(`no form on the page:\n${html}`);
  const action = new URL(attributes(form[0]).action ?? '', pageUrl).href;
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input\b[^>]*>/gi)) {
    const a = attributes(m[0]);
    if (a.name && a.type === 'hidden') fields[a.name] = a.value ?? '';
  }
  return { action, fields };
}

async function openSignIn(url: URL | string): Promise<FormPage> {
  const res = await fetch(url, { redirect: 'manual' });
  const html = await res.text();
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  return {
    status: res.status,
    html,
    ...(res.status === 200 ? readForm(html, String(url)) : { action: '', fields: {} }),
  };
}

/** Submits the sign-in form as a browser would (without following the redirect). */
function submit(
  page: { action: string; fields: Record<string, string> },
  email: string,
  password: string,
  action = 'sign-in',
): Promise<Response> {
  return fetch(page.action, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...page.fields, email, password, action }),
  });
}

async function discover(
  p: Platform,
  clientAuth: oidc.ClientAuth = oidc.None(),
  secret?: string,
): Promise<oidc.Configuration> {
  return oidc.discovery(new URL(p.url), CLIENT_ID, secret, clientAuth, {
    algorithm: 'oauth2',
    execute: [oidc.allowInsecureRequests],
  });
}

interface Started {
  url: URL;
  verifier: string;
  state: string;
}

async function begin(config: oidc.Configuration, extra: Record<string, string> = {}): Promise<Started> {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope: '*',
    state,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    ...extra,
  });
  return { url, verifier, state };
}

/** Signs in through the form and answers the callback URL the browser would be sent to. */
async function callbackUrl(started: Started, email = ADVISOR, password = PASSWORD): Promise<URL> {
  const page = await openSignIn(started.url);
  expect(page.status).toBe(200);
  const res = await submit(page, email, password);
  expect(res.status).toBe(302);
  const location = res.headers.get('location');
  expect(location).toBeTruthy();
  return new URL(location as string);
}

async function signInTokens(config: oidc.Configuration, email = ADVISOR) {
  const started = await begin(config);
  const cb = await callbackUrl(started, email);
  return oidc.authorizationCodeGrant(config, cb, {
    pkceCodeVerifier: started.verifier,
    expectedState: started.state,
  });
}

async function rejection(
  promise: Promise<unknown>,
): Promise<Error & { code?: string; error?: string; status?: number }> {
  try {
    await promise;
  } catch (e) {
    return e as Error & { code?: string; error?: string; status?: number };
  }
  throw new Error('expected the promise to reject');
}

const v2 = (p: Platform, token: string): Api => new Api(`${p.url}/api/v2`, token);

describe('metadata', () => {
  it('publishes RFC 8414 metadata at /.well-known/oauth-authorization-server', async () => {
    const res = await fetch(`${platform.url}/.well-known/oauth-authorization-server`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const m = (await res.json()) as Record<string, unknown>;
    expect(m.issuer).toBe(platform.url);
    expect(m.authorization_endpoint).toBe(`${platform.url}/oauth/authorize`);
    expect(m.token_endpoint).toBe(`${platform.url}/oauth/token`);
    expect(m.code_challenge_methods_supported).toContain('S256');
    expect(m.response_types_supported).toEqual(['code']);
    expect(m.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token']));
    expect(m.scopes_supported).toEqual(['*']);
    const config = await discover(platform);
    expect(config.serverMetadata().issuer).toBe(platform.url);
  });
});

describe('authorization code with PKCE', () => {
  it('signs in through the form and the access token works on the version 2 interface', async () => {
    const config = await discover(platform);
    const started = await begin(config);
    const page = await openSignIn(started.url);
    expect(page.status).toBe(200);
    expect(page.fields).toMatchObject({
      client_id: CLIENT_ID,
      redirect_uri: REDIRECT,
      state: started.state,
      scope: '*',
      code_challenge_method: 'S256',
    });
    const res = await submit(page, ADVISOR, PASSWORD);
    expect(res.status).toBe(302);
    const cb = new URL(res.headers.get('location') as string);
    expect(`${cb.origin}${cb.pathname}`).toBe(REDIRECT);
    expect(cb.searchParams.get('state')).toBe(started.state);
    expect(cb.searchParams.get('code')).toBeTruthy();

    const tokens = await oidc.authorizationCodeGrant(config, cb, {
      pkceCodeVerifier: started.verifier,
      expectedState: started.state,
    });
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.scope).toBe('*');
    expect(tokens.refresh_token).toBeTruthy();
    const me = await v2(platform, tokens.access_token).get<User>('/user');
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(ADVISOR);
  });

  it('issues tokens for the user who signed in, on any loopback port', async () => {
    const config = await discover(platform);
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const redirect = 'http://localhost:61999/cb';
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirect,
      scope: '*',
      state,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const res = await submit(await openSignIn(url), ASSISTANT.toUpperCase(), PASSWORD);
    expect(res.status).toBe(302);
    const cb = new URL(res.headers.get('location') as string);
    expect(cb.host).toBe('localhost:61999');
    const tokens = await oidc.authorizationCodeGrant(config, cb, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    expect((await v2(platform, tokens.access_token).get<User>('/user')).body.email).toBe(ASSISTANT);
  });

  it('accepts the client secret, in the body or with HTTP Basic, and refuses a wrong one', async () => {
    for (const auth of [oidc.ClientSecretPost(SECRET), oidc.ClientSecretBasic(SECRET)]) {
      const config = await discover(platform, auth, SECRET);
      const tokens = await signInTokens(config);
      expect((await v2(platform, tokens.access_token).get('/user')).status).toBe(200);
    }
    const wrong = await discover(platform, oidc.ClientSecretPost('not-the-secret'), 'not-the-secret');
    const started = await begin(wrong);
    const err = await rejection(
      oidc.authorizationCodeGrant(wrong, await callbackUrl(started), {
        pkceCodeVerifier: started.verifier,
        expectedState: started.state,
      }),
    );
    expect(err).toBeInstanceOf(oidc.ResponseBodyError);
    expect(err.error).toBe('invalid_client');
    expect(err.status).toBe(401);
  });

  it('verifies PKCE: a wrong code verifier is refused with invalid_grant', async () => {
    const config = await discover(platform);
    const started = await begin(config);
    const cb = await callbackUrl(started);
    const err = await rejection(
      oidc.authorizationCodeGrant(config, cb, {
        pkceCodeVerifier: oidc.randomPKCECodeVerifier(),
        expectedState: started.state,
      }),
    );
    expect(err).toBeInstanceOf(oidc.ResponseBodyError);
    expect(err.error).toBe('invalid_grant');
    expect(err.status).toBe(400);
  });

  it('requires the code verifier when a challenge was sent', async () => {
    const config = await discover(platform);
    const started = await begin(config);
    const cb = await callbackUrl(started);
    const res = await fetch(`${platform.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: cb.searchParams.get('code') as string,
        redirect_uri: REDIRECT,
        client_id: CLIENT_ID,
      }),
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as { error: string; error_description: string };
    expect(body.error).toBe('invalid_request');
    expect(typeof body.error_description).toBe('string');
  });

  it('answers the token request as RFC 6749 asks: JSON, Bearer, no-store', async () => {
    const config = await discover(platform);
    const started = await begin(config);
    const cb = await callbackUrl(started);
    const res = await fetch(`${platform.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: cb.searchParams.get('code') as string,
        redirect_uri: REDIRECT,
        client_id: CLIENT_ID,
        code_verifier: started.verifier,
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: '*' });
    expect(typeof body.access_token).toBe('string');
    expect(typeof body.refresh_token).toBe('string');
    expect(body.access_token).not.toBe(body.refresh_token);
  });

  it('refuses a redirect_uri at the token endpoint that differs from the authorization request', async () => {
    const config = await discover(platform);
    const started = await begin(config);
    const cb = await callbackUrl(started);
    const res = await fetch(`${platform.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: cb.searchParams.get('code') as string,
        redirect_uri: 'http://127.0.0.1:1/other',
        client_id: CLIENT_ID,
        code_verifier: started.verifier,
      }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe('invalid_grant');
  });

  it('openid-client checks the state: a mismatch is refused before the code is spent', async () => {
    const config = await discover(platform);
    const started = await begin(config);
    const cb = await callbackUrl(started);
    const err = await rejection(
      oidc.authorizationCodeGrant(config, cb, {
        pkceCodeVerifier: started.verifier,
        expectedState: oidc.randomState(),
      }),
    );
    expect(err).toBeInstanceOf(oidc.ClientError);
    expect(err.code).toBe('OAUTH_INVALID_RESPONSE');
    expect(String((err.cause as Error).message)).toMatch(/"state"/);
    const stripped = new URL(cb);
    stripped.searchParams.delete('state');
    const missing = await rejection(
      oidc.authorizationCodeGrant(config, stripped, {
        pkceCodeVerifier: started.verifier,
        expectedState: started.state,
      }),
    );
    expect(missing).toBeInstanceOf(oidc.ClientError);
    expect(String((missing.cause as Error).message)).toMatch(/"state"/);
    // The server never saw the code, so the genuine callback still works.
    const tokens = await oidc.authorizationCodeGrant(config, cb, {
      pkceCodeVerifier: started.verifier,
      expectedState: started.state,
    });
    expect(tokens.access_token).toBeTruthy();
  });

  it('refuses a code used twice with invalid_grant and revokes the tokens issued from it', async () => {
    const config = await discover(platform);
    const started = await begin(config);
    const cb = await callbackUrl(started);
    const first = await oidc.authorizationCodeGrant(config, cb, {
      pkceCodeVerifier: started.verifier,
      expectedState: started.state,
    });
    expect((await v2(platform, first.access_token).get('/user')).status).toBe(200);
    const err = await rejection(
      oidc.authorizationCodeGrant(config, cb, {
        pkceCodeVerifier: started.verifier,
        expectedState: started.state,
      }),
    );
    expect(err).toBeInstanceOf(oidc.ResponseBodyError);
    expect(err.error).toBe('invalid_grant');
    expectJsonError(await v2(platform, first.access_token).get('/user'), 401);
    const refresh = await rejection(oidc.refreshTokenGrant(config, first.refresh_token as string));
    expect(refresh.error).toBe('invalid_grant');
  });

  it('refuses an unknown code and an unknown grant type', async () => {
    const post = (body: Record<string, string>) =>
      fetch(`${platform.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_id: CLIENT_ID, ...body }),
      });
    const unknown = await post({
      grant_type: 'authorization_code',
      code: 'made-up',
      redirect_uri: REDIRECT,
      code_verifier: oidc.randomPKCECodeVerifier(),
    });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: string }).error).toBe('invalid_grant');
    const password = await post({ grant_type: 'password', username: ADVISOR, password: PASSWORD });
    expect(password.status).toBe(400);
    expect(((await password.json()) as { error: string }).error).toBe('unsupported_grant_type');
    const client = await fetch(`${platform.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: 'someone-else',
        grant_type: 'refresh_token',
        refresh_token: 'x',
      }),
    });
    expect(client.status).toBe(401);
    expect(((await client.json()) as { error: string }).error).toBe('invalid_client');
  });
});

describe('HTTP Basic client authentication', () => {
  const basic = (text: string) => `Basic ${Buffer.from(text, 'utf8').toString('base64')}`;
  const refresh = (authorization: string, refreshToken: string) =>
    fetch(`${platform.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }),
    });

  it('answers credentials that are not valid percent-encoding with invalid_client (401) and a Basic challenge', async () => {
    const { refresh_token } = platform.control.token(ADVISOR);
    for (const text of ['%zz:secret', `${CLIENT_ID}:%E0%A4%A`, '%:%', `${CLIENT_ID}:%`, '%ff%fe']) {
      const res = await refresh(basic(text), refresh_token);
      expect(res.status, text).toBe(401);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('www-authenticate'), text).toMatch(/^Basic\b/);
      expect(((await res.json()) as { error: string }).error).toBe('invalid_client');
    }
    // A wrong secret over Basic is invalid_client too, with the same challenge.
    const wrong = await refresh(basic(`${CLIENT_ID}:nope`), refresh_token);
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic\b/);
    expect(((await wrong.json()) as { error: string }).error).toBe('invalid_client');
    // The refused requests did not spend the refresh token.
    expect((await refresh(basic(`${CLIENT_ID}:${SECRET}`), refresh_token)).status).toBe(200);
  });

  it('decodes form-encoded credentials (RFC 6749 §2.3.1) and splits them at the first colon', async () => {
    const encoded = `${encodeURIComponent(CLIENT_ID)}:${encodeURIComponent(SECRET).replace(/-/g, '%2D')}`;
    const first = platform.control.token(ADVISOR).refresh_token;
    expect((await refresh(basic(encoded), first)).status).toBe(200);
    // A secret with a colon in it is one secret (here a wrong one), not a secret and a rest.
    const second = platform.control.token(ADVISOR).refresh_token;
    const colon = await refresh(basic(`${CLIENT_ID}:${SECRET}:extra`), second);
    expect(colon.status).toBe(401);
    expect(((await colon.json()) as { error: string }).error).toBe('invalid_client');
  });
});

describe('the sign-in page', () => {
  it('a wrong password re-renders the form with an error (401), keeping the request, and a retry succeeds', async () => {
    const config = await discover(platform);
    const started = await begin(config);
    const page = await openSignIn(started.url);
    const res = await submit(page, ADVISOR, 'wrong-password');
    expect(res.status).toBe(401);
    expect(res.headers.get('location')).toBeNull();
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toMatch(/role="alert"/);
    expect(html).toMatch(/incorrect/i);
    const again = readForm(html, page.action);
    expect(again.fields).toEqual(page.fields);
    expect(html).toContain(`value="${ADVISOR}"`);
    const unknownUser = await submit(again, 'nobody@sandbox.test', PASSWORD);
    expect(unknownUser.status).toBe(401);
    await unknownUser.text();
    const ok = await submit(again, ADVISOR, PASSWORD);
    expect(ok.status).toBe(302);
    const tokens = await oidc.authorizationCodeGrant(config, new URL(ok.headers.get('location') as string), {
      pkceCodeVerifier: started.verifier,
      expectedState: started.state,
    });
    expect(tokens.access_token).toBeTruthy();
  });

  it('refuses a redirect URI that is not loopback http with an HTML error page, never a redirect', async () => {
    const config = await discover(platform);
    for (const redirect of [
      'https://evil.example/callback',
      'http://evil.example:53682/callback',
      'https://127.0.0.1:53682/callback',
      'http://127.0.0.1:53682/callback#frag',
      'not a url',
    ]) {
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirect,
        scope: '*',
        state: oidc.randomState(),
      });
      const res = await fetch(url, { redirect: 'manual' });
      expect(res.status, redirect).toBe(400);
      expect(res.headers.get('location'), redirect).toBeNull();
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await res.text()).toMatch(/<h1>[^<]*redirect/i);
    }
    // The form post is checked the same way.
    const started = await begin(config);
    const page = await openSignIn(started.url);
    const res = await submit(
      { action: page.action, fields: { ...page.fields, redirect_uri: 'https://evil.example/callback' } },
      ADVISOR,
      PASSWORD,
    );
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    await res.text();
  });

  it('refuses an unknown client with an HTML error page', async () => {
    const url = new URL(`${platform.url}/oauth/authorize`);
    url.search = new URLSearchParams({
      client_id: 'not-registered',
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: '*',
    }).toString();
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    await res.text();
  });

  it('an invalid scope redirects back with error=invalid_scope and the state', async () => {
    const config = await discover(platform);
    const started = await begin(config, { scope: 'openid profile' });
    const res = await fetch(started.url, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const cb = new URL(res.headers.get('location') as string);
    expect(`${cb.origin}${cb.pathname}`).toBe(REDIRECT);
    expect(cb.searchParams.get('error')).toBe('invalid_scope');
    expect(cb.searchParams.get('state')).toBe(started.state);
    expect(cb.searchParams.get('code')).toBeNull();
    const err = await rejection(
      oidc.authorizationCodeGrant(config, cb, {
        pkceCodeVerifier: started.verifier,
        expectedState: started.state,
      }),
    );
    expect(err).toBeInstanceOf(oidc.AuthorizationResponseError);
    expect(err.error).toBe('invalid_scope');
  });

  it('other request errors redirect back too: a plain PKCE method, a wrong response type, a cancelled sign-in', async () => {
    const config = await discover(platform);
    const plain = await begin(config, { code_challenge_method: 'plain' });
    const r1 = await fetch(plain.url, { redirect: 'manual' });
    expect(r1.status).toBe(302);
    expect(new URL(r1.headers.get('location') as string).searchParams.get('error')).toBe('invalid_request');
    const token = await begin(config, { response_type: 'token' });
    const r2 = await fetch(token.url, { redirect: 'manual' });
    expect(r2.status).toBe(302);
    expect(new URL(r2.headers.get('location') as string).searchParams.get('error')).toBe(
      'unsupported_response_type',
    );
    const cancelled = await begin(config);
    const r3 = await submit(await openSignIn(cancelled.url), '', '', 'cancel');
    expect(r3.status).toBe(302);
    const cb = new URL(r3.headers.get('location') as string);
    expect(cb.searchParams.get('error')).toBe('access_denied');
    expect(cb.searchParams.get('state')).toBe(cancelled.state);
  });
});

describe('refresh', () => {
  it('rotates the refresh token; reusing the old one is refused and revokes the new tokens', async () => {
    const config = await discover(platform);
    const first = await signInTokens(config);
    const second = await oidc.refreshTokenGrant(config, first.refresh_token as string);
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).toBeTruthy();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.expires_in).toBe(3600);
    expect((await v2(platform, second.access_token).get<User>('/user')).body.email).toBe(ADVISOR);

    const reuse = await rejection(oidc.refreshTokenGrant(config, first.refresh_token as string));
    expect(reuse).toBeInstanceOf(oidc.ResponseBodyError);
    expect(reuse.error).toBe('invalid_grant');
    // Reuse means theft: every token of this sign-in is gone.
    expectJsonError(await v2(platform, second.access_token).get('/user'), 401);
    const next = await rejection(oidc.refreshTokenGrant(config, second.refresh_token as string));
    expect(next.error).toBe('invalid_grant');
    // Another sign-in is not affected.
    const other = await signInTokens(config);
    expect((await v2(platform, other.access_token).get('/user')).status).toBe(200);
  });

  it('a refresh token is not an access token', async () => {
    const config = await discover(platform);
    const tokens = await signInTokens(config);
    expectJsonError(await v2(platform, tokens.refresh_token as string).get('/user'), 401);
    const bogus = await rejection(oidc.refreshTokenGrant(config, 'not-a-refresh-token'));
    expect(bogus.error).toBe('invalid_grant');
  });

  it('an expired access token is answered 401 with WWW-Authenticate; a refresh brings a working one', async () => {
    const config = await discover(platform);
    const tokens = await signInTokens(config);
    const api = v2(platform, tokens.access_token);
    expect((await api.get('/user')).status).toBe(200);
    await control(platform, 'tokens/expire', {});
    const expired = await api.get('/user');
    expectJsonError(expired, 401);
    expect(expired.headers.get('www-authenticate')).toMatch(/^Bearer\b.*error="invalid_token"/);
    expect((expired.body as { message: string }).message).toMatch(/expired/i);
    const fresh = await oidc.refreshTokenGrant(config, tokens.refresh_token as string);
    expect((await v2(platform, fresh.access_token).get<User>('/user')).body.email).toBe(ADVISOR);
  });
});

describe('revocation (RFC 7009)', () => {
  /** A revocation request sent by hand (form-encoded, as §2.1 says), for what openid-client never sends. */
  const revokeRaw = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${platform.url}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields).toString(),
    });

  it('is advertised in the metadata with the client authentication it takes', async () => {
    const config = await discover(platform);
    expect(config.serverMetadata().revocation_endpoint).toBe(`${platform.url}/oauth/revoke`);
    expect(config.serverMetadata().revocation_endpoint_auth_methods_supported).toEqual(
      expect.arrayContaining(['client_secret_post', 'none']),
    );
  });

  it('revoking a refresh token ends it and the access tokens of its sign-in; another sign-in keeps working', async () => {
    const config = await discover(platform);
    const tokens = await signInTokens(config);
    const other = await signInTokens(config);
    await oidc.tokenRevocation(config, tokens.refresh_token as string, { token_type_hint: 'refresh_token' });
    expectJsonError(await v2(platform, tokens.access_token).get('/user'), 401);
    expect((await rejection(oidc.refreshTokenGrant(config, tokens.refresh_token as string))).error).toBe(
      'invalid_grant',
    );
    expect((await v2(platform, other.access_token).get('/user')).status).toBe(200);
  });

  it('revoking an access token ends it at once, whatever the hint says', async () => {
    const config = await discover(platform);
    const tokens = await signInTokens(config);
    expect((await v2(platform, tokens.access_token).get('/user')).status).toBe(200);
    // A wrong hint only says where to look first (§2.1): the token is found and revoked anyway.
    await oidc.tokenRevocation(config, tokens.access_token, { token_type_hint: 'refresh_token' });
    expectJsonError(await v2(platform, tokens.access_token).get('/user'), 401);
  });

  it('answers 200 with no body for a token it does not know, or knows no more (§2.2)', async () => {
    const config = await discover(platform);
    const tokens = await signInTokens(config);
    await oidc.tokenRevocation(config, tokens.refresh_token as string);
    for (const token of ['not-a-token-of-this-server', tokens.refresh_token as string, tokens.access_token]) {
      const res = await revokeRaw({ token, client_id: CLIENT_ID });
      expect(res.status, token).toBe(200);
      expect(await res.text()).toBe('');
    }
  });

  it('authenticates the client as the token endpoint does: its id, with the secret in the body or by Basic', async () => {
    for (const [auth, secret] of [
      [oidc.ClientSecretPost(SECRET), SECRET],
      [oidc.ClientSecretBasic(SECRET), SECRET],
      [oidc.None(), undefined],
    ] as const) {
      const config = await discover(platform, auth, secret);
      const tokens = await signInTokens(config);
      await oidc.tokenRevocation(config, tokens.access_token);
      expectJsonError(await v2(platform, tokens.access_token).get('/user'), 401);
    }
    const config = await discover(platform);
    const tokens = await signInTokens(config);
    // A wrong secret, an unknown client, Basic credentials that are not form-encoded: 401
    // invalid_client, and the token still works.
    for (const [fields, headers] of [
      [{ token: tokens.access_token, client_id: CLIENT_ID, client_secret: 'not-the-secret' }, {}],
      [{ token: tokens.access_token, client_id: 'someone-else' }, {}],
      [{ token: tokens.access_token }, {}],
      [{ token: tokens.access_token }, { authorization: `Basic ${Buffer.from('%zz:x').toString('base64')}` }],
    ] as [Record<string, string>, Record<string, string>][]) {
      const res = await revokeRaw(fields, headers);
      expect(res.status, JSON.stringify(fields)).toBe(401);
      expect(((await res.json()) as { error: string }).error).toBe('invalid_client');
    }
    expect((await v2(platform, tokens.access_token).get('/user')).status).toBe(200);
    // No token at all: invalid_request (RFC 6749 §5.2, which §2.2.1 refers to).
    const none = await revokeRaw({ client_id: CLIENT_ID });
    expect(none.status).toBe(400);
    expect(((await none.json()) as { error: string }).error).toBe('invalid_request');
  });
});

describe('token lifetime', () => {
  let short: Platform;

  beforeAll(async () => {
    short = await start({ tokenTtl: 1 });
  });

  afterAll(async () => {
    await short.close();
  });

  it('honours the tokenTtl option: expires_in and the actual expiry', async () => {
    const config = await discover(short);
    const tokens = await signInTokens(config);
    expect(tokens.expires_in).toBe(1);
    const api = v2(short, tokens.access_token);
    expect((await api.get('/user')).status).toBe(200);
    await sleep(1100);
    const expired = await api.get('/user');
    expectJsonError(expired, 401);
    expect(expired.headers.get('www-authenticate')).toMatch(/invalid_token/);
    const fresh = await oidc.refreshTokenGrant(config, tokens.refresh_token as string);
    expect(fresh.expires_in).toBe(1);
    expect((await v2(short, fresh.access_token).get('/user')).status).toBe(200);
    const shortcut = (await (
      await fetch(`${short.url}/__sandbox/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: ADVISOR }),
      })
    ).json()) as { expires_in: number };
    expect(shortcut.expires_in).toBe(1);
  });
});
