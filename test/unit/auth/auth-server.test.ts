// Reading a sign-in server's metadata over real HTTP: RFC 8414, then OpenID discovery, else the
// documented platform's paths; an issuer naming another address is refused naming both.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { discoverAuthServer, metadataUrls } from '../../../electron/main/auth/auth-server.ts';

const servers: { close(): void }[] = [];
afterEach(() => servers.splice(0).forEach((s) => s.close()));

/** A server answering each path with the JSON given (or 404); returns its address. */
async function serve(answers: (url: string) => Record<string, Record<string, unknown>>): Promise<string> {
  let origin = '';
  const server = createServer((req, res) => {
    const body = answers(origin)[req.url ?? ''];
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? { error: 'not found' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return origin;
}

describe('discoverAuthServer', () => {
  it('builds the well-known addresses of RFC 8414 and OpenID discovery, paths included', () => {
    expect(metadataUrls('https://id.example/tenant/')).toEqual([
      'https://id.example/.well-known/oauth-authorization-server/tenant',
      'https://id.example/tenant/.well-known/openid-configuration',
    ]);
  });

  it('falls back to /oauth/authorize and /oauth/token when the server publishes no metadata', async () => {
    const url = await serve(() => ({}));
    expect(await discoverAuthServer(url, fetch)).toEqual({
      metadata: {
        issuer: url,
        authorization_endpoint: `${url}/oauth/authorize`,
        token_endpoint: `${url}/oauth/token`,
      },
      discovered: false,
    });
  });

  it('keeps the issuer as the metadata writes it, trailing slash included', async () => {
    const url = await serve((origin) => ({
      '/.well-known/openid-configuration': {
        issuer: `${origin}/`,
        authorization_endpoint: `${origin}/op/auth`,
        token_endpoint: `${origin}/op/token`,
      },
    }));
    const server = await discoverAuthServer(url, fetch);
    expect(server.discovered).toBe(true);
    expect(server.metadata.issuer).toBe(`${url}/`);
    expect(server.metadata.token_endpoint).toBe(`${url}/op/token`);
  });

  it('refuses metadata naming another issuer, and names both addresses', async () => {
    const url = await serve((origin) => ({
      '/.well-known/oauth-authorization-server': {
        issuer: 'https://elsewhere.example',
        authorization_endpoint: `${origin}/a`,
        token_endpoint: `${origin}/t`,
      },
    }));
    await expect(discoverAuthServer(url, fetch)).rejects.toThrow(
      `The sign-in server at ${url} says it is https://elsewhere.example.`,
    );
  });
});
