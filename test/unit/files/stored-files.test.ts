// The offline cache of an account's stored files (electron/main/files/stored-files.ts) on a real
// disk: kept per user, opened from the copy without the platform, gone with the user's copy, and
// no address but the documents' file addresses ever looked up. The platform's side is a stand-in
// serving bytes by address (its real transport runs in test/integration/stored-files.test.ts);
// the address check is the real one (file-addresses.ts).

import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiFailure, ApiName } from '@shared/api/request.ts';
import { fileAddressProblem } from '../../../electron/main/files/file-addresses.ts';
import { FileService, type DownloadBody } from '../../../electron/main/files/file-service.ts';
import { StoredFiles } from '../../../electron/main/files/stored-files.ts';

const BASE: Record<ApiName, string> = {
  v2: 'https://platform.example/api/v2',
  v0: 'https://platform.example/api/v0',
};
const PHOTO = `${BASE.v0}/files/9f1c/alex-portrait.png`;
const STATEMENT = `${BASE.v0}/files/77ab/statement.pdf`;
const SERVED: Record<string, Uint8Array> = {
  [PHOTO]: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]),
  [STATEMENT]: new TextEncoder().encode('%PDF-1.4 statement'),
};
const ALEX = 'a1'.repeat(16);
const SAM = 'b2'.repeat(16);
const posix = process.platform !== 'win32';

let dir: string;
let bound: string | null;
let networkUp: boolean;
/** Every address the platform was asked for. */
let fetched: string[];
/** What the system's viewer was asked to open. */
let viewed: string[];
let files: FileService;
let stored: StoredFiles;

function unreachable(): ApiFailure {
  return {
    ok: false,
    kind: 'network',
    status: null,
    message: 'The platform could not be reached.',
    fields: {},
    retryAfterMs: 5000,
  };
}

function make(openPath: ((path: string) => Promise<string>) | null): StoredFiles {
  const address = (api: ApiName, url: string): URL | ApiFailure => {
    const target = new URL(url, `${BASE[api]}/`);
    const problem = fileAddressProblem(api, new URL(BASE[api]), target);
    return problem === null
      ? target
      : { ok: false, kind: 'validation', status: null, message: problem, fields: {}, retryAfterMs: null };
  };
  const platform = {
    address,
    download: (url: string): Promise<DownloadBody> => {
      fetched.push(url);
      const bytes = SERVED[url];
      if (!networkUp) return Promise.resolve(unreachable());
      if (!bytes) return Promise.resolve({ ...unreachable(), kind: 'not-found', status: 404 });
      return Promise.resolve({ ok: true, body: bytes, contentLength: bytes.length });
    },
  };
  files = new FileService(
    platform,
    join(dir, 'cache'),
    (name) => Promise.resolve(join(dir, 'downloads', name)),
    () => Promise.resolve(bound),
    { kind: 'none', mark: () => Promise.resolve() },
  );
  return new StoredFiles(files, platform, openPath);
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'stored-files-'));
  bound = ALEX;
  networkUp = true;
  fetched = [];
  viewed = [];
  stored = make((path) => {
    viewed.push(path);
    return Promise.resolve('');
  });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const open = (url: string, extra: { keptOnly?: boolean } = {}) =>
  stored.open({ api: 'v0', url, name: url.split('/').pop() ?? '', ...extra });

describe('StoredFiles: the offline cache', () => {
  it('downloads a file once into the user’s cache and opens it from there, offline too', async () => {
    const first = await open(STATEMENT);
    expect(first).toMatchObject({
      ok: true,
      shown: 'viewer',
      from: 'platform',
      bytes: SERVED[STATEMENT]!.length,
    });
    if (!first.ok) throw new Error('not opened');
    // Under the user's folder, by a hash of the address, with the file's own name for the viewer.
    expect(first.path).toMatch(new RegExp(`${ALEX}[/\\\\]\\.kept[/\\\\][0-9a-f]{40}[/\\\\]statement\\.pdf$`));
    expect(readFileSync(first.path)).toEqual(Buffer.from(SERVED[STATEMENT]!));
    expect(viewed).toEqual([first.path]);
    if (posix) expect(statSync(first.path).mode & 0o777).toBe(0o600);

    networkUp = false;
    const again = await open(STATEMENT);
    const keptOnly = await open(STATEMENT, { keptOnly: true });
    expect(again).toMatchObject({ ok: true, from: 'kept', path: first.path });
    expect(keptOnly).toMatchObject({ ok: true, from: 'kept', path: first.path });
    expect(fetched).toEqual([STATEMENT]);
    expect(await stored.kept([{ api: 'v0', url: STATEMENT }])).toEqual([
      { url: STATEMENT, kept: true, bytes: SERVED[STATEMENT]!.length },
    ]);
  });

  it('offline and never downloaded: "Not downloaded yet — available when online", and no request', async () => {
    const answer = await open(PHOTO, { keptOnly: true });
    expect(answer).toMatchObject({
      ok: false,
      notKept: true,
      error: { message: 'Not downloaded yet — available when online.' },
    });
    expect(await stored.save({ api: 'v0', url: PHOTO, name: 'p.png', keptOnly: true })).toMatchObject({
      ok: false,
      error: { message: 'Not downloaded yet — available when online.' },
    });
    expect(fetched).toEqual([]);
    expect(viewed).toEqual([]);
  });

  it('keeps each user’s files apart: another user neither sees nor opens them', async () => {
    expect(await stored.keep([{ api: 'v0', url: PHOTO, name: 'alex-portrait.png' }])).toEqual({
      kept: 0,
      fetched: 1,
      failed: [],
    });
    bound = SAM;
    expect(await stored.kept([{ api: 'v0', url: PHOTO }])).toEqual([
      { url: PHOTO, kept: false, bytes: null },
    ]);
    expect(await open(PHOTO, { keptOnly: true })).toMatchObject({ ok: false, notKept: true });
    const sams = await open(PHOTO);
    if (!sams.ok) throw new Error('not opened');
    expect(sams.from).toBe('platform');
    expect(sams.path).toContain(SAM);
    expect(fetched).toEqual([PHOTO, PHOTO]);
    // Nobody bound to the sign-in: nothing is kept or looked up.
    bound = null;
    expect(await open(PHOTO)).toMatchObject({ ok: false, error: { kind: 'auth' } });
    expect(await stored.kept([{ api: 'v0', url: PHOTO }])).toEqual([
      { url: PHOTO, kept: false, bytes: null },
    ]);
  });

  it('removes a user’s kept files with the rest of their copy, and only theirs', async () => {
    await stored.keep([{ api: 'v0', url: STATEMENT, name: 'statement.pdf' }]);
    bound = SAM;
    await stored.keep([{ api: 'v0', url: STATEMENT, name: 'statement.pdf' }]);
    expect(await files.forgetUser(ALEX)).toEqual({ ok: true });
    bound = ALEX;
    expect(await stored.kept([{ api: 'v0', url: STATEMENT }])).toEqual([
      { url: STATEMENT, kept: false, bytes: null },
    ]);
    networkUp = false;
    expect(await open(STATEMENT, { keptOnly: true })).toMatchObject({ ok: false, notKept: true });
    bound = SAM;
    expect(await open(STATEMENT, { keptOnly: true })).toMatchObject({ ok: true, from: 'kept' });
  });

  it('refuses an address that is not a document’s file address, naming where files are, before anything', async () => {
    for (const url of [
      `${BASE.v0}/user`,
      'https://elsewhere.example/api/v0/files/1/x.pdf',
      `${BASE.v0}/files/%2e%2e/user`,
    ]) {
      const request = { api: 'v0' as const, url, name: 'x.pdf' };
      const opened = await stored.open(request);
      expect(opened, url).toMatchObject({ ok: false, notKept: false, error: { kind: 'validation' } });
      if (opened.ok) continue;
      expect(opened.error.message, url).toMatch(/it was not fetched\.$/);
      expect((await stored.save(request)).ok).toBe(false);
      expect((await stored.keep([request])).failed).toHaveLength(1);
      expect(await stored.kept([request])).toEqual([{ url, kept: false, bytes: null }]);
    }
    const outside = await stored.open({ api: 'v0', url: `${BASE.v0}/user`, name: 'x' });
    expect(outside.ok || outside.error.message).toBe(
      `The address is not a file of interface v0 (files are at ${BASE.v0}/files/…, ${BASE.v0}/user/reports/…, ` +
        `${BASE.v0}/accounts/{id}/reports/…); it was not fetched.`,
    );
    expect(fetched).toEqual([]);
    expect(viewed).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('never hands a program or a script to the system, whatever the platform named it; Save… still keeps it', async () => {
    for (const name of [
      'setup.exe',
      'statement.pdf.bat',
      'report.desktop',
      'open.command',
      'run.sh',
      'noext',
    ]) {
      const url = `${BASE.v0}/files/77ab/${name}`;
      const answer = await stored.open({ api: 'v0', url, name });
      expect(answer, name).toMatchObject({
        ok: false,
        notKept: false,
        error: {
          kind: 'validation',
          message: `${name} is not a document or a picture, so Advisor Desk does not open it; use Save… to keep it.`,
        },
      });
    }
    // Judged by the name it gets on disk, not by the address: a program behind a PDF's address is refused.
    expect((await stored.open({ api: 'v0', url: STATEMENT, name: 'statement.exe' })).ok).toBe(false);
    expect(fetched).toEqual([]);
    expect(viewed).toEqual([]);
    expect(await stored.save({ api: 'v0', url: STATEMENT, name: 'statement.exe' })).toMatchObject({
      ok: true,
    });
  });

  it('in the browser preview (no viewer), saves the opened file in its downloads folder, same bytes', async () => {
    stored = make(null);
    const answer = await open(STATEMENT);
    expect(answer).toMatchObject({ ok: true, shown: 'saved', path: join(dir, 'downloads', 'statement.pdf') });
    expect(readFileSync(join(dir, 'downloads', 'statement.pdf'))).toEqual(Buffer.from(SERVED[STATEMENT]!));
    // Saved again offline: from the kept copy.
    networkUp = false;
    const saved = await stored.save({ api: 'v0', url: STATEMENT, name: 'copy.pdf', keptOnly: true });
    expect(saved).toMatchObject({ ok: true, path: join(dir, 'downloads', 'copy.pdf') });
    expect(fetched).toEqual([STATEMENT]);
  });

  it('a picture kept for a meeting is shown from the kept copy, without a second download', async () => {
    await stored.keep([{ api: 'v0', url: PHOTO, name: 'alex-portrait.png' }]);
    networkUp = false;
    const shown = await files.preview({ api: 'v0', url: PHOTO });
    expect(shown.ok && Buffer.from(shown.bytes)).toEqual(Buffer.from(SERVED[PHOTO]!));
    expect(fetched).toEqual([PHOTO]);
  });
});
