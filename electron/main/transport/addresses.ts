// Where a request may go: the interface's base address from the connection profile (never plain
// http across the network), a path below it, or a file address the interface returned, and why
// anything else is refused before a byte is sent, so the bearer token never leaves the interface.

import type { ApiFailure, ApiName, ApiRequest } from '@shared/api/request.ts';
import { insecureAddress } from '@shared/settings.ts';
import { fileAddressProblem } from '../files/file-addresses.ts';
import { refusedRequest } from './failures.ts';

/** The base address of an interface as the profile gives it, or why nothing may be sent there. */
export function interfaceBase(api: ApiName, baseUrl: unknown): URL | ApiFailure {
  let base: URL;
  try {
    base = new URL(String(baseUrl).replace(/\/+$/, ''));
  } catch {
    return refusedRequest(`The address of interface ${api} in the connection settings is not valid.`);
  }
  // The bearer token goes there: never in the clear across the network.
  const insecure = insecureAddress(base.href);
  if (insecure) return refusedRequest(`The address of interface ${api} ${insecure}; nothing was sent.`);
  return base;
}

/**
 * Why `url` is the sign-in server's rather than an interface's, or null: its OAuth endpoints
 * (`{auth_url}/oauth/…`, as both documents place them) and the origin's `/.well-known/` metadata.
 * A base address moved to `/` of the sign-in server's origin keeps the sign-in (same server), and
 * every path of that origin is then below it: the bearer token still never goes to these.
 */
export function signInServerPath(url: URL, authUrls: readonly unknown[]): string | null {
  for (const authUrl of authUrls) {
    let auth: URL;
    try {
      auth = new URL(String(authUrl));
    } catch {
      continue;
    }
    if (auth.origin !== url.origin) continue;
    const oauth = `${auth.pathname.replace(/\/+$/, '')}/oauth`;
    if (
      url.pathname === oauth ||
      url.pathname.startsWith(`${oauth}/`) ||
      url.pathname.startsWith('/.well-known/')
    )
      return `${url.pathname} is the sign-in server's (${auth.origin}), not an interface's`;
  }
  return null;
}

/** Base + path + query, or a failure when the path would leave the interface. */
export function requestAddress(base: URL, path: unknown, query: ApiRequest['query']): URL | ApiFailure {
  const problem = pathProblem(path);
  if (problem) return refusedRequest(`The request path ${JSON.stringify(path)} is refused: ${problem}.`);
  const basePath = base.pathname.replace(/\/+$/, '');
  const url = new URL(`${base.origin}${basePath}${path as string}`);
  if (url.origin !== base.origin || !url.pathname.startsWith(`${basePath}/`))
    return refusedRequest(`The request path ${JSON.stringify(path)} leaves the interface.`);
  if (query && typeof query === 'object') {
    for (const [key, value] of Object.entries(query)) {
      if (value === undefined || value === null) continue;
      url.searchParams.append(key, String(value));
    }
  }
  return url;
}

/**
 * The address a download of `address` fetches: a path below the interface's base, or an absolute
 * address on the base's origin, and then only one of the interface's file addresses
 * (files/file-addresses.ts), so the bearer token goes nowhere else on the origin.
 */
export function downloadTarget(api: ApiName, base: URL, address: unknown): URL | ApiFailure {
  let url: URL | ApiFailure;
  if (typeof address === 'string' && address.startsWith('/')) {
    url = requestAddress(base, address, undefined);
    if (!(url instanceof URL)) return url;
  } else {
    try {
      url = new URL(String(address));
    } catch {
      return refusedRequest('The file address is not valid.');
    }
  }
  if (url.origin !== base.origin)
    return refusedRequest(`The file address is not on the platform (${base.origin}); it was not fetched.`);
  const problem = fileAddressProblem(api, base, url);
  if (problem) return refusedRequest(problem);
  url.hash = '';
  return url;
}

/** Why a path cannot be sent, or null when it is a plain path below the interface. */
function pathProblem(path: unknown): string | null {
  if (typeof path !== 'string') return 'it is not text';
  if (!path.startsWith('/')) return 'it must start with / (absolute addresses are not accepted)';
  if (path.startsWith('//')) return 'it must not start with //';
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\s\u0000-\u001f\u007f\\]/.test(path)) return 'it contains spaces, control characters or backslashes';
  if (/[?#]/.test(path)) return 'query parameters go in `query`, not in the path';
  for (const segment of path.split('/')) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return 'it contains an invalid %-escape';
    }
    if (decoded === '.' || decoded === '..') return 'it contains . or .. segments';
    if (/[/\\]/.test(decoded)) return 'a segment encodes a slash';
  }
  return null;
}
