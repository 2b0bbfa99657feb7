// Where a request went, without what it was about: the path with every id taken out
// (`/accounts/12/client/details` → `/accounts/{id}/client/details`). The diagnostics log keeps
// routes only, never paths, so no record or person can be read from it.

/** A segment kept as it is: a lowercase word of the interface (`accounts`, `bank-accounts`, `v2`). */
const WORD = /^(?:[a-z][a-z_-]{0,39}|v\d{1,2})$/;
const MAX_SEGMENTS = 16;

/** What a route may look like: `/`-separated words and `{id}` placeholders. */
export const ROUTE_PATTERN =
  /^\/(?:(?:[a-z][a-z_-]{0,39}|v\d{1,2}|\{id\})(?:\/(?:[a-z][a-z_-]{0,39}|v\d{1,2}|\{id\})){0,15})?$/;

/** The route of a path below an interface, or of an absolute address (its query and fragment dropped). */
export function routeOf(pathOrUrl: string): string {
  let path = String(pathOrUrl);
  if (/^[a-z][a-z0-9+.-]*:/i.test(path)) {
    try {
      path = new URL(path).pathname;
    } catch {
      return '/{id}';
    }
  }
  path = path.split(/[?#]/, 1)[0] ?? '';
  const segments = path
    .split('/')
    .filter((segment) => segment !== '')
    .slice(0, MAX_SEGMENTS)
    .map((segment) => (WORD.test(segment) ? segment : '{id}'));
  return `/${segments.join('/')}`;
}
