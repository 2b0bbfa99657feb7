// Issue 24, point 6: the bearer token goes only below the interfaces' base paths, and never to the
// sign-in server's own paths, even once a base address was moved to `/` of that server (a move
// that keeps the sign-in). A local server counts every request that reaches it and the token
// each one carried: a refused request is refused with a clear error and none leaves.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Transport, type TransportProfile } from '../../electron/main/transport/transport.ts';
import type { DownloadAnswer } from '../../electron/main/transport/downloads.ts';
import type { ApiResult } from '@shared/api/request.ts';

const TOKEN = 'the-advisors-bearer-token';
const arrived: { path: string; authorization: string | undefined }[] = [];
const server = createServer((req, res) => {
  arrived.push({ path: req.url ?? '', authorization: req.headers.authorization });
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('{}');
});
let origin: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function transport(profile: () => TransportProfile): Transport {
  return new Transport({
    profile,
    tokens: {
      accessToken: () => Promise.resolve(TOKEN),
      refreshAfterUnauthorized: () => Promise.resolve(null),
    },
  });
}

const documented = (): TransportProfile => ({
  v2: { baseUrl: `${origin}/api/v2`, authUrl: origin },
  v0: { baseUrl: `${origin}/api/v0`, authUrl: origin },
  rateLimitPerMinute: 1000,
});

function refusal(result: ApiResult | DownloadAnswer): string {
  if (result.ok) throw new Error(`expected a refusal, got status ${result.status}`);
  expect(result).toMatchObject({ kind: 'validation', status: null });
  return result.message;
}

describe('the bearer token and the base paths', () => {
  it('a request or download outside the interface’s base path is refused, and none leaves', async () => {
    const t = transport(documented);
    arrived.length = 0;
    for (const path of ['/../../oauth/token', '/../../__sandbox/state', '/%2e%2e/v0/user'])
      expect(refusal(await t.request({ api: 'v2', method: 'GET', path })), path).toMatch(
        /is refused|leaves the interface/,
      );
    for (const url of [
      `${origin}/oauth/token`,
      `${origin}/__sandbox/state`,
      `${origin}/api/v0/files/1/a.png`,
    ])
      expect(refusal(await t.download(url, { api: 'v2' })), url).toMatch(/not a file of interface v2/);
    expect(arrived).toEqual([]);
    // Below the base, the token goes (the server is reached).
    expect((await t.request({ api: 'v2', method: 'GET', path: '/user' })).ok).toBe(true);
    expect(arrived).toEqual([{ path: '/api/v2/user', authorization: `Bearer ${TOKEN}` }]);
  });

  it('with a base moved to / of the sign-in server, its OAuth and metadata paths still get nothing', async () => {
    const t = transport(() => ({ ...documented(), v2: { baseUrl: origin, authUrl: origin } }));
    arrived.length = 0;
    for (const path of [
      '/oauth/token',
      '/oauth/authorize',
      '/oauth/revoke',
      '/oauth',
      '/.well-known/oauth-authorization-server',
      '/.well-known/openid-configuration',
    ])
      expect(refusal(await t.request({ api: 'v2', method: 'POST', path, body: {} })), path).toBe(
        `The request path ${JSON.stringify(path)} is refused: ${path} is the sign-in server's (${origin}), not an interface's; nothing was sent.`,
      );
    expect(arrived).toEqual([]);
    // The interface's own paths still go, now from the origin's root.
    expect((await t.request({ api: 'v2', method: 'GET', path: '/user' })).ok).toBe(true);
    expect((await t.request({ api: 'v2', method: 'GET', path: '/oauthors' })).ok).toBe(true);
    expect(arrived.map((a) => a.path)).toEqual(['/user', '/oauthors']);
  });
});
