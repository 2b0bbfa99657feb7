// A bounded property-based fuzz of both interfaces: random methods, paths (traversal, odd
// encodings, huge numbers) and bodies (any JSON, wrong types, bad content types) must never give a
// 500 or crash the server, and every error must come back as JSON.

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type Platform } from '../platform/server.ts';

let platform: Platform;
let token: string;

beforeAll(async () => {
  platform = await startPlatform({ port: 0, seed: 3, accounts: 12, rateLimit: 0 });
  token = platform.control.token('advisor@sandbox.test').access_token;
});
afterAll(() => platform.close());

const TEMPLATES = [
  '/api/v2/accounts',
  '/api/v2/accounts/{a}',
  '/api/v2/accounts/{a}/profile',
  '/api/v2/accounts/{a}/activity',
  '/api/v2/accounts/{a}/file/document/{s}/{s}/{s}',
  '/api/v2/accounts/{a}/file/image/{s}/{s}',
  '/api/v2/config/dataset/{s}/{s}',
  '/api/v2/config/template/{s}/{s}',
  '/api/v2/engagements',
  '/api/v2/engagements/{s}',
  '/api/v2/engagements/{s}/close',
  '/api/v2/engagements/{s}/documents/{s}/{s}/{s}/{s}',
  '/api/v2/engagements/{s}/signatures/{s}/{s}',
  '/api/v2/user/switch',
  '/api/v0/accounts',
  '/api/v0/accounts/{a}',
  '/api/v0/accounts/{a}/{role}/details',
  '/api/v0/accounts/{a}/{role}/details/photo',
  '/api/v0/accounts/{a}/{role}/security/reset',
  '/api/v0/accounts/{a}/{section}',
  '/api/v0/accounts/{a}/{section}/{s}',
  '/api/v0/accounts/{a}/{role}/employment/{s}/document',
  '/api/v0/accounts/{a}/{role}/income',
  '/api/v0/accounts/{a}/forms/{s}/close',
  '/api/v0/user/reports/{s}/{s}/{s}/{s}/{s}',
  '/api/v0/accounts/{a}/reports/{s}/{s}',
  '/api/v0/define/{s}/{a}',
  '/api/v0/files/{s}/{s}',
  '/api/v0/user/stats',
  '/api/v0/user/activities',
  '/{s}',
  '/api/{s}/{s}',
];
const SECTIONS = [
  'annuities',
  'assets',
  'cash',
  'contacts',
  'documents',
  'expenses-variable',
  'expenses-fixed',
  'expenses-tax',
  'family',
  'goals',
  'insurance',
  'liabilities',
  'plans',
  'taxable',
  'forms',
];

const segment = fc.oneof(
  fc.constantFrom(
    '..',
    '.',
    '%2e%2e',
    '%2F',
    '..%2F..%2Fetc%2Fpasswd',
    '%00',
    '%ff',
    '%',
    '1',
    '0',
    '-1',
    '99999999999999999999',
    'NaN',
    'CSV',
    'PDF',
    'flat',
    'nested',
  ),
  fc.string({ maxLength: 40 }).map((s) => encodeURIComponent(s) || 'x'),
  fc.nat({ max: 50 }).map(String),
  fc.uuid(),
);
const path = fc
  .tuple(
    fc.constantFrom(...TEMPLATES),
    fc.array(segment, { minLength: 6, maxLength: 6 }),
    fc.constantFrom('client', 'coclient', 'other'),
    fc.constantFrom(...SECTIONS),
    fc.nat({ max: 14 }),
  )
  .map(([template, segs, role, section, account]) => {
    let i = 0;
    return template
      .replace(/\{s\}/g, () => segs[i++ % segs.length] as string)
      .replace('{a}', String(account))
      .replace('{role}', role)
      .replace('{section}', section);
  });
const query = fc.dictionary(
  fc.constantFrom(
    'sort',
    'limit',
    'offset',
    'type',
    'query',
    'pipeline',
    'start_date',
    'end_date',
    'account_id',
  ),
  fc.oneof(fc.string({ maxLength: 20 }), fc.integer().map(String)),
  { maxKeys: 3 },
);
const body = fc.oneof(
  fc.record({ kind: fc.constant('json' as const), value: fc.jsonValue({ maxDepth: 3 }) }),
  fc.record({
    kind: fc.constant('json' as const),
    value: fc.record(
      {
        type: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
        name: fc.anything({ maxDepth: 2 }),
        owner: fc.anything({ maxDepth: 2 }),
        current_value: fc.anything({ maxDepth: 2 }),
        client: fc.anything({ maxDepth: 2 }),
        target: fc.anything({ maxDepth: 2 }),
        password: fc.anything({ maxDepth: 1 }),
      },
      { requiredKeys: [] },
    ),
  }),
  fc.record({
    kind: fc.constant('raw' as const),
    value: fc.string({ maxLength: 200 }),
    type: fc.constantFrom(
      'application/json',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
    ),
  }),
  fc.constant({ kind: 'none' as const }),
);

type Body =
  { kind: 'json'; value: unknown } | { kind: 'raw'; value: string; type: string } | { kind: 'none' };

async function send(method: string, url: string, b: Body) {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  let payload: string | undefined;
  if (method !== 'GET' && b.kind === 'json') {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(b.value);
  } else if (method !== 'GET' && b.kind === 'raw') {
    headers['content-type'] = b.type;
    payload = b.value;
  }
  return fetch(platform.url + url, { method, headers, ...(payload !== undefined ? { body: payload } : {}) });
}

describe('fuzzed requests', () => {
  it('never answer 500, never crash, and always explain errors in JSON', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
        path,
        query,
        body,
        async (method, p, q, b) => {
          const url = p + (Object.keys(q).length ? `?${new URLSearchParams(q).toString()}` : '');
          const res = await send(method, url, b);
          const text = await res.text();
          expect(res.status, `${method} ${url} → ${res.status} ${text.slice(0, 200)}`).toBeLessThan(500);
          if (res.status >= 400) {
            expect(res.headers.get('content-type'), `${method} ${url}`).toMatch(/json/);
            expect(() => JSON.parse(text) as unknown).not.toThrow();
          }
        },
      ),
      { numRuns: 400, seed: 20261122 },
    );
    // The fuzz reached the handlers, not only the router: successes and each kind of refusal occurred.
    const seen = platform.control.stats().byStatus;
    for (const status of ['200', '400', '404', '405', '422'])
      expect(seen[status], `status ${status} among ${JSON.stringify(seen)}`).toBeGreaterThan(0);
    const alive = await fetch(`${platform.url}/api/v2/user`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(alive.status).toBe(200);
  });

  it('refuses path traversal towards files without touching the disk', async () => {
    for (const p of [
      '/api/v0/files/..%2F..%2F..%2Fetc/passwd',
      '/api/v0/files/../../etc/passwd',
      '/api/v2/accounts/1/file/document/..%2F..%2F/0/passwd',
    ]) {
      const res = await fetch(platform.url + p, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain('root:');
    }
  });
});
