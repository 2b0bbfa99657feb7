// The browser-preview host answers bridge calls only from its own page, on loopback, and never
// serves a file outside the renderer build; hostile requests (curl without the cookie, aborted and
// oversize uploads, deep JSON) get an answer and never stop it.

import { request as httpRequest } from 'node:http';
import {
  existsSync,
  mkdtempSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPreviewHost, type PreviewHost } from '../../electron/preview/host.ts';
import { decodeBridgeArgs, encodeBridgeArgs } from '@shared/bridge-wire.ts';
import { sandboxProfile } from '@shared/settings.ts';
import { sandbox } from '../support/sandbox.ts';
import { agreeing, openPrintedAddress, signInOnThePage } from './preview-client.ts';

const platform = sandbox({ accounts: 5 });
let host: PreviewHost;
let dir: string;
/** The host's per-run path, below which it serves everything. */
let prefix: string;
/** The Cookie header of a browser that opened the printed address. */
let cookie: string;
/** The Origin the page's own requests carry. */
const pageOrigin = () => new URL(host.url).origin;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'preview-host-'));
  mkdirSync(join(dir, 'renderer', 'assets'), { recursive: true });
  writeFileSync(
    join(dir, 'renderer', 'preview.html'),
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
  cookie = (await openPrintedAddress(host.openUrl())).cookie;
  prefix = new URL(host.url).pathname;
});

afterAll(async () => {
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A bridge call as the admitted browser makes it (its cookie unless `headers` says otherwise). */
const call = (channel: string, args: unknown[], headers: Record<string, string>) =>
  fetch(`${host.url}/__bridge/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, ...headers },
    body: JSON.stringify(args),
  });

/** A raw request, to send a Host header that fetch would not let us set. */
function raw(
  path: string,
  headers: Record<string, string>,
  method = 'GET',
  body?: string,
): Promise<{ status: number; text: string }> {
  const { port } = new URL(host.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const rawGet = async (path: string, hostHeader: string) =>
  (await raw(path, { host: hostHeader, cookie })).status;

describe('preview host', () => {
  it('listens on loopback and serves the page, with no key in it, under a strict CSP', async () => {
    expect(new URL(host.url).hostname).toBe('127.0.0.1');
    const res = await fetch(`${host.url}/`, { headers: { cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toBe(
      '<!doctype html><html><head><title>t (development preview)</title></head><body></body></html>',
    );
  });

  it('answers bridge calls from its own page', async () => {
    const res = await call('auth.status', [], { origin: pageOrigin() });
    expect(res.status).toBe(200);
    const { value } = (await res.json()) as { value: { v2: { signedIn: boolean }; persistent: boolean } };
    expect(value.v2.signedIn).toBe(false);
    expect(value.persistent).toBe(false);
  });

  it('refuses calls from another origin or with none', async () => {
    expect((await call('auth.status', [], { origin: 'http://evil.example' })).status).toBe(403);
    expect((await call('auth.status', [], { origin: 'null' })).status).toBe(403);
    expect((await call('auth.status', [], {})).status).toBe(403);
  });

  it('answers an invalid request with a typed failure naming the argument; refuses unknown channels with 400, unknown methods with 405', async () => {
    const bad = await call('api.request', [{ api: 'v9', method: 'GET', path: '/user' }], {
      origin: pageOrigin(),
    });
    expect(bad.status).toBe(200);
    const { value } = (await bad.json()) as { value: { message: string; fields: Record<string, string[]> } };
    expect(value).toMatchObject({ ok: false, kind: 'validation', status: null, retryAfterMs: null });
    expect(Object.keys(value.fields)).toEqual(['api']);
    expect(value.message).toMatch(/^The request was not sent: invalid api \(/);
    expect((await call('nothing.here', [], { origin: pageOrigin() })).status).toBe(400);
    expect((await fetch(`${host.url}/__bridge/auth.status`, { method: 'DELETE' })).status).toBe(405);
  });

  it('refuses requests addressed to another host name (DNS rebinding)', async () => {
    expect(await rawGet(`${prefix}/`, 'evil.example:80')).toBe(421);
    expect(await rawGet(`${prefix}/`, `127.0.0.1:${new URL(host.url).port}`)).toBe(200);
  });

  it('refuses to start from a renderer folder without the preview’s page, saying how to build it', async () => {
    // The desktop app's index.html talks to IPC; a browser is never given it in the preview's place.
    const bare = join(dir, 'bare');
    mkdirSync(bare, { recursive: true });
    writeFileSync(join(bare, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
    await expect(
      startPreviewHost({
        port: 0,
        rendererDir: bare,
        dataDir: join(dir, 'bare-data'),
        defaultProfile: sandboxProfile(platform.url),
      }),
    ).rejects.toThrow(/preview's page is missing .*npm run build/);
  });

  it('serves files of the renderer build only', async () => {
    expect((await fetch(`${host.url}/assets/app.js`, { headers: { cookie } })).status).toBe(200);
    for (const path of [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
    ]) {
      const res = await fetch(`${host.url}${path}`, { headers: { cookie } });
      expect(await res.text(), path).not.toContain('outside the renderer');
    }
  });

  it('reaches the platform through the same transport as the app: signed out means an auth failure', async () => {
    const res = await call('api.request', [{ api: 'v2', method: 'GET', path: '/user' }], {
      origin: pageOrigin(),
    });
    const { value } = (await res.json()) as { value: { ok: boolean; kind: string } };
    expect(value).toMatchObject({ ok: false, kind: 'auth' });
  });

  it('a sign-in that cannot start reaches the page with its reason, not as a server error', async () => {
    const headers = { origin: pageOrigin() };
    const view = (await (await call('settings.get', [], headers)).json()) as { value: { profile: object } };
    const split = {
      ...view.value.profile,
      v0: { baseUrl: `${platform.url}/api/v0`, authUrl: 'http://localhost:9' },
    };
    // The host asks before the sign-in server moves; the advisor agrees.
    const asked = { ...headers, cookie };
    const saved = await agreeing(host.url, asked, () => call('settings.saveProfile', [split], headers));
    expect(((await saved.json()) as { value: unknown }).value).toMatchObject({ ok: true });
    try {
      const res = await call('auth.beginSignIn', ['both'], headers);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { value: unknown }).value).toEqual({
        ok: false,
        message: expect.stringMatching(
          /different sign-in servers: sign in to each one separately/,
        ) as unknown,
      });
    } finally {
      await agreeing(host.url, asked, () => call('settings.saveProfile', [view.value.profile], headers));
    }
  });

  it('saves a download into its own folder, made on first use, under a free name', async () => {
    const headers = { origin: pageOrigin() };
    const begun = (await (await call('auth.beginSignIn', ['both'], headers)).json()) as {
      value: { ok: boolean; flowId: string; url: string };
    };
    expect(begun.value.ok).toBe(true);
    await signInOnThePage(begun.value.url);
    const outcome = (await (await call('auth.finishSignIn', [begun.value.flowId], headers)).json()) as {
      value: { ok: boolean };
    };
    expect(outcome.value.ok).toBe(true);

    const state = platform.control.dump();
    const user = state.users.find((u) => u.email === 'advisor@sandbox.test');
    const file = state.files[user?.photo ?? ''];
    if (!file) throw new Error('the sandbox user has no photo');
    const request = {
      api: 'v0',
      url: `${platform.url}/api/v0/files/${file.id}/${file.name}`,
      suggestedName: 'avatar.png',
      target: 'save',
    };
    expect(existsSync(join(dir, 'data', 'downloads'))).toBe(false);
    const saved = await call('files.download', [request], headers);
    const first = join(dir, 'data', 'downloads', 'avatar.png');
    expect(((await saved.json()) as { value: unknown }).value).toMatchObject({ ok: true, path: first });
    expect(readFileSync(first).equals(Buffer.from(file.data, 'base64'))).toBe(true);
    // The second save did not replace the first.
    const again = await call('files.download', [request], headers);
    expect(((await again.json()) as { value: unknown }).value).toMatchObject({
      ok: true,
      path: expect.stringMatching(/avatar \(\d\)\.png$/) as unknown,
    });

    // A picture shown in the page: its bytes cross the HTTP bridge whole, kept for the bound user.
    const bound = await call('auth.bindIdentity', [{ user: 'c3'.repeat(16), team: 1 }], headers);
    expect(((await bound.json()) as { value: { ok: boolean } }).value.ok).toBe(true);
    const shown = await call('files.preview', [{ api: 'v0', url: request.url }], headers);
    const picture = decodeBridgeArgs(((await shown.json()) as { value: unknown }).value) as {
      ok: boolean;
      bytes: Uint8Array;
    };
    expect(picture.ok).toBe(true);
    expect(picture.bytes).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(picture.bytes).equals(Buffer.from(file.data, 'base64'))).toBe(true);

    // A stored file opened: no viewer in a browser, so it is saved in the downloads folder and
    // the answer says where; kept for the bound user, and opened from there with keptOnly.
    const stored = { api: 'v0', url: request.url, name: 'portrait.png' };
    const opened = (await (await call('files.open', [stored], headers)).json()) as { value: unknown };
    // Under the name the platform gave it (avatar.png, free in the folder), not the window's.
    expect(opened.value).toMatchObject({
      ok: true,
      shown: 'saved',
      from: 'platform',
      path: expect.stringMatching(/[/\\]data[/\\]downloads[/\\]avatar \(\d\)\.png$/) as unknown,
    });
    const openedPath = (opened.value as { path: string }).path;
    expect(readFileSync(openedPath).equals(Buffer.from(file.data, 'base64'))).toBe(true);
    const kept = (await (await call('files.kept', [[{ api: 'v0', url: request.url }]], headers)).json()) as {
      value: unknown;
    };
    expect(kept.value).toEqual([
      { url: request.url, kept: true, bytes: Buffer.from(file.data, 'base64').length },
    ]);
    const again2 = (await (await call('files.open', [{ ...stored, keptOnly: true }], headers)).json()) as {
      value: unknown;
    };
    expect(again2.value).toMatchObject({ ok: true, shown: 'saved', from: 'kept' });
    // Out of the way of the exports' test, which reads the same folder.
    rmSync(openedPath);
    rmSync((again2.value as { path: string }).path);
    const under = (await (await call('files.transfers', [], headers)).json()) as { value: unknown };
    expect(under.value).toEqual([]);
    // An address that is not a file is refused, named, before anything.
    const refused = (await (
      await call('files.open', [{ api: 'v0', url: `${platform.url}/api/v0/user`, name: 'x' }], headers)
    ).json()) as { value: unknown };
    expect(refused.value).toMatchObject({
      ok: false,
      notKept: false,
      error: { message: expect.stringMatching(/^The address is not a file of interface v0/) as unknown },
    });
    await call('auth.signOut', [], headers);
  });
});

describe('preview host, exports', () => {
  it('writes an export into its downloads folder in chunks, under a free name, and cancels cleanly', async () => {
    const headers = { origin: pageOrigin() };
    const value = async (channel: string, args: unknown[]) =>
      (
        (await (await call(channel, encodeBridgeArgs(args) as unknown[], headers)).json()) as {
          value: unknown;
        }
      ).value as Record<string, unknown>;
    const downloads = join(dir, 'data', 'downloads');
    const name = 'Accounts – 2026-11-25.csv';
    const first = await value('exports.begin', [name]);
    expect(first).toMatchObject({ ok: true, name });
    const id = first.exportId as string;
    const chunk = new Uint8Array(300_000).map((_, i) => 32 + (i % 90));
    expect(await value('exports.write', [id, chunk])).toEqual({ ok: true, bytes: 300_000 });
    expect(await value('exports.write', [id, chunk])).toEqual({ ok: true, bytes: 600_000 });
    expect(existsSync(join(downloads, name))).toBe(false);
    expect(await value('exports.finish', [id])).toEqual({
      ok: true,
      path: join(downloads, name),
      bytes: 600_000,
    });
    const saved = readFileSync(join(downloads, name));
    expect(saved.equals(Buffer.concat([chunk, chunk]))).toBe(true);

    // No dialog asks before replacing: the next export of that name takes a free one.
    const second = await value('exports.begin', [name]);
    expect(second).toMatchObject({ ok: true, name: 'Accounts – 2026-11-25 (2).csv' });
    await value('exports.write', [second.exportId, chunk]);
    await value('exports.cancel', [second.exportId]);
    expect(readdirSync(downloads).filter((n) => n !== 'avatar.png' && !/^avatar \(\d\)/.test(n))).toEqual([
      name,
    ]);

    // Arguments that are not an export's are refused, named.
    const refused = await value('exports.write', [id, 'not bytes']);
    expect(refused).toMatchObject({
      ok: false,
      error: { kind: 'validation', fields: { chunk: expect.any(Array) as unknown } },
    });
  });
});

describe('preview host, against hostile requests', () => {
  const own = () => ({ origin: pageOrigin() });

  it('shows neither the page nor its files to a request without the cookie (curl)', async () => {
    for (const path of [
      '/',
      '/preview.html',
      '/index.html',
      '/assets/app.js',
      '/?token=',
      '/?token=guessed',
    ]) {
      const res = await fetch(`${host.url}${path}`);
      const text = await res.text();
      expect(res.status, path).toBe(403);
      expect(text, path).not.toMatch(/<title>t|console\.log/);
      expect(text, path).toContain('npm start');
      expect(res.headers.get('set-cookie'), path).toBeNull();
    }
  });

  it('serves nothing outside its per-run path, even to the cookie', async () => {
    const origin = pageOrigin();
    for (const path of ['/', '/preview.html', '/assets/app.js', `${prefix}x/`, `${prefix.slice(0, -1)}/`]) {
      const res = await fetch(`${origin}${path}`, { headers: { cookie } });
      expect(res.status, path).toBe(403);
      expect(await res.text(), path).not.toMatch(/<title>t|console\.log/);
    }
    for (const path of ['/__bridge/settings.get', `${prefix}x/__bridge/settings.get`]) {
      const res = await fetch(`${origin}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie, origin },
        body: '[]',
      });
      expect(res.status, path).toBe(403);
      expect(await res.text(), path).not.toContain('profile');
    }
  });

  it('refuses bridge calls without the cookie, even from the right origin', async () => {
    expect((await call('auth.status', [], { ...own(), cookie: '' })).status).toBe(403);
    const name = cookie.slice(0, cookie.indexOf('='));
    expect((await call('auth.status', [], { ...own(), cookie: `${name}=guessed` })).status).toBe(403);
    expect((await call('auth.status', [], own())).status).toBe(200);
  });

  it('trades the printed token once for an HttpOnly, SameSite=Strict cookie and drops it from the address', async () => {
    const address = host.openUrl();
    expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[\w-]{32}\/\?token=[\w-]{20,}$/);
    const first = await openPrintedAddress(address);
    expect(first.status).toBe(303);
    expect(first.location).toBe(`${prefix}/`);
    expect(first.setCookie).toMatch(/; HttpOnly/);
    expect(first.setCookie).toMatch(/; SameSite=Strict/);
    // Sent by the browser below this run's path only, whatever the port.
    expect(first.setCookie).toContain(`; Path=${prefix};`);
    const page = await (await fetch(`${host.url}/`, { headers: { cookie: first.cookie } })).text();
    expect(page).toContain('(development preview)</title>');

    const second = await openPrintedAddress(address);
    expect(second.status).toBe(403);
    expect(second.setCookie).toBe('');
    expect(second.text).not.toContain('<title>t');
    // A browser that holds the cookie only loses the token from its address.
    const again = await fetch(address, { redirect: 'manual', headers: { cookie: first.cookie } });
    expect(again.status).toBe(303);
    expect(again.headers.get('set-cookie')).toBeNull();
  });

  it('keeps serving after an upload aborted mid-body', async () => {
    const { port } = new URL(host.url);
    await new Promise<void>((resolve) => {
      const req = httpRequest({
        host: '127.0.0.1',
        port,
        path: `${prefix}/__bridge/settings.saveProfile`,
        method: 'POST',
        headers: { ...own(), cookie, 'content-type': 'application/json', 'content-length': 1_000_000 },
      });
      req.on('error', () => resolve());
      req.write('[{"name":"' + 'x'.repeat(100_000), () => {
        setTimeout(() => {
          req.destroy();
          resolve();
        }, 50);
      });
    });
    await new Promise((r) => setTimeout(r, 100));
    expect((await call('auth.status', [], own())).status).toBe(200);
  });

  it('answers a 40 MB body with 413, received by the client, and keeps serving', async () => {
    const res = await fetch(`${host.url}/__bridge/settings.saveProfile`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, ...own() },
      body: `["${'x'.repeat(40 * 1024 * 1024)}"]`,
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: string }).error).toMatch(/too large/);
    expect((await call('auth.status', [], own())).status).toBe(200);
  });

  it('refuses JSON nested 200,000 deep with 400 and says why', async () => {
    const depth = 200_000;
    const res = await fetch(`${host.url}/__bridge/settings.saveProfile`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, ...own() },
      body: `${'['.repeat(depth)}${']'.repeat(depth)}`,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(
      /nests its values deeper than \d+ levels/,
    );
  });

  it('answers to localhost as to 127.0.0.1, and to no other name', async () => {
    const port = new URL(host.url).port;
    const hostName = `localhost:${port}`;
    expect(await rawGet(`${prefix}/`, hostName)).toBe(200);
    const asLocalhost = { host: hostName, origin: `http://${hostName}`, cookie };
    const status = `${prefix}/__bridge/auth.status`;
    expect((await raw(status, asLocalhost, 'POST', '[]')).status).toBe(200);
    // The origin must be the page under the name the request was addressed to.
    expect((await raw(status, { ...asLocalhost, origin: pageOrigin() }, 'POST', '[]')).status).toBe(403);
    expect(await rawGet(`${prefix}/`, `evil.example:${port}`)).toBe(421);
    const rebound = { ...asLocalhost, host: `evil.example:${port}`, origin: `http://evil.example:${port}` };
    expect((await raw(status, rebound, 'POST', '[]')).status).toBe(421);
  });
});
