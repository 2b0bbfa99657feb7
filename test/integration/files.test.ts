// Downloads through the real transport from the sandbox platform: to the cache or to a chosen
// path, with server names made safe, and never a half-written file.

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileService } from '../../electron/main/files/file-service.ts';
import { Transport } from '../../electron/main/transport/transport.ts';
import { sandboxProfile } from '@shared/settings.ts';
import { startPlatform, type Platform } from '../platform/server.ts';

let platform: Platform;
let dir: string;
let transport: Transport;
let saveTo: string | null;
let files: FileService;

beforeAll(async () => {
  platform = await startPlatform({ port: 0, accounts: 10, rateLimit: 0 });
  dir = mkdtempSync(join(tmpdir(), 'files-'));
  const token = platform.control.token('advisor@sandbox.test').access_token;
  transport = new Transport({
    profile: () => sandboxProfile(platform.url),
    tokens: {
      accessToken: () => Promise.resolve(token),
      refreshAfterUnauthorized: () => Promise.resolve(null),
    },
  });
  files = new FileService(
    (url, o) => transport.download(url, o),
    join(dir, 'cache'),
    () => Promise.resolve(saveTo),
  );
});

afterAll(async () => {
  transport.dispose();
  await platform.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The advisor's avatar, as the platform stores it. */
function avatar() {
  const state = platform.control.dump();
  const user = state.users.find((u) => u.email === 'advisor@sandbox.test');
  const file = state.files[user?.photo ?? ''];
  if (!file) throw new Error('the sandbox user has no photo');
  return {
    url: `${platform.url}/api/v0/files/${file.id}/${file.name}`,
    bytes: Buffer.from(file.data, 'base64'),
  };
}

describe('FileService', () => {
  it('downloads into the cache with the bytes the platform holds, numbering a name that is taken', async () => {
    const { url, bytes } = avatar();
    const first = await files.fetch({ api: 'v0', url, suggestedName: 'avatar.png', target: 'cache' });
    const second = await files.fetch({ api: 'v0', url, suggestedName: 'avatar.png', target: 'cache' });
    expect(first).toMatchObject({ ok: true, bytes: bytes.length });
    expect(second).toMatchObject({ ok: true });
    if (!first.ok || !second.ok) return;
    expect(first.path).toBe(join(dir, 'cache', 'avatar.png'));
    expect(second.path).toBe(join(dir, 'cache', 'avatar (2).png'));
    expect(readFileSync(first.path).equals(bytes)).toBe(true);
  });

  it('makes a hostile suggested name safe before it touches the disk', async () => {
    const { url } = avatar();
    const result = await files.fetch({ api: 'v0', url, suggestedName: '../../../.bashrc', target: 'cache' });
    expect(result).toMatchObject({ ok: true, path: join(dir, 'cache', 'bashrc') });
  });

  it('saves where the user chose, making the folder when it does not exist yet, and does nothing when the user cancels', async () => {
    const { url, bytes } = avatar();
    // As the browser preview chooses: a folder of its own, not made until the first save.
    saveTo = join(dir, 'chosen', 'downloads', 'My photo.png');
    expect(existsSync(join(dir, 'chosen'))).toBe(false);
    const saved = await files.fetch({ api: 'v0', url, suggestedName: 'avatar.png', target: 'save' });
    expect(saved).toMatchObject({ ok: true, path: saveTo });
    expect(readFileSync(saveTo).equals(bytes)).toBe(true);
    saveTo = null;
    expect(await files.fetch({ api: 'v0', url, suggestedName: 'avatar.png', target: 'save' })).toEqual({
      ok: false,
      cancelled: true,
    });
  });

  it('a folder that cannot be made is a disk failure naming it, and costs no request', async () => {
    const { url } = avatar();
    writeFileSync(join(dir, 'not-a-folder'), 'a file where the folder should be');
    saveTo = join(dir, 'not-a-folder', 'photo.png');
    const before = platform.control.stats().total;
    const result = await files.fetch({ api: 'v0', url, suggestedName: 'photo.png', target: 'save' });
    expect(result).toMatchObject({ ok: false, cancelled: false, error: { kind: 'io', retryAfterMs: null } });
    if (result.ok || result.cancelled) return;
    expect(result.error.message).toContain(join(dir, 'not-a-folder'));
    expect(result.error.message).toMatch(/part of the path is a file, not a folder/);
    expect(platform.control.stats().total).toBe(before);
  });

  it('two downloads of one name at once land in two files, each whole, with no temporary file left', async () => {
    const { url, bytes } = avatar();
    const cache = join(dir, 'cache');
    const results = await Promise.all(
      [1, 2, 3].map(() => files.fetch({ api: 'v0', url, suggestedName: 'together.png', target: 'cache' })),
    );
    const paths = results.map((r) => (r.ok ? r.path : `failed: ${JSON.stringify(r)}`));
    expect(new Set(paths).size).toBe(3);
    expect(paths.sort()).toEqual(
      ['together.png', 'together (2).png', 'together (3).png'].map((n) => join(cache, n)).sort(),
    );
    for (const path of paths) expect(readFileSync(path).equals(bytes)).toBe(true);
    expect(readdirSync(cache).filter((n) => n.includes('.part'))).toEqual([]);
  });

  it('reports a file the platform does not have, and leaves nothing behind', async () => {
    const before = readdirSync(join(dir, 'cache')).length;
    const result = await files.fetch({
      api: 'v0',
      url: `${platform.url}/api/v0/files/00000000-0000-4000-8000-000000000000/x.png`,
      suggestedName: 'x.png',
      target: 'cache',
    });
    expect(result).toMatchObject({ ok: false, cancelled: false, error: { kind: 'not-found', status: 404 } });
    expect(readdirSync(join(dir, 'cache')).length).toBe(before);
    expect(existsSync(join(dir, 'cache', 'x.png'))).toBe(false);
  });

  it('refuses a url outside the platform', async () => {
    const result = await files.fetch({
      api: 'v0',
      url: 'https://elsewhere.example/file.png',
      suggestedName: 'file.png',
      target: 'cache',
    });
    expect(result).toMatchObject({ ok: false, cancelled: false });
  });
});
