// Contract tests of what stands between a request and its handler: the rate limit, maintenance
// mode, injected faults, authentication, and the error answers (401, 404, 405, 413, 400 …), all
// JSON. Also the request log of the `--log` option.

import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ASSISTANT,
  control,
  expectJsonError,
  expectValidation,
  newAccountBody,
  sandboxToken,
  sleep,
  start,
  v2Client,
  type Account,
  type Api,
  type List,
  contractSandbox,
} from './helpers.ts';

const isJson = (res: Response) => (res.headers.get('content-type') ?? '').startsWith('application/json');

describe('rate limit', () => {
  const platform = contractSandbox({ rateLimit: 5 });

  it('answers the 6th request in a minute with 429 and Retry-After, per token and per interface', async () => {
    const a = await v2Client(platform);
    const b = await v2Client(platform);
    for (let i = 1; i <= 5; i++) {
      const r = await a.get('/user');
      expect(r.status, `request ${i}`).toBe(200);
      expect(r.headers.get('x-ratelimit-limit')).toBe('5');
      expect(r.headers.get('x-ratelimit-remaining')).toBe(String(5 - i));
    }
    const limited = await a.get('/user');
    expectJsonError(limited, 429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Still limited, whatever the endpoint of the same interface.
    expectJsonError(await a.get('/config/icons'), 429);
    // Another token has its own budget.
    expect((await b.get('/user')).status).toBe(200);
    // The other interface has its own budget too.
    const v0 = await fetch(`${platform.url}/api/v0/user`, {
      headers: { authorization: `Bearer ${a.token}` },
    });
    expect(v0.status).not.toBe(429);
    expect(v0.status).not.toBe(401);
    await v0.text();
    // Requests without a valid token are refused before they count.
    expectJsonError(await a.get('/user', {}, { token: null }), 401);
  });

  it('can be changed at run time through the control endpoint', async () => {
    const a = await v2Client(platform);
    for (let i = 0; i < 5; i++) await a.get('/config/icons');
    expect((await a.get('/config/icons')).status).toBe(429);
    await control(platform, 'rate-limit', { perMinute: 0 });
    const r = await a.get('/config/icons');
    expect(r.status).toBe(200);
    expect(r.headers.get('x-ratelimit-limit')).toBeNull();
    await control(platform, 'rate-limit', { perMinute: 2 });
    expect((await a.get('/config/icons')).status).toBe(200);
    expect((await a.get('/config/icons')).status).toBe(200);
    expect((await a.get('/config/icons')).status).toBe(429);
    await control(platform, 'rate-limit', { perMinute: 5 });
  });
});

describe('guards and errors', () => {
  const platform = contractSandbox();
  let api: Api;

  beforeAll(async () => {
    api = await v2Client(platform);
  });

  describe('maintenance mode', () => {
    it('answers 503 JSON with Retry-After while on, and normally once off', async () => {
      expect(await control(platform, 'maintenance', { on: true })).toEqual({ maintenance: true });
      try {
        const r = await api.get('/user');
        expectJsonError(r, 503);
        expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expectJsonError(await api.post('/accounts', newAccountBody()), 503);
        // Even before authentication.
        expectJsonError(await api.get('/user', {}, { token: null }), 503);
        // The OAuth server keeps answering.
        expect((await fetch(`${platform.url}/.well-known/oauth-authorization-server`)).status).toBe(200);
      } finally {
        await control(platform, 'maintenance', { on: false });
      }
      expect((await api.get('/user')).status).toBe(200);
      const bad = await fetch(`${platform.url}/__sandbox/maintenance`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ on: 'yes' }),
      });
      expect(bad.status).toBe(422);
      expect(isJson(bad)).toBe(true);
      await bad.text();
    });
  });

  describe('injected faults', () => {
    const faults = (body: unknown) =>
      control<{ queue: unknown[]; methods?: string[] }>(platform, 'faults', body);

    it('server-error: the next request gets 500 JSON, the one after is served', async () => {
      await faults({ queue: [{ kind: 'server-error' }] });
      expectJsonError(await api.get('/user'), 500);
      expect((await api.get('/user')).status).toBe(200);
    });

    it('unavailable and rate-limited carry Retry-After', async () => {
      await faults({ retryAfter: 3, queue: [{ kind: 'unavailable' }, { kind: 'rate-limited' }] });
      const a = await api.get('/user');
      expectJsonError(a, 503);
      expect(a.headers.get('retry-after')).toBe('3');
      const b = await api.get('/user');
      expectJsonError(b, 429);
      expect(b.headers.get('retry-after')).toBe('3');
      expect((await api.get('/user')).status).toBe(200);
      await faults({ retryAfter: 1 });
    });

    it('latency delays the answer', async () => {
      await faults({ latencyMs: 300, queue: [{ kind: 'latency' }] });
      const t0 = Date.now();
      const r = await api.get('/config/icons');
      expect(r.status).toBe(200);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(280);
      const t1 = Date.now();
      await api.get('/config/icons');
      expect(Date.now() - t1).toBeLessThan(280);
    });

    it('drop-before: the connection closes, fetch rejects, nothing happens', async () => {
      const before = (await api.get<List<Account>>('/accounts', { type: 'all' })).body.params.total;
      await faults({ queue: [{ kind: 'drop-before', methods: ['POST'], path: '^/api/v2/accounts$' }] });
      // A GET does not match the rule and leaves it queued.
      expect((await api.get('/user')).status).toBe(200);
      await expect(api.post('/accounts', newAccountBody())).rejects.toThrow();
      expect((await api.get<List<Account>>('/accounts', { type: 'all' })).body.params.total).toBe(before);
      expect((await faults({})).queue).toEqual([]);
    });

    it('drop-after on POST /accounts: fetch rejects but the account was created', async () => {
      const body = newAccountBody();
      await faults({ queue: [{ kind: 'drop-after', methods: ['POST'], path: '^/api/v2/accounts$' }] });
      await expect(api.post('/accounts', body)).rejects.toThrow();
      const found = await api.get<List<Account>>('/accounts', { query: body['client.email'] as string });
      expect(found.status).toBe(200);
      expect(found.body.items).toHaveLength(1);
      expect(found.body.items[0]?.client.email).toBe(body['client.email']);
      const state = await control<{ accounts: { client: { email: string } }[] }>(platform, 'state');
      expect(state.accounts.filter((a) => a.client.email === body['client.email'])).toHaveLength(1);
    });

    it('queued faults are met in order, honour count, and skip the control and OAuth endpoints', async () => {
      await faults({ queue: [{ kind: 'server-error', count: 2 }, { kind: 'unavailable' }] });
      expect((await fetch(`${platform.url}/.well-known/oauth-authorization-server`)).status).toBe(200);
      expect((await faults({})).queue).toHaveLength(2);
      expect((await api.get('/user')).status).toBe(500);
      expect((await api.get('/user')).status).toBe(500);
      expect((await api.get('/user')).status).toBe(503);
      expect((await api.get('/user')).status).toBe(200);
    });

    it('random faults follow the probability and the kinds', async () => {
      await faults({ probability: 1, kinds: ['server-error'] });
      try {
        for (let i = 0; i < 3; i++) expectJsonError(await api.get('/config/icons'), 500);
      } finally {
        await faults({ probability: 0 });
      }
      expect((await api.get('/config/icons')).status).toBe(200);
    });

    it('type-checks a fault setting: wrong types and values are 422 naming the field, malformed JSON 400', async () => {
      const before = await faults({});
      const post = (body: string) =>
        fetch(`${platform.url}/__sandbox/faults`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
      const cases: [unknown, string][] = [
        [{ queue: [{ kind: 'explode' }] }, 'queue[0].kind'],
        [{ probability: 2 }, 'probability'],
        [{ probability: '0.5' }, 'probability'],
        [{ kinds: 'latency' }, 'kinds'],
        [{ methods: 5 }, 'methods'],
        [{ methods: 'POST' }, 'methods'],
        [{ methods: [5] }, 'methods'],
        [{ path: 5 }, 'path'],
        [{ path: '(' }, 'path'],
        [{ retryAfter: 'soon' }, 'retryAfter'],
        [{ retryAfter: -1 }, 'retryAfter'],
        [{ latencyMs: 1e9 }, 'latencyMs'],
        [{ queue: 'server-error' }, 'queue'],
        [{ queue: [5] }, 'queue[0]'],
        [{ queue: [{ kind: 'latency', path: '(' }] }, 'queue[0].path'],
        [{ queue: [{ kind: 'latency', methods: 'GET' }] }, 'queue[0].methods'],
        [{ queue: [{ kind: 'latency', count: 'two' }] }, 'queue[0].count'],
        [{ probabilty: 0.5 }, 'probabilty'],
        [[{ probability: 0.5 }], 'JSON object'],
      ];
      for (const [body, field] of cases) {
        const res = await post(JSON.stringify(body));
        const answer = (await res.json()) as { message: string };
        expect(res.status, JSON.stringify(body)).toBe(422);
        expect(isJson(res)).toBe(true);
        expect(answer.message, JSON.stringify(body)).toContain(field);
      }
      const malformed = await post('{"methods": ');
      expect(malformed.status).toBe(400);
      expect(isJson(malformed)).toBe(true);
      await malformed.text();
      // Nothing refused was kept, and the interfaces still answer.
      expect(await faults({})).toEqual(before);
      expect((await api.get('/user')).status).toBe(200);
      // Methods are matched whatever their case; null clears a filter.
      await faults({ methods: ['post'], queue: [{ kind: 'server-error', methods: ['get'] }] });
      expectJsonError(await api.get('/user'), 500);
      expect((await faults({ methods: null })).methods).toBeUndefined();
    });
  });

  describe('authentication', () => {
    it('answers 401 JSON with WWW-Authenticate for a missing, malformed or unknown token', async () => {
      const variants: Record<string, string>[] = [
        {},
        { authorization: 'Bearer' },
        { authorization: 'Basic YWR2aXNvcjpzYW5kYm94' },
        { authorization: 'Bearer not-a-token' },
      ];
      for (const headers of variants) {
        const r = await api.request('GET', '/user', { token: null, headers });
        expectJsonError(r, 401);
        expect(r.headers.get('www-authenticate'), JSON.stringify(headers)).toMatch(/^Bearer\b/);
      }
      expectJsonError(await api.post('/accounts', newAccountBody(), { token: null }), 401);
      expectJsonError(await api.get('/accounts/1', {}, { token: null }), 401);
    });

    it('revoked tokens stop working; a new token works', async () => {
      const t = await v2Client(platform);
      expect((await t.get('/user')).status).toBe(200);
      await control(platform, 'tokens/revoke', {});
      expectJsonError(await t.get('/user'), 401);
      api.token = (await sandboxToken(platform)).access_token;
      expect((await api.get('/user')).status).toBe(200);
    });

    it('answers 403 JSON when the user lacks the permission', async () => {
      const assistant = await v2Client(platform, ASSISTANT);
      const a = (await api.post<Account>('/accounts', newAccountBody({ type: 'PROSPECT' }))).body;
      const r = await assistant.post(`/accounts/${a.id}`, { type: 'CLIENT' });
      expectJsonError(r, 403);
      expect((r.body as { message: string }).message).toContain('accounts.convert');
    });
  });

  describe('error answers', () => {
    it('answers 404 JSON for unknown paths and unknown ids', async () => {
      expectJsonError(await api.get('/no/such/path'), 404);
      expectJsonError(await api.get('/accounts/999999'), 404);
      expectJsonError(await api.get('/accounts/999999/profile'), 404);
      expectJsonError(await api.get('/engagements/00000000-0000-4000-8000-000000000000'), 404);
      expectJsonError(await api.get('/config/template/00000000-0000-4000-8000-000000000000'), 404);
      const outside = await fetch(`${platform.url}/nothing-here`);
      expect(outside.status).toBe(404);
      expect(isJson(outside)).toBe(true);
      await outside.text();
    });

    it('answers 405 JSON with Allow for a method a known path does not take', async () => {
      const cases: [string, string, string[]][] = [
        ['PUT', '/accounts', ['GET', 'POST']],
        ['DELETE', '/accounts', ['GET', 'POST']],
        ['PATCH', '/accounts/1', ['GET', 'POST', 'DELETE']],
        ['POST', '/user', ['GET']],
        ['GET', '/user/switch', ['POST']],
        ['DELETE', '/config/icons', ['GET']],
        ['GET', '/engagements/00000000-0000-4000-8000-000000000000/close', ['POST']],
      ];
      for (const [method, path, allowed] of cases) {
        const r = await api.request(method, path);
        expectJsonError(r, 405);
        const allow = (r.headers.get('allow') ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        expect(allow.sort(), `${method} ${path}`).toEqual([...allowed].sort());
      }
    });

    it('answers 413 JSON for a JSON body over 1 MB', async () => {
      const r = await api.post('/accounts', {
        ...newAccountBody(),
        'client.first_name': 'x'.repeat(1024 * 1024 + 10),
      });
      expectJsonError(r, 413);
    });

    it('answers 400 JSON for malformed JSON and 415 JSON for an unknown content type', async () => {
      expectJsonError(await api.request('POST', '/accounts', { raw: '{"type": "CLIENT", ' }), 400);
      expectJsonError(
        await api.request('POST', '/accounts', {
          raw: '<account type="CLIENT"/>',
          headers: { 'content-type': 'application/xml' },
        }),
        415,
      );
    });

    it('answers 422 JSON in the Laravel shape for invalid input', async () => {
      expectValidation(await api.post('/accounts', { type: 'CLIENT' }), ['client.first_name']);
    });
  });
});

describe('request log', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'platform-log-'));
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes one JSON line per request with time, interface, method, route pattern and status', async () => {
    const logFile = join(dir, 'requests.log');
    const platform = await start({ logFile });
    try {
      const api = await v2Client(platform);
      const account = (await api.get<List<Account>>('/accounts', { limit: 1 })).body.items[0] as Account;
      await api.get(`/accounts/${account.id}`);
      await api.get('/accounts/999999');
      await api.get('/user', {}, { token: null });
      await api.request('PUT', '/accounts');
      await fetch(`${platform.url}/.well-known/oauth-authorization-server`).then((r) => r.text());
      const read = () =>
        existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').filter(Boolean) : [];
      for (let i = 0; i < 50 && read().length < 6; i++) await sleep(20);
      const lines = read().map((l) => JSON.parse(l) as Record<string, unknown>);
      // Control requests (the token above) are not logged.
      expect(lines).toHaveLength(6);
      for (const line of lines) {
        expect(Object.keys(line)).toEqual(
          expect.arrayContaining(['time', 'interface', 'method', 'route', 'status']),
        );
        expect(Number.isNaN(Date.parse(line.time as string))).toBe(false);
        expect(typeof line.status).toBe('number');
      }
      expect(
        lines.map(({ interface: i, method, route, status }) => ({ interface: i, method, route, status })),
      ).toEqual([
        { interface: 'v2', method: 'GET', route: '/api/v2/accounts', status: 200 },
        { interface: 'v2', method: 'GET', route: '/api/v2/accounts/:account', status: 200 },
        { interface: 'v2', method: 'GET', route: '/api/v2/accounts/:account', status: 404 },
        { interface: 'v2', method: 'GET', route: '/api/v2/user', status: 401 },
        { interface: 'v2', method: 'PUT', route: '/api/v2/accounts', status: 405 },
        { interface: 'oauth', method: 'GET', route: '/.well-known/oauth-authorization-server', status: 200 },
      ]);
    } finally {
      await platform.close();
    }
  });

  it('a write whose connection a drop-after fault closes is still saved to --data, counted and logged with the fault', async () => {
    const logFile = join(dir, 'dropped.log');
    const dataFile = join(dir, 'dropped.json');
    const platform = await start({ logFile, dataFile });
    try {
      const api = await v2Client(platform);
      const body = newAccountBody();
      await control(platform, 'faults', {
        queue: [{ kind: 'drop-after', methods: ['POST'], path: '^/api/v2/accounts$' }],
      });
      await expect(api.post('/accounts', body)).rejects.toThrow();
      const email = body['client.email'] as string;
      const saved = () => existsSync(dataFile) && readFileSync(dataFile, 'utf8').includes(email);
      const logged = () =>
        existsSync(logFile)
          ? readFileSync(logFile, 'utf8')
              .split('\n')
              .filter(Boolean)
              .map((l) => JSON.parse(l) as Record<string, unknown>)
          : [];
      for (let i = 0; i < 50 && !(saved() && logged().length > 0); i++) await sleep(20);
      // Nothing else was written since: the file holds the dropped request's change.
      expect(saved()).toBe(true);
      expect(logged()).toEqual([
        expect.objectContaining({
          interface: 'v2',
          method: 'POST',
          route: '/api/v2/accounts',
          status: 200,
          fault: 'drop-after',
        }),
      ]);
      const stats = platform.control.stats();
      expect(stats.total).toBe(1);
      expect(stats.byStatus['200']).toBe(1);
      // The next request is logged once, as usual.
      expect((await api.get('/user')).status).toBe(200);
      for (let i = 0; i < 50 && logged().length < 2; i++) await sleep(20);
      expect(logged()).toHaveLength(2);
      expect(platform.control.stats().total).toBe(2);
    } finally {
      await platform.close();
    }
  });
});
