// The browser-preview host answers bridge calls only from its own page, on loopback, and never
// serves a file outside the renderer build.

import { request as httpRequest } from 'node:http';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPreviewHost, type PreviewHost } from '../../electron/preview/host.ts';
import { sandboxProfile } from '../../shared/settings.ts';
import { startPlatform, type Platform } from '../platform/server.ts';

let platform: Platform;
let host: PreviewHost;
let dir: string;
let key: string;

beforeAll(async () => {
  platform = await startPlatform({ port: 0, accounts: 5, rateLimit: 0 });
  dir = mkdtempSync(join(tmpdir(), 'preview-host-'));
  mkdirSync(join(dir, 'renderer', 'assets'), { recursive: true });
  writeFileSync(
    join(dir, 'renderer', 'index.html'),
    '<!doctype html><html><head><title>t</title></head><body></body></html>',
  );
  writeFileSync(join(dir, 'renderer', 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(dir, 'secret.txt'), 'outside the renderer');
  host = await startPreviewHost({
    port: 0,
    rendererDir: join(dir, 'renderer'),
    dataDir: join(dir, 'data'),
    defaultProfile: sandboxProfile(platform.url),
  });
  const html = await (await fetch(host.url)).text();
  key = /name="advisor-preview-key" content="([^"]+)"/.exec(html)?.[1] ?? '';
});

afterAll(async () => {
  await host.close();
  await platform.close();
  rmSync(dir, { recursive: true, force: true });
});

const call = (channel: string, args: unknown[], headers: Record<string, string>) =>
  fetch(`${host.url}/__bridge/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(args),
  });

/** A raw request, to send a Host header that fetch would not let us set. */
function rawGet(path: string, hostHeader: string): Promise<number> {
  const { port } = new URL(host.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers: { host: hostHeader } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('preview host', () => {
  it('listens on loopback and serves the page with its key and a strict CSP', async () => {
    expect(new URL(host.url).hostname).toBe('127.0.0.1');
    const res = await fetch(host.url);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(key.length).toBeGreaterThan(20);
  });

  it('answers bridge calls from its own page', async () => {
    const res = await call('auth.status', [], { origin: host.url, 'x-advisor-key': key });
    expect(res.status).toBe(200);
    const { value } = (await res.json()) as { value: { v2: { signedIn: boolean }; persistent: boolean } };
    expect(value.v2.signedIn).toBe(false);
    expect(value.persistent).toBe(false);
  });

  it('refuses calls without the key, with a wrong key, or from another origin', async () => {
    expect((await call('auth.status', [], { origin: host.url })).status).toBe(403);
    expect((await call('auth.status', [], { origin: host.url, 'x-advisor-key': `${key}x` })).status).toBe(
      403,
    );
    expect(
      (await call('auth.status', [], { origin: 'http://evil.example', 'x-advisor-key': key })).status,
    ).toBe(403);
    expect((await call('auth.status', [], { 'x-advisor-key': key })).status).toBe(403);
  });

  it('refuses invalid calls with 400 and a message, unknown methods with 405', async () => {
    const bad = await call('api.request', [{ api: 'v9', method: 'GET', path: '/user' }], {
      origin: host.url,
      'x-advisor-key': key,
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/Invalid arguments for api.request/);
    expect((await call('nothing.here', [], { origin: host.url, 'x-advisor-key': key })).status).toBe(400);
    expect((await fetch(`${host.url}/__bridge/auth.status`, { method: 'DELETE' })).status).toBe(405);
  });

  it('refuses requests addressed to another host name (DNS rebinding)', async () => {
    expect(await rawGet('/', 'evil.example:80')).toBe(421);
    expect(await rawGet('/', `127.0.0.1:${new URL(host.url).port}`)).toBe(200);
  });

  it('serves files of the renderer build only', async () => {
    expect((await fetch(`${host.url}/assets/app.js`)).status).toBe(200);
    for (const path of [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
    ]) {
      const res = await fetch(`${host.url}${path}`);
      expect(await res.text(), path).not.toContain('outside the renderer');
    }
  });

  it('reaches the platform through the same transport as the app: signed out means an auth failure', async () => {
    const res = await call('api.request', [{ api: 'v2', method: 'GET', path: '/user' }], {
      origin: host.url,
      'x-advisor-key': key,
    });
    const { value } = (await res.json()) as { value: { ok: boolean; kind: string } };
    expect(value).toMatchObject({ ok: false, kind: 'auth' });
  });
});
