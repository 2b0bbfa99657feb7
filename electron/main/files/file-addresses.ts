// Where the platform serves files: the only addresses a download may fetch, so the bearer token
// goes to the interfaces' file endpoints and nowhere else on the platform's origin (not to
// /oauth/…, not to a sandbox's /__sandbox/state, not to another interface's base).

import type { ApiName } from '@shared/api/request.ts';

/**
 * Paths below each interface's base that answer with a file, as the two API documents list them:
 * version 2's account profile files, engagement documents, signatures and previews (HTML); version
 * 0.0.1's stored files (File.url points below `{base_url_v0}/files/`) and reports (PDF, XLS, CSV).
 */
const FILE_PATHS: Record<ApiName, { pattern: RegExp; shown: string }[]> = {
  v2: [
    { pattern: /^\/accounts\/[^/]+\/file\/(document|image)\/[^/]/, shown: '/accounts/{id}/file/…' },
    {
      pattern: /^\/engagements\/[^/]+\/(documents|signatures)\/[^/]/,
      shown: '/engagements/{id}/documents|signatures/…',
    },
    { pattern: /^\/engagements\/[^/]+\/preview$/, shown: '/engagements/{id}/preview' },
  ],
  v0: [
    { pattern: /^\/files\/[^/]/, shown: '/files/…' },
    { pattern: /^\/user\/reports\/[^/]/, shown: '/user/reports/…' },
    { pattern: /^\/accounts\/[^/]+\/reports\/[^/]/, shown: '/accounts/{id}/reports/…' },
  ],
};

/**
 * Why `url` is not a file of interface `api` whose base is `base`, or null when it is one. The
 * address is taken as the URL parser left it (dot segments already resolved); an escaped slash or
 * dot segment, which a server might decode into another path, is refused.
 */
export function fileAddressProblem(api: ApiName, base: URL, url: URL): string | null {
  const basePath = base.pathname.replace(/\/+$/, '');
  const expected = `${base.origin}${basePath}`;
  const allowed = FILE_PATHS[api].map((p) => `${expected}${p.shown}`).join(', ');
  const outside = `The address is not a file of interface ${api} (files are at ${allowed}); it was not fetched.`;
  if (url.username !== '' || url.password !== '') return outside;
  if (url.origin !== base.origin || !url.pathname.startsWith(`${basePath}/`)) return outside;
  const rest = url.pathname.slice(basePath.length);
  for (const segment of rest.split('/')) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return 'The file address contains an invalid %-escape; it was not fetched.';
    }
    if (decoded === '.' || decoded === '..' || /[/\\]/.test(decoded))
      return 'The file address hides a path in an escaped segment; it was not fetched.';
  }
  return FILE_PATHS[api].some((p) => p.pattern.test(rest)) ? null : outside;
}
