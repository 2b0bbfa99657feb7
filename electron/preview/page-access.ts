// Who may open the preview's page and call its bridge. The address the host prints carries a
// one-time token; the first load trades it for an HttpOnly, SameSite=Strict cookie. A browser
// sends a cookie of 127.0.0.1 to every port of it (the sandbox's sign-in page among them), so the
// cookie is bound to a per-run path as well: the page, its files and its bridge live under
// `/<prefix>/`, a random name only the token's redirect reveals, and the cookie's Path is that
// prefix. A browser never sends it anywhere else, and a local program that received what the
// browser sends finds neither the cookie nor the path. Requests must also be addressed to a
// loopback name of this port (DNS rebinding) and, for the bridge, come from the page's origin.

import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The names the host answers to: it listens on 127.0.0.1, which `localhost` also reaches. */
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

const secret = () => randomBytes(24).toString('base64url');

export function sameSecret(given: string | undefined, expected: string): boolean {
  const a = Buffer.from(given ?? '');
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export class PageAccess {
  /** Tokens handed out and not used yet; each opens one browser once. */
  private readonly tokens = new Set<string>();
  /** Cookies the host gave to browsers that came with a token. */
  private readonly sessions = new Set<string>();
  /** Per port and per run: a cookie of an earlier run (or another host) is never this one's. */
  readonly cookieName: string;
  /** `/<random>`: the path of everything the host serves to an admitted browser, and the cookie's. */
  readonly prefix: string;

  constructor(private readonly port: number) {
    const run = randomBytes(4).toString('hex');
    this.cookieName = `advisor-preview-${port}-${run}`;
    this.prefix = `/${secret()}`;
  }

  /** A fresh one-time token, for the address printed to whoever started the host. */
  issueToken(): string {
    const token = secret();
    this.tokens.add(token);
    return token;
  }

  /** Trades a token for a session cookie value; null when the token is unknown or used already. */
  redeem(token: string): string | null {
    const known = [...this.tokens].find((t) => sameSecret(token, t));
    if (known === undefined) return null;
    this.tokens.delete(known);
    const session = secret();
    this.sessions.add(session);
    return session;
  }

  /**
   * The Set-Cookie header for a session: never readable by scripts, never sent cross-site, and
   * sent by the browser only to this run's path (the browser ignores the port; the path it does not).
   */
  cookieHeader(session: string): string {
    return `${this.cookieName}=${session}; Path=${this.prefix}; HttpOnly; SameSite=Strict`;
  }

  /** The path below the prefix ('' for the prefix itself), or null when `path` is not under it. */
  within(path: string): string | null {
    if (path === this.prefix) return '';
    return path.startsWith(`${this.prefix}/`) ? path.slice(this.prefix.length) : null;
  }

  /** True when the request carries a cookie this host gave out. */
  admitted(req: IncomingMessage): boolean {
    const value = cookieValue(req.headers.cookie, this.cookieName);
    return value !== undefined && [...this.sessions].some((s) => sameSecret(value, s));
  }

  /** The Host header names this port on a loopback name (anything else may be DNS rebinding). */
  addressedToUs(req: IncomingMessage): boolean {
    return LOOPBACK_NAMES.some((name) => req.headers.host === `${name}:${this.port}`);
  }

  /** The Origin is this host's own page, under the same name the request was addressed to. */
  fromOwnPage(req: IncomingMessage): boolean {
    return this.addressedToUs(req) && req.headers.origin === `http://${req.headers.host}`;
  }
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}
