// The OAuth 2.0 server both interfaces share: authorization code with PKCE (S256), loopback
// redirect URIs on any port (RFC 8252 §7.3), single-use codes, rotating refresh tokens with reuse
// detection, RFC 6749 errors. Tokens are kept as SHA-256 hashes, in memory only.

import { createHash, randomBytes, timingSafeEqual, scryptSync } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CLIENT_ID, SANDBOX_SECRET } from './seed.ts';
import type { Store } from './store.ts';

const CODE_TTL_MS = 60_000;
const REFRESH_TTL_MS = 30 * 86_400_000;

interface CodeGrant {
  userId: number;
  redirectUri: string;
  challenge: string | null;
  scope: string;
  expiresAt: number;
  used: boolean;
  family: string;
}
interface AccessGrant {
  userId: number;
  expiresAt: number;
  family: string;
}
interface RefreshGrant {
  userId: number;
  expiresAt: number;
  family: string;
  rotated: boolean;
}

const hash = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = () => randomBytes(32).toString('base64url');

export function verifyPassword(password: string, stored: string): boolean {
  const [salt, expected] = stored.split(':');
  if (!salt || !expected) return false;
  const actual = scryptSync(password, salt, 32);
  return timingSafeEqual(actual, Buffer.from(expected, 'hex'));
}

/** True for http://127.0.0.1, http://localhost and http://[::1] on any port (RFC 8252 §7.3). */
export function isLoopbackRedirect(uri: string): boolean {
  try {
    const url = new URL(uri);
    return (
      url.protocol === 'http:' &&
      ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname) &&
      !url.hash &&
      !url.username
    );
  } catch {
    return false;
  }
}

/**
 * Client id and secret of an HTTP Basic header (RFC 6749 §2.3.1): each form-encoded, joined by the
 * first colon. Null when the text is not valid percent-encoding.
 */
export function basicCredentials(encoded: string): [string, string | undefined] | null {
  const text = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  const parts = colon === -1 ? [text] : [text.slice(0, colon), text.slice(colon + 1)];
  try {
    const [id, secret] = parts.map((p) => decodeURIComponent(p.replace(/\+/g, ' ')));
    return [id as string, secret];
  } catch {
    return null;
  }
}

export class OAuthServer {
  private codes = new Map<string, CodeGrant>();
  private access = new Map<string, AccessGrant>();
  private refresh = new Map<string, RefreshGrant>();

  constructor(
    private readonly store: () => Store,
    public tokenTtlSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The user a bearer token belongs to, or why not. */
  verify(token: string): { userId: number } | { error: 'invalid' | 'expired' } {
    const grant = this.access.get(hash(token));
    if (!grant) return { error: 'invalid' };
    if (grant.expiresAt <= this.now()) return { error: 'expired' };
    return { userId: grant.userId };
  }

  /** Issues a token pair; used by the token endpoint and by the sandbox's test shortcut. */
  issue(userId: number, family = randomBytes(8).toString('hex')) {
    const access_token = newToken();
    const refresh_token = newToken();
    this.access.set(hash(access_token), {
      userId,
      family,
      expiresAt: this.now() + this.tokenTtlSeconds * 1000,
    });
    this.refresh.set(hash(refresh_token), {
      userId,
      family,
      expiresAt: this.now() + REFRESH_TTL_MS,
      rotated: false,
    });
    return {
      access_token,
      token_type: 'Bearer',
      expires_in: this.tokenTtlSeconds,
      refresh_token,
      scope: '*',
    };
  }

  /** Every access token stops working at once; refresh tokens still do. */
  expireAccessTokens(): number {
    for (const grant of this.access.values()) grant.expiresAt = 0;
    return this.access.size;
  }

  /** Forgets every code and token: everyone must sign in again. */
  revokeAll(): void {
    this.codes.clear();
    this.access.clear();
    this.refresh.clear();
  }

  private revokeFamily(family: string): void {
    for (const [k, g] of this.access) if (g.family === family) this.access.delete(k);
    for (const [k, g] of this.refresh) if (g.family === family) this.refresh.delete(k);
  }

  register(app: FastifyInstance): void {
    app.get('/.well-known/oauth-authorization-server', (req) => {
      const issuer = `${req.protocol}://${req.host}`;
      return {
        issuer,
        authorization_endpoint: `${issuer}/oauth/authorize`,
        token_endpoint: `${issuer}/oauth/token`,
        // RFC 7009 revocation, with the same client authentication as the token endpoint.
        revocation_endpoint: `${issuer}/oauth/revoke`,
        revocation_endpoint_auth_methods_supported: ['client_secret_post', 'none'],
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        // The documented platform's clients send the secret in the body; that is what is advertised
        // (HTTP Basic is still accepted, as the platform's OAuth server does).
        token_endpoint_auth_methods_supported: ['client_secret_post', 'none'],
        scopes_supported: ['*'],
      };
    });
    app.get('/oauth/authorize', (req, reply) =>
      this.authorize(req, reply, (req.query ?? {}) as Record<string, unknown>, false),
    );
    app.post('/oauth/authorize', (req, reply) =>
      this.authorize(req, reply, (req.body ?? {}) as Record<string, unknown>, true),
    );
    app.post('/oauth/token', (req, reply) => this.token(req, reply));
    app.post('/oauth/revoke', (req, reply) => this.revoke(req, reply));
  }

  private authorize(
    _req: FastifyRequest,
    reply: FastifyReply,
    input: Record<string, unknown>,
    submitted: boolean,
  ) {
    const p = Object.fromEntries(
      Object.entries(input).map(([k, v]) => [k, typeof v === 'string' ? v : '']),
    ) as Record<string, string>;
    // Errors about the client or the redirect URI are shown here, never sent to an unchecked URI.
    if (p.client_id !== CLIENT_ID)
      return page(
        reply,
        400,
        'Unknown application',
        `The application “${p.client_id ?? ''}” is not registered with this platform.`,
      );
    if (!p.redirect_uri || !isLoopbackRedirect(p.redirect_uri)) {
      return page(
        reply,
        400,
        'Invalid redirect address',
        'The application asked to return to an address that is not a loopback http:// address.',
      );
    }
    const back = (params: Record<string, string>) => {
      const url = new URL(p.redirect_uri as string);
      for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
      if (p.state) url.searchParams.set('state', p.state);
      return reply.redirect(url.toString(), 302);
    };
    if (p.response_type !== 'code')
      return back({
        error: 'unsupported_response_type',
        error_description: 'Only response_type=code is supported.',
      });
    const scope = p.scope?.trim() || '*';
    if (scope.split(/\s+/).some((s) => s !== '*'))
      return back({ error: 'invalid_scope', error_description: 'The only scope this platform grants is *.' });
    if (p.code_challenge) {
      if ((p.code_challenge_method || 'plain') !== 'S256')
        return back({ error: 'invalid_request', error_description: 'PKCE method must be S256.' });
      if (!/^[A-Za-z0-9._~-]{43,128}$/.test(p.code_challenge))
        return back({ error: 'invalid_request', error_description: 'code_challenge is malformed.' });
    }
    if (submitted && p.action === 'cancel')
      return back({ error: 'access_denied', error_description: 'The user declined to sign in.' });
    if (!submitted) return signInPage(reply, 200, p, null);
    const user = this.store().state.users.find(
      (u) => u.email.toLowerCase() === (p.email ?? '').trim().toLowerCase(),
    );
    if (!user || !verifyPassword(p.password ?? '', user.passwordHash)) {
      return signInPage(reply, 401, p, 'The email or password is incorrect. Check both and try again.');
    }
    const code = newToken();
    this.codes.set(hash(code), {
      userId: user.id,
      redirectUri: p.redirect_uri,
      challenge: p.code_challenge || null,
      scope,
      expiresAt: this.now() + CODE_TTL_MS,
      used: false,
      family: randomBytes(8).toString('hex'),
    });
    return back({ code });
  }

  /**
   * The client a request of the token or revocation endpoint authenticates as (RFC 6749 §2.3: its
   * id, with the secret in the body or by HTTP Basic, or its id alone as a public client), or
   * null when the failure has been answered (401 invalid_client, RFC 6749 §5.2).
   */
  private client(req: FastifyRequest, reply: FastifyReply, body: Record<string, unknown>): string | null {
    const str = (k: string) => (typeof body[k] === 'string' ? body[k] : undefined);
    const fail = (error_description: string) =>
      void reply
        .code(401)
        .header('cache-control', 'no-store')
        .send({ error: 'invalid_client', error_description });
    let clientId = str('client_id');
    let secret = str('client_secret');
    const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
    if (basic?.[1]) {
      const credentials = basicCredentials(basic[1]);
      // RFC 6749 §5.2: a client that tried HTTP Basic hears 401 with a Basic challenge.
      if (!credentials) {
        reply.header('www-authenticate', 'Basic realm="sandbox"');
        fail('The HTTP Basic credentials are not valid form-encoded text.');
        return null;
      }
      [clientId, secret] = credentials;
    }
    if (clientId !== CLIENT_ID || (secret !== undefined && secret !== '' && secret !== SANDBOX_SECRET)) {
      if (basic) reply.header('www-authenticate', 'Basic realm="sandbox"');
      fail('Client authentication failed.');
      return null;
    }
    return clientId;
  }

  /**
   * RFC 7009: the client's token is revoked, whichever kind it is (the hint only says where to look
   * first). A refresh token takes every token of its sign-in with it (§2.1: the access tokens of
   * the same grant); an access token goes alone. A token unknown, expired or already revoked is
   * answered 200 as well (§2.2): the client has nothing left to do.
   */
  private revoke(req: FastifyRequest, reply: FastifyReply) {
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (this.client(req, reply, body) === null) return reply;
    const token = typeof body.token === 'string' ? body.token : '';
    if (token === '')
      return reply
        .code(400)
        .header('cache-control', 'no-store')
        .send({ error: 'invalid_request', error_description: 'token is required.' });
    const key = hash(token);
    const refresh = this.refresh.get(key);
    if (refresh) this.revokeFamily(refresh.family);
    else this.access.delete(key);
    return reply.code(200).header('cache-control', 'no-store').send();
  }

  private token(req: FastifyRequest, reply: FastifyReply) {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const str = (k: string) => (typeof body[k] === 'string' ? body[k] : undefined);
    const fail = (status: number, error: string, error_description: string) =>
      reply.code(status).header('cache-control', 'no-store').send({ error, error_description });
    if (this.client(req, reply, body) === null) return reply;
    const grantType = str('grant_type');
    if (grantType === 'authorization_code') {
      const code = str('code');
      const grant = code ? this.codes.get(hash(code)) : undefined;
      if (!grant) return fail(400, 'invalid_grant', 'The authorization code is unknown.');
      if (grant.used) {
        this.revokeFamily(grant.family);
        return fail(
          400,
          'invalid_grant',
          'The authorization code was already used; tokens issued from it are revoked.',
        );
      }
      grant.used = true;
      if (grant.expiresAt <= this.now())
        return fail(400, 'invalid_grant', 'The authorization code has expired.');
      if (str('redirect_uri') !== grant.redirectUri)
        return fail(400, 'invalid_grant', 'redirect_uri does not match the authorization request.');
      if (grant.challenge) {
        const verifier = str('code_verifier');
        if (!verifier) return fail(400, 'invalid_request', 'code_verifier is required.');
        if (createHash('sha256').update(verifier).digest('base64url') !== grant.challenge) {
          return fail(400, 'invalid_grant', 'code_verifier does not match the code challenge.');
        }
      }
      return reply.header('cache-control', 'no-store').send(this.issue(grant.userId, grant.family));
    }
    if (grantType === 'refresh_token') {
      const token = str('refresh_token');
      const grant = token ? this.refresh.get(hash(token)) : undefined;
      if (!grant || grant.expiresAt <= this.now())
        return fail(400, 'invalid_grant', 'The refresh token is invalid or expired.');
      if (grant.rotated) {
        this.revokeFamily(grant.family);
        return fail(
          400,
          'invalid_grant',
          'The refresh token was already used; every token of this sign-in is revoked.',
        );
      }
      grant.rotated = true;
      return reply.header('cache-control', 'no-store').send(this.issue(grant.userId, grant.family));
    }
    return fail(400, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.');
  }
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(reply: FastifyReply, status: number, title: string, message: string) {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .send(layout(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`));
}

function signInPage(reply: FastifyReply, status: number, p: Record<string, string>, error: string | null) {
  const keep = [
    'response_type',
    'client_id',
    'redirect_uri',
    'state',
    'scope',
    'code_challenge',
    'code_challenge_method',
  ];
  const hidden = keep
    .filter((k) => p[k])
    .map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(p[k] as string)}">`)
    .join('');
  const body = `
    <h1>Sign in to the advisory platform</h1>
    <p class="sub">Sandbox — sample data only</p>
    ${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
    <form method="post" action="/oauth/authorize">
      ${hidden}
      <label for="email">Email</label>
      <input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(p.email ?? '')}" autofocus>
      <label for="password">Password</label>
      <input id="password" name="password" type="password" autocomplete="current-password" required>
      <div class="actions">
        <button type="submit" name="action" value="sign-in">Sign in</button>
        <button type="submit" name="action" value="cancel" formnovalidate class="secondary">Cancel</button>
      </div>
    </form>
    <p class="hint">Sandbox users: advisor@sandbox.test and assistant@sandbox.test, password “sandbox”.</p>`;
  return reply.code(status).type('text/html; charset=utf-8').send(layout('Sign in', body));
}

function layout(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} · Sandbox platform</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:15px/1.5 system-ui,sans-serif;background:#f3f5f8;color:#1d2433;margin:0;display:grid;place-items:center;min-height:100vh}
main{background:#fff;padding:32px 36px;border-radius:10px;box-shadow:0 2px 12px #0002;width:340px}
h1{font-size:20px;margin:0 0 4px}.sub{color:#5b6577;margin:0 0 18px}
label{display:block;font-weight:600;margin:12px 0 4px}input{width:100%;box-sizing:border-box;padding:8px 10px;border:1px solid #b8c0cc;border-radius:6px;font:inherit}
.actions{display:flex;gap:8px;margin-top:18px}button{padding:8px 16px;border:0;border-radius:6px;background:#2356c7;color:#fff;font:inherit;cursor:pointer}
button.secondary{background:#e4e8ee;color:#1d2433}.error{background:#fdecec;color:#9b1c1c;padding:8px 10px;border-radius:6px}
.hint{color:#5b6577;font-size:13px;margin-top:18px}
</style></head><body><main>${body}</main></body></html>`;
}
