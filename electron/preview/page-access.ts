// Who may open the preview's page and call its bridge. The address the host prints carries a
// one-time token; the first load trades it for an HttpOnly, SameSite=Strict cookie, so that no
// other local process (a curl of the page) can read the bridge key or call with the advisor's
// session. Requests must be addressed to a loopback name of this port (DNS rebinding).

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
  /** Cookies are per host name, not per port: the port in the name keeps two hosts apart. */
  readonly cookieName: string;

  constructor(private readonly port: number) {
    this.cookieName = `advisor-preview-${port}`;
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

  /** The Set-Cookie header for a session: never readable by scripts, never sent cross-site. */
  cookieHeader(session: string): string {
    return `${this.cookieName}=${session}; Path=/; HttpOnly; SameSite=Strict`;
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
