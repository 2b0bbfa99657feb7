// A bounded property-based fuzz of both interfaces and the token endpoint: random methods, paths
// (traversal, odd encodings, huge numbers), query values (names of Object.prototype among them)
// and bodies (any JSON, wrong types, bad content types, `__proto__`-style keys) must never give a
// 500 or crash the server, every error must come back as JSON, and no prototype may change.

import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { sandbox } from '../support/sandbox.ts';

const platform = sandbox({ seed: 3, accounts: 12 });
let token: string;

/** Own property names of the built-in prototypes before any request: none may appear later. */
const PROTOTYPES = { Object: Object.prototype, Array: Array.prototype, Function: Function.prototype };
const snapshot = () =>
  Object.fromEntries(
    Object.entries(PROTOTYPES).map(([name, proto]) => [name, Object.getOwnPropertyNames(proto).sort()]),
  );
const pristine = snapshot();

function expectPrototypesUntouched(label: string): void {
  expect(snapshot(), label).toEqual(pristine);
  expect(({} as Record<string, unknown>).polluted, label).toBeUndefined();
}

beforeAll(() => {
  token = platform.control.token('advisor@sandbox.test').access_token;
});

/** Names a careless `object[name]` lookup would find on every object. */
const INHERITED = [...Object.getOwnPropertyNames(Object.prototype), 'prototype'];

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
  fc.constantFrom(...INHERITED),
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
  fc.oneof(
    fc.string({ maxLength: 20 }),
    fc.integer().map(String),
    fc
      .constantFrom(...INHERITED)
      .chain((name) => fc.constantFrom(name, `-${name}`, `id,${name}`, `${name},-created_at`)),
  ),
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

/** Body keys that reach a prototype when a body is walked carelessly, alone or inside dotted paths. */
const hostileKey = fc.oneof(
  fc.constantFrom(...INHERITED),
  fc
    .tuple(
      fc.constantFrom('', 'client.', 'coclient.', 'client.phone.', 'relation.', 'owner.'),
      fc.constantFrom('__proto__', 'constructor', 'prototype', 'constructor.prototype'),
      fc.constantFrom('', '.polluted', '.toString', '.first_name'),
    )
    .map(([a, b, c]) => a + b + c),
);
/** Values as JSON text, so that a nested `__proto__` key is sent as written. */
const hostileValue = fc.oneof(
  fc.constantFrom('yes', 'CLIENT', 'clients', 1, true, null).map((v) => JSON.stringify(v)),
  fc.constantFrom(
    '{"polluted":"yes"}',
    '{"__proto__":{"polluted":"yes"}}',
    '{"constructor":{"prototype":{"polluted":"yes"}}}',
    '{"type":"client","__proto__":{"id":"x"}}',
    '[{"__proto__":{"polluted":"yes"}}]',
  ),
);
const hostileEntries = fc.array(
  fc.tuple(
    fc.oneof(hostileKey, fc.constantFrom('type', 'client.first_name', 'name', 'password', 'id')),
    hostileValue,
  ),
  { minLength: 1, maxLength: 4 },
);
/** JSON text written by hand: an object literal with a `__proto__` key would set the prototype instead. */
const jsonText = (entries: [string, string][]) =>
  `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;
const hostileBody = fc.oneof(
  hostileEntries.map((entries) => ({
    kind: 'raw' as const,
    value: jsonText(entries),
    type: 'application/json',
  })),
  hostileEntries.map((entries) => ({
    kind: 'raw' as const,
    value: jsonText([['client', jsonText(entries)]]),
    type: 'application/json',
  })),
  hostileEntries.map((entries) => ({
    kind: 'raw' as const,
    value: new URLSearchParams(entries).toString(),
    type: 'application/x-www-form-urlencoded',
  })),
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
    expectPrototypesUntouched('after the fuzz');
  });

  it('lists answer sort expressions made of Object.prototype names with 422, never 500 or 200', async () => {
    const engagement = platform.control.dump().engagements[0]?.id ?? 'none';
    const lists = fc.constantFrom(
      '/api/v2/accounts',
      '/api/v2/accounts/1/activity',
      '/api/v2/engagements',
      `/api/v2/engagements/${engagement}/documents`,
      `/api/v2/engagements/${engagement}/signatures`,
      `/api/v2/engagements/${engagement}/history`,
      '/api/v0/accounts',
      '/api/v0/user/activities',
    );
    const sort = fc
      .tuple(fc.constantFrom(...INHERITED), fc.constantFrom('', '-'), fc.constantFrom('', ',', 'id,', ',-id'))
      .map(([name, sign, join]) =>
        join.startsWith(',') ? `${sign}${name}${join}` : `${join}${sign}${name}`,
      );
    await fc.assert(
      fc.asyncProperty(lists, sort, async (list, expression) => {
        const url = `${list}?${new URLSearchParams({ sort: expression }).toString()}`;
        const res = await send('GET', url, { kind: 'none' });
        const text = await res.text();
        expect(res.status, `GET ${url} → ${text.slice(0, 200)}`).toBe(422);
        expect(text).toContain('sort');
      }),
      { numRuns: 150, seed: 20261125 },
    );
  });

  it('bodies with __proto__, constructor and prototype keys never give 500 and never reach a prototype', async () => {
    const writes = fc.constantFrom(
      'POST /api/v2/accounts',
      'POST /api/v2/accounts/{a}',
      'DELETE /api/v2/accounts/{a}',
      'POST /api/v2/engagements',
      'POST /api/v2/user/switch',
      'POST /api/v0/accounts',
      'PUT /api/v0/accounts/{a}',
      'PUT /api/v0/accounts/{a}/client/details',
      'POST /api/v0/accounts/{a}/assets',
      'POST /api/v0/accounts/{a}/documents',
      'POST /api/v0/accounts/{a}/expenses-fixed',
      'POST /api/v0/accounts/{a}/forms',
      'POST /__sandbox/faults',
      'POST /__sandbox/maintenance',
    );
    await fc.assert(
      fc.asyncProperty(writes, fc.nat({ max: 14 }), hostileBody, async (route, account, b) => {
        const [method, template] = route.split(' ') as [string, string];
        const url = template.replace('{a}', String(account));
        const res = await send(method, url, b);
        const text = await res.text();
        expect(
          res.status,
          `${method} ${url} ${b.kind === 'raw' ? b.value : ''} → ${text.slice(0, 200)}`,
        ).toBeLessThan(500);
        if (res.status >= 400) expect(() => JSON.parse(text) as unknown, `${method} ${url}`).not.toThrow();
        expectPrototypesUntouched(`${method} ${url} ${b.kind === 'raw' ? b.value : ''}`);
      }),
      { numRuns: 250, seed: 20261123 },
    );
    expect(platform.control.stats().byStatus['422']).toBeGreaterThan(0);
  });

  it('the token endpoint answers any form body and any Authorization header without a 500, in JSON', async () => {
    const refresh = platform.control.token('advisor@sandbox.test').refresh_token;
    const text = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.constantFrom('%', '%zz', '%E0%A4%A', '%ff', 'advisor-desk', 'sandbox-secret', ':', '', '+'),
    );
    const field = fc.oneof(
      text,
      fc.constantFrom(...INHERITED),
      fc.constantFrom('authorization_code', 'refresh_token', 'password', 'client_credentials'),
      fc.constant(refresh),
    );
    const form = fc.dictionary(
      fc.oneof(
        fc.constantFrom(
          'grant_type',
          'code',
          'refresh_token',
          'redirect_uri',
          'code_verifier',
          'client_id',
          'client_secret',
        ),
        fc.constantFrom(...INHERITED),
      ),
      field,
      { maxKeys: 6 },
    );
    const authorization = fc.oneof(
      fc.constant(undefined),
      fc
        .tuple(text, fc.option(text))
        .map(
          ([id, secret]) =>
            `Basic ${Buffer.from(secret === null ? id : `${id}:${secret}`, 'utf8').toString('base64')}`,
        ),
      fc.string({ maxLength: 20 }).map((s) => `Basic ${s}`),
      fc.constantFrom('Basic', 'Basic ', 'Bearer x', 'Digest a=b', 'basic JSU6JQ=='),
      text,
    );
    const type = fc.constantFrom(
      'application/x-www-form-urlencoded',
      'application/json',
      'text/plain',
      'multipart/form-data; boundary=x',
    );
    await fc.assert(
      fc.asyncProperty(form, authorization, type, async (fields, auth, contentType) => {
        const headers: Record<string, string> = { 'content-type': contentType };
        if (auth !== undefined) headers.authorization = auth;
        // Header values must be ISO-8859-1 for fetch; others cannot be sent at all.
        if (auth !== undefined && !/^[\x20-\x7e]*$/.test(auth)) return;
        const body =
          contentType === 'application/json'
            ? jsonText(Object.entries(fields).map(([k, v]): [string, string] => [k, JSON.stringify(v)]))
            : new URLSearchParams(Object.entries(fields)).toString();
        const res = await fetch(`${platform.url}/oauth/token`, { method: 'POST', headers, body });
        const answer = await res.text();
        const label = `${auth ?? '(no authorization)'} ${contentType} ${body} → ${res.status} ${answer.slice(0, 200)}`;
        expect(res.status, label).toBeLessThan(500);
        expect(res.headers.get('content-type'), label).toMatch(/json/);
        expect(() => JSON.parse(answer) as unknown, label).not.toThrow();
        expectPrototypesUntouched(label);
      }),
      { numRuns: 250, seed: 20261124 },
    );
  });

  it('reads no stored file, definition or activity type through a name of Object.prototype', async () => {
    for (const p of [
      '/api/v0/files/hasOwnProperty/hasOwnProperty',
      '/api/v0/files/constructor/Object',
      '/api/v0/files/__proto__/x',
      '/api/v0/define/constructor/1',
      '/api/v0/define/toString/1',
      '/api/v0/define/__proto__/1',
    ]) {
      const res = await fetch(platform.url + p, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status, p).toBe(404);
      expect(res.headers.get('content-type'), p).toMatch(/json/);
      await res.text();
    }
    for (const type of ['constructor', 'toString', '__proto__']) {
      const res = await fetch(`${platform.url}/api/v0/user/activities?type=${type}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status, type).toBe(422);
      await res.text();
    }
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
