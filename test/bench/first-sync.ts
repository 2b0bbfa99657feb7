// l) The first sync of a 40,000-account team end to end, as an advisor meets it: the sandbox
// platform (rate limit off) seeded with 40,000 accounts, the browser preview host (electron/preview/,
// the same main-side services as the app; its profile's request budget raised out of the way),
// the built renderer (out/renderer: `npx electron-vite build` first) in Chromium. Signs in through
// the platform's page and times from the sign-in's submit to the list showing every account of
// the team. Beside it: the same list requests answered by the platform alone (replayed over HTTP,
// one after another, as the pull sends them), so that the ratio is what the app adds. A second
// first sync (a fresh profile) is typed into meanwhile: the keystroke felt while the list fills,
// and in both syncs the frames that came more than 100 ms after the one before. Then the JS heap
// with the list open, after a garbage collection.

import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { startPreviewHost, type PreviewHost } from '../../electron/preview/host.ts';
import { sandboxProfile } from '@shared/settings.ts';
import { startPlatform, type Platform } from '../platform/server.ts';
import { int, ms, ratio, summarize, table } from './report.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const ACCOUNTS = 40_000;
const SEED = 1;
const ADVISOR = 'advisor@sandbox.test';
/** Seeding 40,000 accounts takes 30 to 120 s: the seeded state is kept here for the next run. */
const SEED_CACHE = join(tmpdir(), `advisor-bench-first-sync-${ACCOUNTS}-seed${SEED}-v1.json`);
/** Typed while the list fills, one key at a time, each awaited until its answer shows. */
const WORDS = ['martinez', 'kowalski', 'smith', 'lee'];
const SYNC_TIMEOUT_MS = 600_000;

/** The platform from the seed cache, seeding (and caching) it the first time. */
async function platformOf(dataDir: string): Promise<{ platform: Platform; seededMs: number | null }> {
  let seededMs: number | null = null;
  if (!existsSync(SEED_CACHE)) {
    const started = performance.now();
    const seeding = await startPlatform({ port: 0, seed: SEED, accounts: ACCOUNTS, rateLimit: 0 });
    const store = seeding.control.store();
    writeFileSync(`${SEED_CACHE}.tmp`, JSON.stringify({ ...store.state, random: store.random.state() }));
    copyFileSync(`${SEED_CACHE}.tmp`, SEED_CACHE);
    rmSync(`${SEED_CACHE}.tmp`);
    await seeding.close();
    seededMs = performance.now() - started;
  }
  // A copy: the platform writes its data file back on a change, and the cache stays as seeded.
  const dataFile = join(dataDir, 'platform.json');
  copyFileSync(SEED_CACHE, dataFile);
  return { platform: await startPlatform({ port: 0, dataFile, rateLimit: 0 }), seededMs };
}

/** The list requests the app sends to the platform, recorded where the main-side Transport fetches. */
function recordListRequests(platform: Platform): { urls: string[]; restore: () => void } {
  const urls: string[] = [];
  const original = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (url.startsWith(`${platform.url}/api/v2/accounts?`)) urls.push(url);
    return original(input, init);
  };
  return { urls, restore: () => void (globalThis.fetch = original) };
}

/** The same requests answered by the platform alone: each timed to its body read and parsed. */
async function platformAlone(platform: Platform, urls: readonly string[]): Promise<number> {
  const token = platform.control.token(ADVISOR).access_token;
  let total = 0;
  for (const url of urls) {
    const started = performance.now();
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    JSON.parse(await res.text());
    total += performance.now() - started;
  }
  return total;
}

/** A frame later than this after the one before is one the advisor sees the page stop in. */
const LATE_FRAME_MS = 100;

/**
 * A heartbeat of animation frames, from the page's first script: every gap between two frames
 * longer than LATE_FRAME_MS, kept in `__lateFrames` ([start, length] in the page's clock) and
 * the frames counted in `__frames`. It sees stalls a long-animation-frame entry does not (frame
 * production held up outside the page's main thread).
 */
const FRAME_HEARTBEAT = `
  globalThis.__lateFrames = []; globalThis.__frames = 0;
  let previous = performance.now();
  const beat = (at) => {
    if (at - previous > ${LATE_FRAME_MS}) globalThis.__lateFrames.push([previous, at - previous]);
    previous = at; globalThis.__frames += 1; requestAnimationFrame(beat);
  };
  requestAnimationFrame(beat);`;

/** Frames of the page from now on: `read()` gives those counted since, and the late ones. */
async function frameWatch(page: Page): Promise<{ read(): Promise<{ frames: number; late: number[] }> }> {
  const since = await page.evaluate<[number, number]>('[performance.now(), globalThis.__frames]');
  return {
    read: () =>
      page.evaluate<{ frames: number; late: number[] }>(
        `({ frames: globalThis.__frames - ${since[1]},
            late: globalThis.__lateFrames.filter(([at]) => at >= ${since[0]}).map(([, gap]) => gap) })`,
      ),
  };
}

async function admitted(browser: Browser, host: PreviewHost): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(FRAME_HEARTBEAT);
  const page = await context.newPage();
  await page.goto(host.openUrl());
  return page;
}

/** Signs in through the platform's page; resolves at the submit, when the first sync begins. */
async function signIn(page: Page): Promise<void> {
  await page.getByTestId('sign-in').waitFor();
  // Straight to the account list, as the e2e specs' openList goes (Home would pull its feed first).
  await page.evaluate(`location.hash = '#/sign-in?next=${encodeURIComponent('/accounts')}'`);
  const popup = page.waitForEvent('popup');
  await page.getByTestId('sign-in').click();
  const tab = await popup;
  await tab.getByLabel('Email').fill(ADVISOR);
  await tab.getByLabel('Password').fill('sandbox');
  await tab.getByRole('button', { name: 'Sign in' }).click();
  // Back to the app, as the advisor goes: headless Chromium gives frames to the page in front
  // only, and left behind the platform's tab the app painted about once a second (every frame
  // gap 1,017 ms), which the keystroke figures took for the app's.
  await page.bringToFront();
}

const COUNT = '[data-testid="account-count"]';

/** The document as a predicate Playwright sends as a function sees it (the app's CSP allows no eval). */
type Doc = { document: { querySelector(s: string): { textContent: string | null } | null } };

/** Resolves once the list's count says `count` accounts. */
function listShows(page: Page, count: number): Promise<unknown> {
  return page.waitForFunction(
    ([sel, text]) => (globalThis as unknown as Doc).document.querySelector(sel)?.textContent === text,
    [COUNT, `${int(count)} accounts`] as const,
    {
      timeout: SYNC_TIMEOUT_MS,
      polling: 50,
    },
  );
}

/**
 * One key typed into the list's search, felt as section i) feels it: from the input event's time
 * stamp to the frame after the DOM shows the search's answer (its rows, or that nothing matches,
 * and its count). The count's figure is not known beforehand while the list fills: the answer is
 * the list's own `data-answer` for the new search, no longer busy, with a count that says "match".
 */
async function feltKey(page: Page, key: string, prefix: string): Promise<number> {
  const armed = page.evaluate<number>(`new Promise((done, fail) => {
    const want = ${JSON.stringify(prefix)};
    const input = document.querySelector('[data-testid="account-search"]');
    let inputAt = 0;
    const right = () => {
      const list = document.querySelector('[data-testid="account-list"]');
      const count = document.querySelector('[data-testid="account-count"]')?.textContent ?? '';
      const shown =
        document.querySelector('[data-testid="account-name"]') !== null ||
        document.querySelector('[data-testid="account-empty"]') !== null;
      return shown && /match/.test(count) && list?.getAttribute('data-answer') === want &&
        list.getAttribute('aria-busy') === 'false';
    };
    const check = () => {
      if (!inputAt || !right()) return;
      observer.disconnect();
      clearTimeout(timer);
      requestAnimationFrame(() => done(performance.now() - inputAt));
    };
    const observer = new MutationObserver(check);
    const timer = setTimeout(() => (observer.disconnect(), fail(new Error(want + ' unanswered'))), 60000);
    input.addEventListener('input', (e) => ((inputAt = e.timeStamp), check()), { capture: true, once: true });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    globalThis.__feltArmed = true;
  })`);
  await page.waitForFunction(() => (globalThis as { __feltArmed?: boolean }).__feltArmed === true, null, {
    polling: 1,
  });
  await page.evaluate('globalThis.__feltArmed = false');
  await page.keyboard.press(key);
  return armed;
}

async function typeWhile(page: Page, running: () => boolean): Promise<number[]> {
  const felt: number[] = [];
  await page.getByTestId('account-search').focus();
  for (let w = 0; running(); w = (w + 1) % WORDS.length) {
    const word = WORDS[w]!;
    for (let i = 0; i < word.length && running(); i++)
      felt.push(await feltKey(page, word[i]!, word.slice(0, i + 1)));
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await page.waitForFunction(
      (sel) =>
        !((globalThis as unknown as Doc).document.querySelector(sel)?.textContent ?? 'match').includes(
          'match',
        ),
      COUNT,
    );
  }
  return felt;
}

async function jsHeapMb(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  await cdp.detach();
  return usedSize / 2 ** 20;
}

interface SyncRun {
  wallMs: number;
  urls: string[];
  felt: number[];
  /** Gaps between frames longer than LATE_FRAME_MS while the list filled, and the frames counted. */
  lateFrames: number[];
  frames: number;
  heapMb: number;
}

/** One first sync into a fresh preview profile; types into the list meanwhile when `typing`. */
async function oneSync(
  browser: Browser,
  platform: Platform,
  expected: number,
  typing: boolean,
): Promise<SyncRun> {
  const dataDir = mkdtempSync(join(tmpdir(), 'advisor-bench-preview-'));
  const host = await startPreviewHost({
    port: 0,
    rendererDir: resolve(ROOT, 'out/renderer'),
    dataDir,
    defaultProfile: { ...sandboxProfile(platform.url), rateLimitPerMinute: 1_000_000 },
  });
  const recorded = recordListRequests(platform);
  try {
    const page = await admitted(browser, host);
    page.on('pageerror', (error) => process.stdout.write(`  [page error] ${error.message}\n`));
    await signIn(page);
    const started = performance.now();
    await page.getByTestId('user-name').waitFor({ timeout: SYNC_TIMEOUT_MS });
    await page.locator(COUNT).waitFor({ timeout: SYNC_TIMEOUT_MS });
    const frames = await frameWatch(page);
    // BENCH_CPU_PROFILE=file.cpuprofile: the renderer's CPU profile of the quiet sync, for DevTools.
    // BENCH_CPU_PROFILE_TYPED=file: the same of the sync typed into.
    const profileTo = typing ? process.env.BENCH_CPU_PROFILE_TYPED : process.env.BENCH_CPU_PROFILE;
    const profile = profileTo ? await page.context().newCDPSession(page) : null;
    if (profile) await profile.send('Profiler.enable');
    if (profile) await profile.send('Profiler.start');
    let done = false;
    const shown = listShows(page, expected).then(() => (done = true));
    const felt = typing ? await typeWhile(page, () => !done) : [];
    await shown;
    const wallMs = performance.now() - started;
    const watched = await frames.read();
    if (profile) {
      const { profile: taken } = await profile.send('Profiler.stop');
      writeFileSync(profileTo!, JSON.stringify(taken));
      await profile.detach();
    }
    const heapMb = await jsHeapMb(page);
    await page.context().close();
    return {
      wallMs,
      urls: [...recorded.urls],
      felt,
      lateFrames: watched.late,
      frames: watched.frames,
      heapMb,
    };
  } finally {
    recorded.restore();
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function firstSync(
  say: (line?: string) => void,
  took: () => string,
  browser: Browser,
): Promise<void> {
  if (!existsSync(resolve(ROOT, 'out/renderer/preview.html')))
    throw new Error('k) needs the built renderer: run `npx electron-vite build` first.');
  const dataDir = mkdtempSync(join(tmpdir(), 'advisor-bench-platform-'));
  const { platform, seededMs } = await platformOf(dataDir);
  try {
    const store = platform.control.store();
    const advisor = store.state.users.find((u) => u.email === ADVISOR)!;
    const expected = store.state.accounts.filter(
      (a) => a.teamId === advisor.currentTeamId && !a.archived,
    ).length;
    const quiet = await oneSync(browser, platform, expected, false);
    const alone = await platformAlone(platform, quiet.urls);
    // BENCH_QUIET_ONLY=1: the quiet sync only (with BENCH_CPU_PROFILE, a profile without typing).
    const busy = process.env.BENCH_QUIET_ONLY ? null : await oneSync(browser, platform, expected, true);
    if (busy && process.env.BENCH_FELT_SAMPLES)
      say(`   keys felt (ms): ${busy.felt.map((t) => t.toFixed(0)).join(' ')}`);
    say(
      `l) The first sync of a ${int(ACCOUNTS)}-account platform through the preview host, rate limit off ${took()}` +
        (seededMs === null ? '' : ` (seeded and cached in ${(seededMs / 1000).toFixed(1)} s)`),
    );
    say(
      `   sign-in submitted → the list shows the team's ${int(expected)} accounts; the platform alone: the same ` +
        `${quiet.urls.length} list requests replayed over HTTP one after another (answer read and parsed)`,
    );
    const felt = busy?.felt.length ? summarize(busy.felt) : null;
    say(
      busy
        ? `   felt: a second first sync (fresh profile), typed into meanwhile (${WORDS.join(', ')}, a key at a ` +
            `time): input event → the frame after the search's rows and count show; ${felt?.n ?? 0} keys`
        : '   the sync typed into was skipped (BENCH_QUIET_ONLY)',
    );
    const typed = busy
      ? [
          ['first sync while typing, wall', ms(busy.wallMs), ''],
          ['keystroke felt during the sync, median', felt ? ms(felt.median) : '–', '< 16 ms'],
          ['keystroke felt during the sync, p95', felt ? ms(felt.p95) : '–', '< 33 ms'],
          ['keystroke felt during the sync, max', felt ? ms(felt.max) : '–', ''],
          [
            `frames later than ${LATE_FRAME_MS} ms while typed into (of all frames)`,
            `${int(busy.lateFrames.length)} of ${int(busy.frames)}`,
            '0',
          ],
          ['the longest of them', busy.lateFrames.length ? ms(Math.max(...busy.lateFrames)) : '–', ''],
        ]
      : [];
    say(
      table([
        ['', 'figure', 'target'],
        ['first sync, wall', ms(quiet.wallMs), '< 60 s'],
        ['the platform alone, same list requests', ms(alone), ''],
        ['ratio', ratio(quiet.wallMs, alone), '≤ 1.5×'],
        ...typed,
        [
          `frames later than ${LATE_FRAME_MS} ms, the sync not typed into`,
          `${int(quiet.lateFrames.length)} of ${int(quiet.frames)}`,
          '0',
        ],
        ['JS heap, list open after the sync (after GC)', `${quiet.heapMb.toFixed(1)} MB`, '≤ 150 MB'],
      ]),
    );
    say();
  } finally {
    await platform.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
