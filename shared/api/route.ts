// Where a request went, without what it was about: the path with every id taken out
// (`/accounts/12/client/details` → `/accounts/{id}/client/details`). The diagnostics log keeps
// routes only, never paths, so no record or person can be read from it.

/**
 * The words of the two interfaces' paths (the API documents' endpoints, the sections of version
 * 0.0.1), the only segments kept as they are. Any other segment is `{id}`, a lowercase one too: a
 * file's name (`/files/7/martinez`), a user's or a household's name in a path is never logged.
 */
export const ROUTE_WORDS: ReadonlySet<string> = new Set([
  'accounts',
  'activities',
  'activity',
  'annuities',
  'api',
  'assets',
  'cash',
  'client',
  'close',
  'coclient',
  'config',
  'contacts',
  'data',
  'dataset',
  'define',
  'details',
  'document',
  'documents',
  'drivers_license',
  'employment',
  'engagements',
  'expenses-fixed',
  'expenses-tax',
  'expenses-variable',
  'family',
  'file',
  'files',
  'forms',
  'goals',
  'history',
  'icons',
  'image',
  'income',
  'insurance',
  'liabilities',
  'photo',
  'plans',
  'preview',
  'profile',
  'reopen',
  'reports',
  'resend',
  'reset',
  'security',
  'signatures',
  'stats',
  'switch',
  'taxable',
  'template',
  'templates',
  'user',
]);
const VERSION = /^v\d{1,2}$/;
const MAX_SEGMENTS = 16;

const kept = (segment: string) => ROUTE_WORDS.has(segment) || VERSION.test(segment);

/** What a route may look like: `/`-separated words of the interfaces and `{id}` placeholders, at most 16. */
export function isRoute(text: string): boolean {
  if (text === '/') return true;
  if (!text.startsWith('/')) return false;
  const segments = text.slice(1).split('/');
  return segments.length <= MAX_SEGMENTS && segments.every((s) => s === '{id}' || kept(s));
}

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
    .map((segment) => (kept(segment) ? segment : '{id}'));
  return `/${segments.join('/')}`;
}
