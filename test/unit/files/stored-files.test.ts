// The offline cache of an account's stored files (electron/main/files/stored-files.ts) on a real
// disk: kept per user, opened from the copy without the platform, gone with the user's copy, and
// no address but the documents' file addresses ever looked up. The platform's side is a stand-in
// serving bytes by address (its real transport runs in test/integration/stored-files.test.ts);
// the address check is the real one (file-addresses.ts).

import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiFailure, ApiName } from '@shared/api/request.ts';
import { fileAddressProblem } from '../../../electron/main/files/file-addresses.ts';
import { FileService, type DownloadBody } from '../../../electron/main/files/file-service.ts';
import { OPENED_COPY_AGE_MS, removeOldOpenedCopies } from '../../../electron/main/files/opened-copies.ts';
import { StoredFiles } from '../../../electron/main/files/stored-files.ts';

const BASE: Record<ApiName, string> = {
  v2: 'https://platform.example/api/v2',
  v0: 'https://platform.example/api/v0',
};
const PHOTO = `${BASE.v0}/files/9f1c/alex-portrait.png`;
const STATEMENT = `${BASE.v0}/files/77ab/statement.pdf`;
/** A file whose address names nothing; the platform names it in its answer (Content-Disposition). */
const NAMED = `${BASE.v2}/accounts/12/file/document/5c5c`;
/** Bytes a compromised window uploaded; the platform calls them payload.bin. */
const PAYLOAD = `${BASE.v2}/accounts/12/file/document/6d6d`;
const SERVED: Record<string, Uint8Array> = {
  [PHOTO]: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]),
  [STATEMENT]: new TextEncoder().encode('%PDF-1.4 statement'),
  [NAMED]: new TextEncoder().encode('%PDF-1.4 Smith'),
  [PAYLOAD]: new TextEncoder().encode('{\\rtf1 {\\object\\objemb ...}}'),
};
/** The names the platform's answers give, by address (none for the others). */
const SERVED_NAMES: Record<string, string> = {
  [NAMED]: '../../.hidden/Smith: statement.pdf',
  [PAYLOAD]: 'payload.bin',
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
      return Promise.resolve({
        ok: true,
        body: bytes,
        contentLength: bytes.length,
        fileName: SERVED_NAMES[url] ?? null,
      });
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

const open = (url: string, extra: { keptOnly?: boolean; name?: string } = {}) =>
  stored.open({ api: 'v0', url, name: url.split('/').pop() ?? '', ...extra });

/** The files kept offline for `user` (their `.kept` folder), by path. */
function keptFiles(user: string): string[] {
  const kept = join(dir, 'cache', user, '.kept');
  if (!existsSync(kept)) return [];
  return readdirSync(kept).flatMap((hash) =>
    readdirSync(join(kept, hash))
      .filter((name) => !name.startsWith('.'))
      .map((name) => join(kept, hash, name)),
  );
}

/** Opens `url` and returns the path the viewer was handed. */
async function viewerPath(url: string, extra: { keptOnly?: boolean; name?: string } = {}): Promise<string> {
  const answer = await open(url, extra);
  if (!answer.ok) throw new Error(answer.error.message);
  expect(viewed.at(-1)).toBe(answer.path);
  return answer.path;
}

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
    // Kept under the user's folder, by a hash of the address, with the file's own name.
    const kept = keptFiles(ALEX);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatch(new RegExp(`${ALEX}[/\\\\]\\.kept[/\\\\][0-9a-f]{40}[/\\\\]statement\\.pdf$`));
    expect(readFileSync(kept[0]!)).toEqual(Buffer.from(SERVED[STATEMENT]!));
    if (posix) expect(statSync(kept[0]!).mode & 0o777).toBe(0o600);
    // The viewer got a copy of it, under the file's own name.
    expect(viewed).toEqual([first.path]);
    expect(first.path).toMatch(/[/\\]statement\.pdf$/);
    expect(readFileSync(first.path)).toEqual(Buffer.from(SERVED[STATEMENT]!));

    networkUp = false;
    const again = await open(STATEMENT);
    const keptOnly = await open(STATEMENT, { keptOnly: true });
    expect(again).toMatchObject({ ok: true, from: 'kept' });
    expect(keptOnly).toMatchObject({ ok: true, from: 'kept' });
    expect(viewed.map((path) => readFileSync(path))).toEqual(Array(3).fill(Buffer.from(SERVED[STATEMENT]!)));
    expect(keptFiles(ALEX)).toEqual(kept);
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

  it('takes a file’s name from what it downloaded, never from the window (a relabelled upload is not opened)', async () => {
    // What a compromised window asks: open the platform's payload.bin as an RTF document.
    const answer = await stored.open({ api: 'v2', url: PAYLOAD, name: 'minutes.rtf' });
    expect(answer).toMatchObject({
      ok: false,
      error: {
        message:
          'payload.bin is not a document or a picture, so Advisor Desk does not open it; use Save… to keep it.',
      },
    });
    expect(viewed).toEqual([]);
    // Kept by the platform's name, and found by it again offline, whatever the window calls it.
    expect(keptFiles(ALEX).map((path) => path.split(/[/\\]/).pop())).toEqual(['payload.bin']);
    networkUp = false;
    expect((await stored.open({ api: 'v2', url: PAYLOAD, name: 'minutes.doc', keptOnly: true })).ok).toBe(
      false,
    );
    expect(viewed).toEqual([]);
    const saved = await stored.save({ api: 'v2', url: PAYLOAD, name: 'minutes.rtf', keptOnly: true });
    expect(saved).toMatchObject({ ok: true, path: join(dir, 'downloads', 'payload.bin') });
  });

  it('Save… of a file not kept here asks with the name the platform gives it', async () => {
    const saved = await stored.save({ api: 'v2', url: PAYLOAD, name: 'minutes.xls' });
    expect(saved).toMatchObject({ ok: true, path: join(dir, 'downloads', 'payload.bin') });
    if (saved.ok) expect(readFileSync(saved.path)).toEqual(Buffer.from(SERVED[PAYLOAD]!));
    expect(fetched).toEqual([PAYLOAD]);
  });

  it('in the browser preview (no viewer), saves the opened file in its downloads folder, same bytes', async () => {
    stored = make(null);
    const answer = await open(STATEMENT);
    expect(answer).toMatchObject({ ok: true, shown: 'saved', path: join(dir, 'downloads', 'statement.pdf') });
    expect(readFileSync(join(dir, 'downloads', 'statement.pdf'))).toEqual(Buffer.from(SERVED[STATEMENT]!));
    // Saved again offline: from the kept copy.
    networkUp = false;
    // Under the name it was kept by, not the one the window sent (issue 24).
    const saved = await stored.save({ api: 'v0', url: STATEMENT, name: 'copy.pdf', keptOnly: true });
    expect(saved).toMatchObject({ ok: true, path: join(dir, 'downloads', 'statement.pdf') });
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

describe('StoredFiles: Open hands the viewer a copy, never the kept file', () => {
  it('gives the viewer a private copy outside the kept files, with the same bytes', async () => {
    await stored.keep([{ api: 'v0', url: STATEMENT, name: 'statement.pdf' }]);
    const [kept] = keptFiles(ALEX);
    networkUp = false;
    const path = await viewerPath(STATEMENT, { keptOnly: true });
    expect(relative(join(dir, 'cache', ALEX, '.kept'), path).startsWith('..')).toBe(true);
    // Still in the user's own folder, so it goes with it at sign-out.
    expect(relative(join(dir, 'cache', ALEX), path).startsWith('..')).toBe(false);
    expect(path).not.toBe(kept);
    expect(readFileSync(path)).toEqual(readFileSync(kept!));
    if (posix) {
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(statSync(dirname(path)).mode & 0o777).toBe(0o700);
      expect(statSync(dirname(dirname(path))).mode & 0o777).toBe(0o700);
    }
  });

  it('an edit saved in the viewer leaves the kept file, and what is read from it, as the platform holds it', async () => {
    await stored.keep([{ api: 'v0', url: PHOTO, name: 'alex-portrait.png' }]);
    const [kept] = keptFiles(ALEX);
    networkUp = false;
    const path = await viewerPath(PHOTO, { keptOnly: true });
    writeFileSync(path, 'annotated in the viewer');
    expect(readFileSync(kept!)).toEqual(Buffer.from(SERVED[PHOTO]!));
    // The picture shown in the app (and put in an export) is still the platform's.
    const shown = await files.preview({ api: 'v0', url: PHOTO, keptOnly: true });
    expect(shown.ok && Buffer.from(shown.bytes)).toEqual(Buffer.from(SERVED[PHOTO]!));
    const saved = await stored.save({ api: 'v0', url: PHOTO, name: 'p.png', keptOnly: true });
    expect(saved.ok && readFileSync(saved.path)).toEqual(Buffer.from(SERVED[PHOTO]!));
  });

  it('a second Open gives a fresh copy and leaves the first (maybe still open) as the viewer left it', async () => {
    await stored.keep([{ api: 'v0', url: STATEMENT, name: 'statement.pdf' }]);
    networkUp = false;
    const first = await viewerPath(STATEMENT, { keptOnly: true });
    writeFileSync(first, 'first copy, annotated');
    const second = await viewerPath(STATEMENT, { keptOnly: true });
    expect(second).not.toBe(first);
    expect(second).toMatch(/[/\\]statement\.pdf$/);
    expect(readFileSync(second)).toEqual(Buffer.from(SERVED[STATEMENT]!));
    expect(readFileSync(first, 'utf8')).toBe('first copy, annotated');
  });

  it('a file downloaded to be opened is kept, and the viewer gets a copy of it too', async () => {
    const path = await viewerPath(STATEMENT);
    const [kept] = keptFiles(ALEX);
    expect(path).not.toBe(kept);
    writeFileSync(path, 'changed');
    expect(readFileSync(kept!)).toEqual(Buffer.from(SERVED[STATEMENT]!));
  });

  it('names the copy safely, whatever name the platform sent', async () => {
    const path = await stored.open({ api: 'v2', url: NAMED, name: 'statement.pdf' }).then((a) => {
      if (!a.ok) throw new Error(a.error.message);
      return a.path;
    });
    expect(path.split(/[/\\]/).pop()).toBe('Smith_ statement.pdf');
    expect(relative(join(dir, 'cache', ALEX), path).startsWith('..')).toBe(false);
  });

  it('sign-out removes the kept files and the opened copies together, and only that user’s', async () => {
    await stored.keep([{ api: 'v0', url: STATEMENT, name: 'statement.pdf' }]);
    const alexKept = keptFiles(ALEX);
    const alexOpened = await viewerPath(STATEMENT);
    bound = SAM;
    const samOpened = await viewerPath(STATEMENT);
    expect(await files.forgetUser(ALEX)).toEqual({ ok: true });
    expect(existsSync(alexKept[0]!)).toBe(false);
    expect(existsSync(alexOpened)).toBe(false);
    expect(existsSync(join(dir, 'cache', ALEX))).toBe(false);
    expect(existsSync(samOpened)).toBe(true);
    expect(keptFiles(SAM)).toHaveLength(1);
  });

  it('at start, removes opened copies older than a day and nothing else', async () => {
    await stored.keep([{ api: 'v0', url: STATEMENT, name: 'statement.pdf' }]);
    const old = await viewerPath(STATEMENT);
    const recent = await viewerPath(STATEMENT);
    const now = Date.now();
    const dayAndMinuteAgo = (now - OPENED_COPY_AGE_MS - 60_000) / 1000;
    utimesSync(dirname(old), dayAndMinuteAgo, dayAndMinuteAgo);
    // A folder in the cache that is no user's is not the sweep's to touch.
    const stranger = join(dir, 'cache', 'not-a-user', '.opened', 'x');
    mkdirSync(stranger, { recursive: true });
    utimesSync(stranger, dayAndMinuteAgo, dayAndMinuteAgo);

    expect(await removeOldOpenedCopies(join(dir, 'cache'), now)).toBe(1);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(dirname(old))).toBe(false);
    expect(readFileSync(recent)).toEqual(Buffer.from(SERVED[STATEMENT]!));
    expect(keptFiles(ALEX)).toHaveLength(1);
    expect(existsSync(stranger)).toBe(true);
    // No cache yet (first start): nothing to do, no error.
    expect(await removeOldOpenedCopies(join(dir, 'nothing-here'), now)).toBe(0);
  });
});
