// Downloads through the real transport from the sandbox platform: to the cache or to a chosen
// path, with server names made safe, only from the interfaces' file addresses, private to the
// user, marked where they came from, and never a half-written file.

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DownloadMarks } from '../../electron/main/files/download-marks.ts';
import { FileService } from '../../electron/main/files/file-service.ts';
import { Transport } from '../../electron/main/transport/transport.ts';
import { sandboxProfile } from '@shared/settings.ts';
import { sandbox } from '../support/sandbox.ts';

const platform = sandbox({ accounts: 10 });
let dir: string;
let transport: Transport;
let saveTo: string | null;
let files: FileService;
/** Every address the transport sent a request to: the token went with each. */
let sent: string[] = [];
let dialogs = 0;
/** What the marks port was given, and the temporary file as it stood then. */
let marked: { path: string; source: string; mode: number }[] = [];
const marks: DownloadMarks = {
  kind: 'none',
  mark: (path, source) => {
    marked.push({ path, source: source.href, mode: statSync(path).mode & 0o777 });
    return Promise.resolve();
  },
};
/** The user key bound to the sign-in (data/identity/): Alex's, unless a test signs in another. */
const ALEX = 'a1'.repeat(16);
const SAM = 'b2'.repeat(16);
let bound: string | null = ALEX;
const userCache = (user = ALEX) => join(dir, 'cache', user);
// POSIX modes only: Windows has no such bits (its folders inherit their ACLs).
const posix = process.platform !== 'win32';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'files-'));
  const token = platform.control.token('advisor@sandbox.test').access_token;
  transport = new Transport({
    profile: () => sandboxProfile(platform.url),
    tokens: {
      accessToken: () => Promise.resolve(token),
      refreshAfterUnauthorized: () => Promise.resolve(null),
    },
    fetch: (input, init) => {
      sent.push(input instanceof Request ? input.url : input.toString());
      return globalThis.fetch(input, init);
    },
  });
  files = new FileService(
    {
      download: (url, o) => transport.download(url, o),
      address: (api, url) => transport.downloadAddress(api, url),
    },
    join(dir, 'cache'),
    () => {
      dialogs++;
      return Promise.resolve(saveTo);
    },
    () => Promise.resolve(bound),
    marks,
  );
});

beforeEach(() => {
  bound = ALEX;
  sent = [];
  marked = [];
  dialogs = 0;
});

afterAll(() => {
  transport.dispose();
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
  it("keeps each user's documents in their own folder and removes one user's only when asked", async () => {
    const { url } = avatar();
    const alex = await files.fetch({ api: 'v0', url, suggestedName: 'mine.png', target: 'cache' });
    bound = SAM;
    const sam = await files.fetch({ api: 'v0', url, suggestedName: 'mine.png', target: 'cache' });
    expect(alex).toMatchObject({ ok: true, path: join(userCache(ALEX), 'mine.png') });
    expect(sam).toMatchObject({ ok: true, path: join(userCache(SAM), 'mine.png') });
    // Sam asks to remove this computer's copy: Sam's folder goes, Alex's stays.
    expect(await files.forgetUser(SAM)).toEqual({ ok: true });
    expect(existsSync(userCache(SAM))).toBe(false);
    expect(existsSync(join(userCache(ALEX), 'mine.png'))).toBe(true);
    // Anything but a user key is refused, and nothing is removed.
    for (const path of ['..', '../cache', '', ALEX.slice(1), `${ALEX}/..`]) {
      expect(await files.forgetUser(path)).toMatchObject({ ok: false });
    }
    expect(existsSync(join(userCache(ALEX), 'mine.png'))).toBe(true);
  });

  it('keeps nothing for offline viewing while no user is bound to the sign-in', async () => {
    bound = null;
    const { url } = avatar();
    const before = sent.length;
    const result = await files.fetch({ api: 'v0', url, suggestedName: 'nobody.png', target: 'cache' });
    expect(result).toMatchObject({ ok: false, cancelled: false, error: { kind: 'auth' } });
    expect(sent.length).toBe(before);
    expect(existsSync(join(dir, 'cache', 'nobody.png'))).toBe(false);
  });

  it('downloads into the cache with the bytes the platform holds, numbering a name that is taken', async () => {
    const { url, bytes } = avatar();
    const first = await files.fetch({ api: 'v0', url, suggestedName: 'avatar.png', target: 'cache' });
    const second = await files.fetch({ api: 'v0', url, suggestedName: 'avatar.png', target: 'cache' });
    expect(first).toMatchObject({ ok: true, bytes: bytes.length });
    expect(second).toMatchObject({ ok: true });
    if (!first.ok || !second.ok) return;
    expect(first.path).toBe(join(userCache(), 'avatar.png'));
    expect(second.path).toBe(join(userCache(), 'avatar (2).png'));
    expect(readFileSync(first.path).equals(bytes)).toBe(true);
  });

  it('makes a hostile suggested name safe before it touches the disk', async () => {
    const { url } = avatar();
    const result = await files.fetch({ api: 'v0', url, suggestedName: '../../../.bashrc', target: 'cache' });
    expect(result).toMatchObject({ ok: true, path: join(userCache(), 'bashrc') });
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
    const cache = userCache();
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
    const before = readdirSync(userCache()).length;
    const result = await files.fetch({
      api: 'v0',
      url: `${platform.url}/api/v0/files/00000000-0000-4000-8000-000000000000/x.png`,
      suggestedName: 'x.png',
      target: 'cache',
    });
    expect(result).toMatchObject({ ok: false, cancelled: false, error: { kind: 'not-found', status: 404 } });
    expect(readdirSync(userCache()).length).toBe(before);
    expect(existsSync(join(userCache(), 'x.png'))).toBe(false);
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

  it('gives the file, the temporary file and the folders it makes to the user alone (0600 in 0700)', async () => {
    const { url } = avatar();
    const cache = await files.fetch({ api: 'v0', url, suggestedName: 'private.png', target: 'cache' });
    saveTo = join(dir, 'made', 'for', 'me', 'private.png');
    const saved = await files.fetch({ api: 'v0', url, suggestedName: 'private.png', target: 'save' });
    expect(cache).toMatchObject({ ok: true });
    expect(saved).toMatchObject({ ok: true, path: saveTo });
    if (!cache.ok || !saved.ok) return;
    // The temporary file: short, hidden, beside its target, private from the start.
    expect(marked.map((m) => dirname(m.path))).toEqual([dirname(cache.path), dirname(saved.path)]);
    for (const m of marked) expect(basename(m.path)).toMatch(/^\.[A-Za-z0-9_-]{8}\.part$/);
    if (!posix) return;
    for (const m of marked) expect(m.mode).toBe(0o600);
    const mode = (path: string) => statSync(path).mode & 0o777;
    expect(mode(cache.path)).toBe(0o600);
    expect(mode(saved.path)).toBe(0o600);
    expect(mode(userCache())).toBe(0o700);
    expect(mode(join(dir, 'cache'))).toBe(0o700);
    for (const folder of ['made', 'made/for', 'made/for/me']) expect(mode(join(dir, folder))).toBe(0o700);
  });

  it('marks each download with the address it came from, before it gets its name', async () => {
    const { url } = avatar();
    const result = await files.fetch({ api: 'v0', url, suggestedName: 'marked.png', target: 'cache' });
    expect(result).toMatchObject({ ok: true });
    expect(marked).toHaveLength(1);
    expect(marked[0]?.source).toBe(url);
    expect(existsSync(marked[0]?.path ?? '')).toBe(false); // renamed since
  });

  it('a 70-character Japanese name (214 bytes in UTF-8) is saved, cut to 200 bytes', async () => {
    const { url, bytes } = avatar();
    const name = `${'資産運用報告書'.repeat(10)}.pdf`;
    const result = await files.fetch({ api: 'v0', url, suggestedName: name, target: 'cache' });
    expect(result).toMatchObject({ ok: true });
    if (!result.ok) return;
    expect(basename(result.path)).toBe(`${'資産運用報告書'.repeat(10).slice(0, 65)}.pdf`);
    expect(readFileSync(result.path).equals(bytes)).toBe(true);
  });

  it("downloads version 2's engagement documents and signatures by the addresses the interface gives", async () => {
    const engagement = platform.control
      .dump()
      .engagements.find((e) => e.signatures.length > 0 && e.documents.some((d) => d.files.length > 0));
    if (!engagement) throw new Error('the sandbox has no engagement with a signature and a document');
    const list = async (what: string) => {
      const answer = await transport.request<{ items: Record<string, unknown>[] }>({
        api: 'v2',
        method: 'GET',
        path: `/engagements/${engagement.id}/${what}`,
      });
      if (!answer.ok) throw new Error(answer.message);
      return answer.data.items;
    };
    const signature = (await list('signatures'))[0]?.file as string;
    const documents = (await list('documents')).find((d) => (d.files as unknown[]).length > 0);
    const document = (documents?.files as { url: string }[])[0]?.url as string;
    for (const url of [signature, document]) {
      const result = await files.fetch({ api: 'v2', url, suggestedName: 'engagement file', target: 'cache' });
      expect(result, url).toMatchObject({ ok: true });
      if (result.ok) expect(result.bytes).toBeGreaterThan(0);
    }
  });

  describe('addresses that are not files of the platform: refused before any request, dialog or file', () => {
    let elsewhere: Server;
    let hits = 0;
    let elsewhereUrl = '';
    beforeAll(async () => {
      elsewhere = createServer((_req, res) => {
        hits++;
        res.end('stolen');
      });
      await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
      elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => elsewhere.close(() => resolve())));

    const refused: [string, 'v0' | 'v2', () => string][] = [
      ['the sandbox state', 'v0', () => `${platform.url}/__sandbox/state`],
      ['the sandbox state, by a relative path', 'v0', () => '/../../__sandbox/state'],
      [
        'the sandbox state, by escaped dots',
        'v0',
        () => `${platform.url}/api/v0/files/%2e%2e/%2e%2e/../__sandbox/state`,
      ],
      ['an escaped slash', 'v0', () => `${platform.url}/api/v0/files/..%2f..%2f__sandbox%2fstate`],
      ['the token endpoint', 'v0', () => `${platform.url}/oauth/token`],
      ['a JSON endpoint of the interface', 'v0', () => `${platform.url}/api/v0/user`],
      ['a file of the other interface', 'v2', () => avatar().url],
      ['another origin, with a file path', 'v0', () => `${elsewhereUrl}/api/v0/files/x/y.png`],
    ];
    it.each(refused)('%s', async (_what, api, address) => {
      const before = platform.control.stats().total;
      const cacheBefore = readdirSync(userCache()).sort();
      saveTo = join(dir, 'refused', 'x.png');
      for (const target of ['cache', 'save'] as const) {
        const result = await files.fetch({ api, url: address(), suggestedName: 'x.png', target });
        expect(result).toMatchObject({
          ok: false,
          cancelled: false,
          error: { kind: 'validation', status: null },
        });
        if (result.ok || result.cancelled) return;
        expect(result.error.message).toMatch(
          /not (a file of interface|on the platform)|escaped|not valid|refused/,
        );
      }
      expect(sent).toEqual([]);
      expect(hits).toBe(0);
      expect(platform.control.stats().total).toBe(before);
      expect(dialogs).toBe(0);
      expect(existsSync(join(dir, 'refused'))).toBe(false);
      expect(readdirSync(userCache()).sort()).toEqual(cacheBefore);
    });

    it('says where the files of the interface are', async () => {
      const result = await files.fetch({
        api: 'v0',
        url: `${platform.url}/__sandbox/state`,
        suggestedName: 'state.json',
        target: 'cache',
      });
      if (result.ok || result.cancelled) throw new Error('not refused');
      expect(result.error.message).toBe(
        `The address is not a file of interface v0 (files are at ${platform.url}/api/v0/files/…, ` +
          `${platform.url}/api/v0/user/reports/…, ${platform.url}/api/v0/accounts/{id}/reports/…); it was not fetched.`,
      );
    });
  });
});

describe('FileService: pictures shown in the app', () => {
  it('fetches a picture once into the user’s cache, then reads it from there without the network', async () => {
    const { url, bytes } = avatar();
    const first = await files.preview({ api: 'v0', url });
    expect(first.ok && Buffer.from(first.bytes).equals(bytes)).toBe(true);
    expect(sent).toHaveLength(1);
    // Kept among the user's own files, private to them, under a name that tells nothing.
    const kept = readdirSync(join(userCache(), '.previews'));
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatch(/^[0-9a-f]{40}$/);
    if (posix) {
      expect(statSync(join(userCache(), '.previews', kept[0]!)).mode & 0o777).toBe(0o600);
      expect(statSync(join(userCache(), '.previews')).mode & 0o777).toBe(0o700);
    }

    // Offline (the platform down for good measure): the same picture, and no request.
    platform.control.maintenance(true);
    try {
      const again = await files.preview({ api: 'v0', url });
      expect(again.ok && Buffer.from(again.bytes).equals(bytes)).toBe(true);
      expect(sent).toHaveLength(1);
    } finally {
      platform.control.maintenance(false);
    }
  });

  it('keeps each user’s pictures apart, and removes them with the rest of their copy', async () => {
    const { url } = avatar();
    expect((await files.preview({ api: 'v0', url })).ok).toBe(true);
    bound = SAM;
    // Sam's copy is Sam's: fetched for Sam, not read from Alex's folder.
    const before = sent.length;
    expect((await files.preview({ api: 'v0', url })).ok).toBe(true);
    expect(sent.length).toBe(before + 1);
    expect(await files.forgetUser(SAM)).toEqual({ ok: true });
    expect(existsSync(userCache(SAM))).toBe(false);
    expect(readdirSync(join(userCache(ALEX), '.previews')).length).toBeGreaterThan(0);
  });

  it('refuses without a user bound, and an address outside the platform, sending nothing', async () => {
    bound = null;
    const { url } = avatar();
    expect(await files.preview({ api: 'v0', url })).toMatchObject({ ok: false, error: { kind: 'auth' } });
    bound = ALEX;
    const outside = await files.preview({ api: 'v0', url: 'https://elsewhere.example/files/1/p.png' });
    expect(outside.ok).toBe(false);
    expect(sent).toEqual([]);
  });
});
