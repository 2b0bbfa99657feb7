// `npm run bench [a|b|c|d|e|f|g …]`: the data layer, the sync engine and the account list measured
// in Chromium's real IndexedDB (DESIGN.md §6). Figures and ratios printed side by side; nothing is
// asserted, nothing fails on a number. Sections: a) ingest, b) search as you type (the queries),
// c) durable edits, d) coalescing, e) the account list opened, f) a keystroke in its search box,
// g) the household financial summary (PDF), h) the account list exported (CSV, XLSX), i) the
// account list answered from its index in memory (keystroke felt, count shown by every sort key),
// j) the sandbox platform's own v2 list page at 1,000 and 50,000 accounts (sandbox-list.ts), k) the
// account index read as the store opens, and the ingest against a key-only bulkPut (index-build.ts),
// l) the first sync of a 40,000-account team end to end through the preview host (first-sync.ts),
// m) the engagement list at 1,000 and 50,000 engagements (engagements.ts).
//
// Node side (this file): starts the sandbox platform (rate limit off), generates the account
// payloads, bundles page.ts with vite, serves both on 127.0.0.1, opens Debian's Chromium through
// Playwright (never a downloaded browser) and bridges the page's `Send` to the real main-side
// Transport with `exposeFunction`. The page measures and returns raw samples; this side discards
// the warm-up runs, summarizes and prints. For e) and f) it also reads the page's memory through a
// CDP session and types into the list's search box with Playwright's keyboard.

import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { resolve } from 'node:path';
import { chromium, type Browser, type CDPSession, type Page } from '@playwright/test';
import vue from '@vitejs/plugin-vue';
import { build } from 'vite';
import { SHARED_ALIAS } from '../../electron.vite.config.ts';
import { Transport } from '../../electron/main/transport/transport.ts';
import type { ApiRequest } from '@shared/api/request.ts';
import { sandboxProfile } from '@shared/settings.ts';
import { startPlatform, type Platform } from '../platform/server.ts';
import { accountV2 } from '../platform/v2/shape.ts';
import { benchAccounts } from './data.ts';
import type { BenchApi, BenchCall } from './page.ts';
import { ACCOUNT_SORT_KEYS } from '../../renderer/src/data/queries/index.ts';
import { int, ms, ratio, summarize, table, type Summary } from './report.ts';
import { sandboxListPages } from './sandbox-list.ts';
import { indexBuild } from './index-build.ts';
import { firstSync } from './first-sync.ts';
import { engagementList } from './engagements.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const ADVISOR = 'advisor@sandbox.test';

const INGEST = 10_000;
const INGEST_WARMUP = 1_000;
const INGEST_RUNS = 3;
const SEARCH = 50_000;
/** Typed one character at a time: a common and a rarer last name. */
const WORDS = ['martinez', 'kowalski'];
const SEARCH_WARMUP_WORD = 'zoey';
const SEARCH_RUNS = 3;
const EDIT_STORE = 10_000;
const EDIT_SAMPLES = 200;
const EDIT_WARMUP = 20;
const PUSH_EDITS = 1_000;
const PUSH_RECORDS = 50;
const PUSH_LIVE_RUNS = 2;
/** The list opened over a small and the large store: the ratio shows what the size costs. */
const LIST_SIZES = [1_000, SEARCH] as const;
const LIST_RUNS = 5;
/** e) also opens the list sorted by this key, an order of the account index in memory. */
const NAME_SORT = 'client.last_name';
const LIST_MEMORY_RUNS = 3;
const KEYSTROKE_RUNS = 3;
/** h) the list export of every stored account, each format this many times after a warm-up. */
const EXPORT_RUNS = 3;
/**
 * Dexie keeps a live query's last answer for 3 s after its last subscriber leaves (its cache
 * middleware): a list opened again sooner, or a search typed again, would be answered from it.
 */
const DEXIE_CACHE_MS = 3_500;
/** i) each word typed this many times at each size, after a warm-up word; each sort key opened this many times. */
const FELT_RUNS = 3;
const COUNT_RUNS = 3;
const SUMMARY_WARMUP = 3;
const SUMMARY_RUNS = 15;

function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  try {
    return execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('Chromium is not installed: run `apt-get install -y chromium` (or set CHROMIUM_PATH).');
  }
}

/** Debian's Chromium with playwright.config.ts's launch arguments. */
function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

function fileSystemOf(path: string): string {
  try {
    return execFileSync('stat', ['-f', '-c', '%T', path], { encoding: 'utf8' }).trim();
  } catch {
    return 'file system unknown';
  }
}

type Served = { type: string; body: string | Uint8Array };

const TYPES: Record<string, string> = {
  js: 'text/javascript',
  css: 'text/css',
  woff2: 'font/woff2',
  woff: 'font/woff',
  ttf: 'font/ttf',
  eot: 'application/vnd.ms-fontobject',
  svg: 'image/svg+xml',
};

/**
 * page.ts as one ES module, built in memory by vite's JS API, with its style sheets and fonts: the
 * account list's view (list.ts) is built as the renderer is (electron.vite.config.ts: the Vue
 * plugin, the `@shared` alias), and resolved under the name modules.d.ts declares.
 */
async function bundlePage(
  input = 'test/bench/page.ts',
  entryName = 'bench.js',
): Promise<{ files: Record<string, Served>; styles: string[] }> {
  const result = await build({
    configFile: false,
    envDir: false,
    publicDir: false,
    root: ROOT,
    base: '/',
    logLevel: 'warn',
    plugins: [vue()],
    resolve: {
      alias: {
        ...SHARED_ALIAS,
        'bench:account-list-view': resolve(ROOT, 'renderer/src/accounts/AccountListView.vue'),
      },
    },
    build: {
      write: false,
      minify: false,
      target: 'es2022',
      reportCompressedSize: false,
      rolldownOptions: {
        // The build's own timing report is noise in the bench's output (it appears under load).
        checks: { bundlerTimings: false },
        input: resolve(ROOT, input),
        output: { format: 'es', entryFileNames: entryName },
      },
    },
  });
  const files: Record<string, Served> = {};
  const styles: string[] = [];
  let entry = false;
  for (const output of Array.isArray(result) ? result : [result]) {
    if (!('output' in output)) continue;
    for (const file of output.output) {
      const type = TYPES[file.fileName.split('.').at(-1) ?? ''] ?? 'application/octet-stream';
      if (file.type === 'chunk') {
        files[`/${file.fileName}`] = { type, body: file.code };
        entry ||= file.isEntry && file.fileName === entryName;
      } else {
        files[`/${file.fileName}`] = { type, body: file.source };
        if (file.fileName.endsWith('.css')) styles.push(`/${file.fileName}`);
      }
    }
  }
  if (!entry) throw new Error('vite produced no entry chunk for the bench page.');
  return { files, styles };
}

/** A loopback origin for the page: 127.0.0.1 is a secure context, as `crypto.randomUUID` needs. */
async function serve(files: Record<string, Served>): Promise<Server> {
  const server = createServer((req, res) => {
    const file = files[req.url ?? ''];
    if (!file) return void res.writeHead(req.url === '/favicon.ico' ? 204 : 404).end();
    res.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store' }).end(file.body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return server;
}

/** Calls a function of the page's `bench` API and returns its (serialized) answer. */
function caller(page: Page): BenchCall {
  return <K extends keyof BenchApi>(name: K, ...args: Parameters<BenchApi[K]>) =>
    page.evaluate(
      ([fn, values]) =>
        (globalThis as unknown as { bench: Record<string, (...a: unknown[]) => unknown> }).bench[fn]!(
          ...values,
        ),
      [name, args] as const,
    ) as Promise<Awaited<ReturnType<BenchApi[K]>>>;
}

type Call = BenchCall;

const say = (line = '') => process.stdout.write(`${line}\n`);

let sectionStart = performance.now();
/** How long the section took, set-up included; restarts the clock. */
function took(): string {
  const seconds = (performance.now() - sectionStart) / 1000;
  sectionStart = performance.now();
  return `[${seconds.toFixed(1)} s]`;
}

async function main(): Promise<void> {
  const started = performance.now();
  took();
  const only = process.argv.slice(2);
  const wanted = (section: string) => only.length === 0 || only.includes(section);
  const load = loadavg()[0]!;
  if (only.length > 0 && only.every((section) => section === 'j' || section === 'l')) {
    // The sandbox's own list needs neither the page nor Chromium; the first sync, the app's own.
    say(
      `machine  ${availableParallelism()} CPUs, load average ${load.toFixed(2)} at start; Node ${process.version}`,
    );
    if (wanted('j')) await sandboxListPages(say, took);
    if (wanted('l')) {
      const browser = await launchChromium();
      try {
        await firstSync(say, took, browser);
      } finally {
        await browser.close();
      }
    }
    return;
  }
  // 1,000 seeded accounts: the templates of the payloads, and the accounts section d) edits.
  const platform = await startPlatform({ port: 0, seed: 1, accounts: 1_000, rateLimit: 0 });
  const store = platform.control.store();
  const payloads = benchAccounts(
    store.state.accounts.map((a) => accountV2(store, a)),
    SEARCH,
  );
  const token = platform.control.token(ADVISOR).access_token;
  const transport = new Transport({
    // The platform's limit is off; the transport's own budget must not space the requests either.
    profile: () => ({ ...sandboxProfile(platform.url), rateLimitPerMinute: 1_000_000 }),
    tokens: {
      accessToken: () => Promise.resolve(token),
      refreshAfterUnauthorized: () => Promise.resolve(null),
    },
  });
  const bundle = await bundlePage();
  const server = await serve({
    ...bundle.files,
    '/': {
      type: 'text/html',
      body:
        '<!doctype html><meta charset="utf-8"><title>bench</title>' +
        bundle.styles.map((href) => `<link rel="stylesheet" href="${href}">`).join('') +
        '<script type="module" src="/bench.js"></script>',
    },
    '/accounts.json': { type: 'application/json', body: JSON.stringify(payloads) },
  });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    page.on('pageerror', (error) => say(`  [page error] ${error.message}`));
    page.on('console', (m) => void (m.type() === 'error' && say(`  [page console] ${m.text()}`)));
    await page.exposeFunction('benchSend', (req: ApiRequest) => transport.request(req));
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await page.waitForFunction('globalThis.benchReady === true');
    const call = caller(page);
    const { dexie } = await call('load', '/accounts.json');
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');

    const threads = await page.evaluate<number>('navigator.hardwareConcurrency');
    say('Advisor Desk benchmarks (npm run bench): figures only, nothing is asserted');
    say(
      `machine  ${availableParallelism()} CPUs (${cpus()[0]?.model ?? 'unknown model'}), ` +
        `${int(totalmem() / 2 ** 30)} GiB RAM, load average ${load.toFixed(2)} at start; Node ${process.version}`,
    );
    say(
      `browser  Chromium ${browser.version()} headless (hardwareConcurrency ${threads}), ` +
        `profile in ${tmpdir()} (${fileSystemOf(tmpdir())})`,
    );
    say(
      `store    Chromium's IndexedDB through the app's AdvisorDb (Dexie ${dexie}, strict durability, ` +
        `debug off as on app://); a fresh database for every measurement`,
    );
    say(
      `data     v2 account payloads: the sandbox platform's accountV2 of its seed, with ids, names, emails and ` +
        `dates drawn afresh (${int(Buffer.byteLength(JSON.stringify(payloads[0])))} bytes of JSON each)`,
    );
    say(`         timings are medians of the runs after a discarded warm-up; p95 and min/max beside them`);
    say(`set-up   platform, ${int(SEARCH)} payloads, page bundle, Chromium: ${took()}`);
    say();
    if (wanted('a')) await ingest(call);
    if (wanted('b')) await search(call);
    if (wanted('c')) await edit(call);
    if (wanted('d')) await push(call, platform);
    if (wanted('e')) await listOpen(call, cdp, page);
    if (wanted('f')) await keystrokes(call, page);
    if (wanted('g')) await summaryPdf(browser);
    if (wanted('h')) await listExport(call);
    if (wanted('i')) await listIndex(call, page);
    if (wanted('j')) await sandboxListPages(say, took);
    if (wanted('k')) await indexBuild(call, say, took);
    if (wanted('l')) await firstSync(say, took, browser);
    if (wanted('m')) await engagementList(call, platform, say, took);
    await call('closeListDb');
  } finally {
    await browser.close();
    server.close();
    transport.dispose();
    await platform.close();
  }
  say(`whole run: ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

// ---- a) ingest ---------------------------------------------------------------------------------------

async function ingest(call: Call): Promise<void> {
  // Warm-up (discarded): both paths once on fewer accounts.
  await call('ingestEngine', INGEST_WARMUP, false);
  await call('ingestBulk', INGEST_WARMUP);
  const engine: number[] = [];
  const bulk: number[] = [];
  const mapping: number[] = [];
  let identical = 0;
  let requests = 0;
  for (let run = 0; run < INGEST_RUNS; run++) {
    // Alternate the order, so that neither side always runs second.
    const steps = [
      async () => {
        const r = await call('ingestEngine', INGEST, run === 0);
        if (r.rows !== INGEST || r.failures) throw new Error(`The pull stored ${r.rows} of ${INGEST} rows.`);
        if (run === 0) identical = r.identical ?? 0;
        requests = r.requests;
        engine.push(r.ms);
      },
      async () => {
        const r = await call('ingestBulk', INGEST);
        bulk.push(r.ms);
        mapping.push(r.mapMs);
      },
    ];
    for (const step of run % 2 ? steps.reverse() : steps) await step();
  }
  const [e, b, map] = [engine, bulk, mapping].map(summarize) as [Summary, Summary, Summary];
  say(`a) Ingest ${int(INGEST)} accounts into an empty store ${took()}`);
  say(
    `   the v2 list's pages (500 a page, -updated_at) come from memory inside the page: DB and engine ` +
      `work only, no network, no IPC; ${INGEST_RUNS} runs after a warm-up on ${int(INGEST_WARMUP)}`,
  );
  const row = (label: string, s: Summary) => [
    label,
    ms(s.median),
    ms(s.min),
    ms(s.max),
    `${int((INGEST / s.median) * 1000)} accounts/s`,
  ];
  say(
    table([
      ['', 'median', 'min', 'max', 'at the median'],
      row(`PullEngine.pullAccountList, full sweep (${requests} requests)`, e),
      row(`raw Dexie bulkPut of the same rows, one call`, b),
    ]),
  );
  say(
    `   cost of our layer: ${ratio(e.median, b.median)} the raw bulkPut ` +
      `(of the difference, mapping payloads to rows: ${ms(map.median)})`,
  );
  say(
    `   rows the pull wrote that equal the bulkPut rows (local ids and serverAt aside): ${int(identical)} of ${int(INGEST)}`,
  );
  say();
}

// ---- b) search as you type ---------------------------------------------------------------------------

async function search(call: Call): Promise<void> {
  const setup = await call('prepareSearch', SEARCH);
  const kinds = ['search', 'list', 'ids'] as const;
  type Kind = (typeof kinds)[number];
  /** samples[kind][word][keystroke] */
  const samples: Record<Kind, Map<string, number[][]>> = {
    search: new Map(),
    list: new Map(),
    ids: new Map(),
  };
  const matches = new Map<string, number>();
  const idCounts = new Map<string, number>();
  for (const kind of kinds) {
    await call('typeWord', SEARCH_WARMUP_WORD, kind);
    for (let run = 0; run < SEARCH_RUNS; run++)
      for (const word of WORDS) {
        const keys = await call('typeWord', word, kind);
        const per = samples[kind].get(word) ?? keys.map(() => []);
        keys.forEach((k, i) => per[i]!.push(k.ms));
        samples[kind].set(word, per);
        if (kind === 'list') for (const k of keys) matches.set(k.prefix, k.matches);
        if (kind === 'ids') for (const k of keys) idCounts.set(k.prefix, k.matches);
      }
  }
  await call('closeSearch');

  say(`b) Search as you type over ${int(setup.rows)} accounts ${took()}`);
  say(
    `   the store holds the pull's rows (bulkPut in ${(setup.ms / 1000).toFixed(1)} s, untimed); one awaited ` +
      `query per keystroke, no debounce; ${SEARCH_RUNS} runs after a warm-up typing "${SEARCH_WARMUP_WORD}"`,
  );
  say(`   searchAccounts(prefix, 50): the *search index, the first 50 accounts`);
  say(
    `   listAccounts({ search, limit: 50 }): a page of the version 2 list's query (default sort -created_at, with its total)`,
  );
  say(
    `   listAccountIds({ search }): the account list's query, every id in order (the list view then reads only the rows in view; e, f)`,
  );
  const word = WORDS[0]!;
  const rows: string[][] = [
    [
      'keystroke',
      'matches',
      'searchAccounts median',
      'max',
      'listAccounts median',
      'max',
      'listAccountIds median',
      'max',
    ],
  ];
  for (let i = 0; i < word.length; i++) {
    const s = summarize(samples.search.get(word)![i]!);
    const l = summarize(samples.list.get(word)![i]!);
    const d = summarize(samples.ids.get(word)![i]!);
    const prefix = word.slice(0, i + 1);
    rows.push([
      `"${prefix}"`,
      int(matches.get(prefix) ?? 0),
      ms(s.median),
      ms(s.max),
      ms(l.median),
      ms(l.max),
      ms(d.median),
      ms(d.max),
    ]);
  }
  say(table(rows));
  const all = (kind: Kind) => summarize([...samples[kind].values()].flat(2));
  const [s, l, d] = [all('search'), all('list'), all('ids')];
  const line = (label: string, x: Summary) => [label, ms(x.median), ms(x.p95), ms(x.max)] as const;
  const per = (label: string, a: Summary, b: Summary) =>
    [label, ratio(a.median, b.median), ratio(a.p95, b.p95), ratio(a.max, b.max)] as const;
  say(`   every keystroke of ${WORDS.map((w) => `"${w}"`).join(', ')} (${s.n} samples each):`);
  say(
    table(
      [
        ['', 'median', 'p95', 'max'],
        line('searchAccounts', s),
        line('listAccounts', l),
        line('listAccountIds', d),
        per('listAccounts / searchAccounts', l, s),
        per('listAccountIds / searchAccounts', d, s),
      ],
      1,
      '     ',
    ),
  );
  const same = [...matches].filter(([prefix, n]) => idCounts.get(prefix) === n).length;
  say(`   listAccountIds found as many accounts as listAccounts' total: ${same} of ${matches.size} prefixes`);
  say();
}

// ---- c) a local edit made durable ---------------------------------------------------------------------

async function edit(call: Call): Promise<void> {
  const r = await call('edits', EDIT_STORE, EDIT_SAMPLES, EDIT_WARMUP);
  const [n, c, put, tx] = [r.newOp, r.coalesced, r.rawPut, r.rawPutOutbox].map(summarize) as [
    Summary,
    Summary,
    Summary,
    Summary,
  ];
  say(`c) A local edit made durable, ${int(EDIT_STORE)} accounts in the store ${took()}`);
  say(
    `   time until the awaited write resolves (committed, strict durability); ${n.n} rounds after ` +
      `${EDIT_WARMUP} discarded, the four kinds alternating, each on its own account`,
  );
  const row = (label: string, s: Summary) => [label, ms(s.median), ms(s.p95), ms(s.min), ms(s.max)];
  say(
    table([
      ['', 'median', 'p95', 'min', 'max'],
      row('updateRecord, queues a new operation', n),
      row('updateRecord again, coalesced into it', c),
      row('reference: raw accounts.put', put),
      row('reference: raw accounts.put + outbox.add in one transaction', tx),
    ]),
  );
  say(
    `   cost of our layer: updateRecord / raw put + outbox.add ${ratio(n.median, tx.median)} (new operation), ` +
      `${ratio(c.median, tx.median)} (coalesced); operations queued at the end: ${int(r.queued)}`,
  );
  say();
}

// ---- d) coalescing ---------------------------------------------------------------------------------------

async function push(call: Call, platform: Platform): Promise<void> {
  const store = platform.control.store();
  const advisor = store.state.users.find((u) => u.email === ADVISOR)!;
  const editable = store.state.accounts.filter((a) => a.teamId === advisor.currentTeamId && !a.archived);
  let next = 0;
  type Result = Awaited<ReturnType<BenchApi['coalesce']>> & { seen: number; matching: number };
  const requests = (r: Result) => Object.values(r.byMethod).reduce((sum, n) => sum + n, 0);
  /** One run on 50 accounts no run has touched (their server versions are the ones loaded). */
  const once = async (live: boolean, seed: number, edits = PUSH_EDITS): Promise<Result> => {
    const chosen = editable.slice(next, (next += PUSH_RECORDS));
    if (chosen.length < PUSH_RECORDS) throw new Error('Not enough sandbox accounts for another run.');
    const before = platform.control.stats().byInterface.v2 ?? 0;
    const r = await call(
      'coalesce',
      chosen.map((a) => accountV2(store, a)),
      edits,
      seed,
      live,
    );
    const seen = (platform.control.stats().byInterface.v2 ?? 0) - before;
    const matching = r.final.filter(({ serverId, fields }) => {
      const a = store.state.accounts.find((x) => x.id === serverId);
      return (
        a &&
        a.client.first_name === fields['client.first_name'] &&
        a.client.last_name === fields['client.last_name'] &&
        (a.client.phone.number ?? null) === fields['client.phone.number'] &&
        a.favorited === fields.favorited
      );
    }).length;
    return { ...r, seen, matching };
  };
  await once(false, 99, PUSH_EDITS / 5); // warm-up, discarded
  // Offline, the count follows from the engine's rules (a run or two tell the same); live, it
  // depends on timing.
  const offline = [await once(false, 100)];
  const live: Result[] = [];
  for (let run = 0; run < PUSH_LIVE_RUNS; run++) live.push(await once(true, 200 + run));

  say(`d) Coalescing: ${int(PUSH_EDITS)} random edits to ${PUSH_RECORDS} accounts, then pushed ${took()}`);
  say(
    `   PushEngine → exposeFunction → the real Transport → the sandbox platform on loopback (rate limit off); ` +
      `edits (seeded): first name, last name, mobile, favorite`,
  );
  say(`   requests counted at the engine's Send, after a warm-up run`);
  const rows: string[][] = [
    [
      '',
      'runs',
      'records changed',
      'operations queued',
      'requests',
      'by method',
      'per changed record',
      'server = local',
    ],
  ];
  const add = (label: string, results: Result[], liveRun: boolean) => {
    const total = summarize(results.map(requests));
    const changed = summarize(results.map((r) => r.changed)).median;
    const methods = [...new Set(results.flatMap((r) => Object.keys(r.byMethod)))].sort();
    rows.push([
      label,
      String(results.length),
      int(changed),
      liveRun ? '—' : int(summarize(results.map((r) => r.queued)).median),
      total.min === total.max
        ? int(total.median)
        : `${int(total.median)} (${int(total.min)}–${int(total.max)})`,
      methods.map((m) => `${int(summarize(results.map((r) => r.byMethod[m] ?? 0)).median)} ${m}`).join(' + '),
      (total.median / changed).toFixed(2),
      results.map((r) => `${r.matching}/${r.records}`).join(', '),
    ]);
  };
  add('edits made offline, then one push pass', offline, false);
  add('push engine running while editing', live, true);
  say(table(rows));
  const all = [...offline, ...live];
  const leftover = all.reduce((sum, r) => sum + r.remaining + r.notSynced, 0);
  say(
    `   the platform counted the same requests: ${all.every((r) => r.seen === requests(r)) ? 'yes' : 'NO'}; ` +
      `operations left or records not synced afterwards: ${leftover}`,
  );
  say(
    `   an edit took ${ms(summarize(all.map((r) => r.editMs / r.edits)).median)} (median of runs); ` +
      `the offline push pass ${ms(summarize(offline.map((r) => r.pushMs)).median)} (HTTP included)`,
  );
  say();
}

// ---- e) the account list opened -------------------------------------------------------------------

/** The store the list reads holds this many accounts (the page keeps one; f) reuses e)'s). */
let listStore: { rows: number; ms: number; indexMs: number } | null = null;

async function listStoreOf(call: Call, count: number) {
  if (listStore?.rows !== count) listStore = await call('prepareList', count);
  if (listStore.rows !== count) throw new Error(`The store holds ${listStore.rows} of ${count} accounts.`);
  return listStore;
}

// ---- h) the account list exported -----------------------------------------------------------------------

async function listExport(call: Call): Promise<void> {
  const store = await listStoreOf(call, SEARCH);
  const rows: string[][] = [
    [
      '',
      'median',
      'min',
      'max',
      'longest stall',
      'in step',
      'longest task',
      'ids alone',
      'progress calls',
      'size',
    ],
  ];
  for (const format of ['csv', 'xlsx'] as const) {
    await call('exportList', format); // warm-up, discarded
    const runs: Awaited<ReturnType<BenchApi['exportList']>>[] = [];
    for (let run = 0; run < EXPORT_RUNS; run++) runs.push(await call('exportList', format));
    const time = summarize(runs.map((r) => r.ms / 1000));
    const worst = runs.reduce((a, b) => (b.stallMs > a.stallMs ? b : a));
    const task = Math.max(...runs.map((r) => r.longestTaskMs));
    const ids = Math.max(...runs.map((r) => r.idsStallMs));
    const seconds = (v: number) => `${v.toFixed(2)} s`;
    rows.push([
      format === 'csv' ? 'CSV, streamed' : 'XLSX, built in a worker',
      seconds(time.median),
      seconds(time.min),
      seconds(time.max),
      ms(worst.stallMs),
      worst.stallStep,
      // Chromium reports tasks of 50 ms or more only.
      task === 0 ? 'none ≥ 50 ms' : ms(task),
      ms(ids),
      int(runs[0]!.progress),
      `${(runs[0]!.bytes / 2 ** 20).toFixed(1)} MiB`,
    ]);
  }
  say(`h) The account list exported ("Export this list…", All), ${int(store.rows)} accounts ${took()}`);
  say(
    `   ${EXPORT_RUNS} runs per format after a warm-up; bytes counted in the page (no main process); ` +
      `stall: the longest gap of a 10 ms timer, and the step it fell in (start: before the ids were read; ` +
      `ids read: the first page); task: Chromium's longest task; ids alone: the longest stall while the ` +
      `list's own query (every id in order, as the list reads them when opened) runs by itself`,
  );
  say(table(rows));
  say();
}

/** The page's memory after two full garbage collections (CDP), and its elements. */
async function memory(call: Call, cdp: CDPSession) {
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const metric = (name: string) => metrics.find((m) => m.name === name)?.value ?? NaN;
  const { elements, rows } = await call('domSize');
  return { heap: metric('JSHeapUsedSize'), nodes: metric('Nodes'), elements, rows };
}

async function listOpen(call: Call, cdp: CDPSession, page: Page): Promise<void> {
  type Memory = Awaited<ReturnType<typeof memory>>;
  const sizes = [];
  for (const count of LIST_SIZES) {
    const store = await listStoreOf(call, count);
    const close = async () => {
      await call('closeList');
      await page.waitForTimeout(DEXIE_CACHE_MS);
    };
    await call('openList'); // warm-up, discarded
    await close();
    const opens: Awaited<ReturnType<BenchApi['openList']>>[] = [];
    const byName: Awaited<ReturnType<BenchApi['openList']>>[] = [];
    for (let run = 0; run < LIST_RUNS; run++) {
      opens.push(await call('openList'));
      await close();
      byName.push(await call('openList', NAME_SORT));
      await close();
    }
    const closed: Memory[] = [];
    const open: Memory[] = [];
    for (let run = 0; run < LIST_MEMORY_RUNS; run++) {
      closed.push(await memory(call, cdp));
      await call('openList');
      open.push(await memory(call, cdp));
      await close();
    }
    const of = <T>(items: T[], pick: (x: T) => number) => summarize(items.map(pick));
    sizes.push({
      count,
      store,
      setup: of(opens, (o) => o.setupMs),
      rows: of(opens, (o) => o.rowsMs),
      frame: of(opens, (o) => o.frameMs),
      whole: of(opens, (o) => o.countMs),
      nameRows: of(byName, (o) => o.rowsMs),
      nameWhole: of(byName, (o) => o.countMs),
      shown: of(opens, (o) => o.rows).median,
      counts: [...new Set(opens.map((o) => o.count))].join(', '),
      heapOpen: of(open, (m) => m.heap).median,
      heapClosed: of(closed, (m) => m.heap).median,
      nodesOpen: of(open, (m) => m.nodes).median,
      nodesClosed: of(closed, (m) => m.nodes).median,
      elements: of(open, (m) => m.elements).median,
      elementsClosed: of(closed, (m) => m.elements).median,
      memoryRows: of(open, (m) => m.rows).median,
    });
  }
  const [small, large] = sizes as [(typeof sizes)[0], (typeof sizes)[0]];
  const viewport = page.viewportSize();
  const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  say(`e) The account list opened with ${int(large.count)} accounts in the store ${took()}`);
  say(
    `   the real AccountListView (PrimeVue styled with the app's preset, Pinia, a hash router, the app's styles) ` +
      `mounted at /accounts in a ${viewport?.width ?? '?'}×${viewport?.height ?? '?'} page, over the app's local store (useLocalDb)`,
  );
  say(
    `   the store as b)'s (the pull's rows, bulkPut untimed: ${sizes.map((x) => `${int(x.count)} in ${(x.store.ms / 1000).toFixed(1)} s`).join(', ')}) ` +
      `and the sandbox's user resource; ${LIST_RUNS} runs after a warm-up, each a fresh app, ` +
      `${DEXIE_CACHE_MS / 1000} s after the last was closed (Dexie's live-query cache has let go)`,
  );
  say(
    `   first rows: a MutationObserver sees the first [data-testid="account-name"] (firstAccounts shows them before every id is read); ` +
      `the frame after: requestAnimationFrame, then a task; the count: every id read (listAccountIds); ` +
      `each run opens the list newest first, then sorted by ${NAME_SORT}`,
  );
  say(
    `   memory: CDP Performance.getMetrics after HeapProfiler.collectGarbage, with the list open, and before opening it ` +
      `(${DEXIE_CACHE_MS / 1000} s after the one before was closed); medians of ${LIST_MEMORY_RUNS}`,
  );
  const both = (label: string, a: string, b: string, r: string) => [label, a, b, r];
  const timing = (label: string, pick: (x: typeof small) => Summary) =>
    both(
      label,
      `${ms(pick(small).median)} (${ms(pick(small).min)}–${ms(pick(small).max)})`,
      `${ms(pick(large).median)} (${ms(pick(large).min)}–${ms(pick(large).max)})`,
      ratio(pick(large).median, pick(small).median),
    );
  say(
    table([
      ['', `${int(small.count)} accounts, median (min–max)`, `${int(large.count)} accounts`, 'ratio'],
      timing('app.mount, its synchronous part', (x) => x.setup),
      timing('mount → first rows in the DOM', (x) => x.rows),
      timing('mount → the frame after them', (x) => x.frame),
      timing('mount → the count shown (every id read)', (x) => x.whole),
      timing(`by ${NAME_SORT}: mount → first rows`, (x) => x.nameRows),
      timing(`by ${NAME_SORT}: mount → the count shown`, (x) => x.nameWhole),
      both(
        'rows rendered (of the count shown)',
        `${int(small.shown)} (${small.counts})`,
        `${int(large.shown)} (${large.counts})`,
        '',
      ),
      both(
        'JS heap used, list open',
        mib(small.heapOpen),
        mib(large.heapOpen),
        ratio(large.heapOpen, small.heapOpen),
      ),
      both(
        'JS heap used, before opening',
        mib(small.heapClosed),
        mib(large.heapClosed),
        ratio(large.heapClosed, small.heapClosed),
      ),
      both(
        'DOM nodes alive (CDP Nodes), list open',
        int(small.nodesOpen),
        int(large.nodesOpen),
        ratio(large.nodesOpen, small.nodesOpen),
      ),
      both(
        'DOM nodes alive, before opening',
        int(small.nodesClosed),
        int(large.nodesClosed),
        ratio(large.nodesClosed, small.nodesClosed),
      ),
      both(
        'elements in the document, list open',
        int(small.elements),
        int(large.elements),
        ratio(large.elements, small.elements),
      ),
      both(
        'elements in the document, before opening',
        int(small.elementsClosed),
        int(large.elementsClosed),
        '',
      ),
    ]),
  );
  say(
    `   the JS heap includes the bench's own ${int(SEARCH)} payloads (the same in both columns); with the list open, ` +
      `${int(large.count - small.count)} more accounts cost ${mib(large.heapOpen - small.heapOpen)} of heap and ` +
      `${int(large.nodesOpen - small.nodesOpen)} DOM nodes`,
  );
  say();
}

// ---- f) a keystroke in the list's search box ------------------------------------------------------------

async function keystrokes(call: Call, page: Page): Promise<void> {
  const store = await listStoreOf(call, SEARCH);
  await call('openList');
  await call('focusSearch');
  type Sample = Awaited<ReturnType<BenchApi['keystrokeResult']>>;
  /** One key (or chord), awaited until the list has rendered its answer. */
  const press = async (key: string, prefix: string): Promise<Sample> => {
    await call('armKeystroke', prefix);
    await page.keyboard.press(key);
    return call('keystrokeResult');
  };
  const expected = new Map<string, number>();
  let right = 0;
  let checked = 0;
  /** samples[word][keystroke] */
  const samples = new Map<string, Sample[][]>();
  const typeWord = async (word: string, keep: boolean) => {
    const per = samples.get(word) ?? [...word].map(() => []);
    for (let i = 0; i < word.length; i++) {
      const sample = await press(word[i]!, word.slice(0, i + 1));
      if (!keep) continue;
      per[i]!.push(sample);
      const prefix = word.slice(0, i + 1);
      if (!expected.has(prefix)) expected.set(prefix, await call('listMatches', prefix));
      checked++;
      if (sample.count === `${int(expected.get(prefix)!)} accounts match`) right++;
    }
    if (keep) samples.set(word, per);
    await page.keyboard.press('Control+A');
    await press('Backspace', ''); // clearing answers at once; not measured
    await page.waitForTimeout(DEXIE_CACHE_MS); // no prefix is answered from Dexie's cache next time
  };
  await typeWord(SEARCH_WARMUP_WORD, false);
  for (let run = 0; run < KEYSTROKE_RUNS; run++) for (const word of WORDS) await typeWord(word, true);
  await call('closeList');

  say(`f) A keystroke in the list's search box, ${int(store.rows)} accounts in the store ${took()}`);
  say(
    `   e)'s list, typed into with Playwright's keyboard one key at a time, each awaited until the list shows its answer; ` +
      `${KEYSTROKE_RUNS} runs after a warm-up typing "${SEARCH_WARMUP_WORD}", ` +
      `the box cleared and ${DEXIE_CACHE_MS / 1000} s waited after each word`,
  );
  say(
    `   felt: from the input event's time stamp to the render of the new rows and count; the list waits ` +
      `for its debounce, then marks itself busy (aria-busy) and reads: its first rows where a date index gives them ` +
      `(firstAccounts), every id (listAccountIds), then the rows in view`,
  );
  say(
    `   first rows: from the input event to the first rows of the new search in the DOM (the list's data-answer); ` +
      `after the debounce: from the busy mark to the rendered answer`,
  );
  const word = WORDS[0]!;
  const rows: string[][] = [
    [
      'keystroke',
      'count shown',
      'first rows median',
      'felt median',
      'max',
      'waiting for the debounce',
      'after the debounce',
      'max',
    ],
  ];
  for (let i = 0; i < word.length; i++) {
    const got = samples.get(word)![i]!;
    const [first, felt, wait, work] = [
      summarize(got.map((k) => k.firstMs)),
      summarize(got.map((k) => k.feltMs)),
      summarize(got.map((k) => k.debounceMs)),
      summarize(got.map((k) => k.workMs)),
    ];
    rows.push([
      `"${word.slice(0, i + 1)}"`,
      got[0]!.count.replace(/ accounts? match(es)?$/, ''),
      ms(first.median),
      ms(felt.median),
      ms(felt.max),
      ms(wait.median),
      ms(work.median),
      ms(work.max),
    ]);
  }
  say(table(rows));
  const all = [...samples.values()].flat(2);
  const line = (label: string, pick: (k: Sample) => number) => {
    const x = summarize(all.map(pick));
    return [label, ms(x.median), ms(x.p95), ms(x.min), ms(x.max)];
  };
  say(`   every keystroke of ${WORDS.map((w) => `"${w}"`).join(', ')} (${all.length} samples):`);
  say(
    table(
      [
        ['', 'median', 'p95', 'min', 'max'],
        line('felt: input event → first rows', (k) => k.firstMs),
        line('felt: input event → rows and count', (k) => k.feltMs),
        line('  waiting for the debounce', (k) => k.debounceMs),
        line('  after the debounce: query and render', (k) => k.workMs),
      ],
      1,
      '     ',
    ),
  );
  say(`   count shown equal to listAccountIds' count for the prefix: ${right} of ${checked}`);
  say();
}

// ---- g) the financial summary (PDF) ------------------------------------------------------------

/** What summary-pdf.ts answers: build times (ms) after the warm-up, and the last PDF's size. */
interface SummaryRuns {
  samples: number[];
  bytes: number;
  pages: number;
}

/**
 * Its own page and bundle (test/dom/bench/summary-pdf.ts typechecks with the renderer: pdfmake's
 * typings load the DOM), in the same Chromium: the renderer's pdfmake build and its fonts,
 * Chromium's IndexedDB.
 */
async function summaryPdf(browser: Browser): Promise<void> {
  const bundle = await bundlePage('test/dom/bench/summary-pdf.ts', 'summary.js');
  const server = await serve({
    ...bundle.files,
    '/': {
      type: 'text/html',
      body: '<!doctype html><meta charset="utf-8"><title>summary</title><script type="module" src="/summary.js"></script>',
    },
  });
  const page = await browser.newPage();
  try {
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await page.waitForFunction('typeof globalThis.summaryRuns === "function"');
    const r = await page.evaluate(
      ([warmup, runs]) =>
        (
          globalThis as unknown as { summaryRuns: (w: number, n: number) => Promise<SummaryRuns> }
        ).summaryRuns(warmup, runs),
      [SUMMARY_WARMUP, SUMMARY_RUNS] as const,
    );
    const s = summarize(r.samples);
    say(
      `g) The financial summary (PDF) of a full household, every section filled: ${r.pages} pages, ` +
        `${int(r.bytes / 1024)} KB ${took()}`,
    );
    say(`   from reading the store to the PDF's bytes; ${s.n} builds after ${SUMMARY_WARMUP} discarded`);
    say(
      table([
        ['', 'median', 'p95', 'min', 'max'],
        ['buildFinancialSummary', ms(s.median), ms(s.p95), ms(s.min), ms(s.max)],
      ]),
    );
    say();
  } finally {
    await page.close();
    server.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});

// ---- i) the account list answered from its index in memory ----------------------------------------

/** The count's words for a search that matches `n` accounts (AccountListView's countText). */
const matchWords = (n: number) => `${int(n)} account${n === 1 ? '' : 's'} ${n === 1 ? 'matches' : 'match'}`;

async function listIndex(call: Call, page: Page): Promise<void> {
  type Felt = Awaited<ReturnType<BenchApi['feltResult']>>;
  const sizes: {
    count: number;
    indexMs: number;
    firstKeys: Felt[];
    keys: Felt[];
    countMs: Map<string, number[]>;
  }[] = [];
  for (const size of LIST_SIZES) {
    const store = await listStoreOf(call, size);
    // The count shown when the list opens, by every sort key (ascending), the keys in turn.
    const countMs = new Map<string, number[]>();
    for (let run = -1; run < COUNT_RUNS; run++)
      for (const key of ACCOUNT_SORT_KEYS) {
        const opened = await call('openList', key);
        await call('closeList');
        if (run >= 0) countMs.set(key, [...(countMs.get(key) ?? []), opened.countMs]);
      }
    // Keystrokes, each awaited until the frame that shows its rows and count.
    await call('openList');
    await call('focusSearch');
    const expected = new Map<string, string>();
    const firstKeys: Felt[] = [];
    const keys: Felt[] = [];
    const typeWord = async (word: string, keep: boolean) => {
      for (let i = 0; i < word.length; i++) {
        const prefix = word.slice(0, i + 1);
        if (!expected.has(prefix)) expected.set(prefix, matchWords(await call('listMatches', prefix)));
        await call('armFelt', prefix, expected.get(prefix)!);
        await page.keyboard.press(word[i]!);
        const got = await call('feltResult');
        if (!keep) continue;
        keys.push(got);
        if (i === 0) firstKeys.push(got);
      }
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Backspace');
      await page.waitForFunction(
        `!(document.querySelector('[data-testid="account-count"]')?.textContent ?? 'match').includes('match')`,
      );
    };
    await typeWord(SEARCH_WARMUP_WORD, false);
    for (let run = 0; run < FELT_RUNS; run++) for (const word of WORDS) await typeWord(word, true);
    await call('closeList');
    sizes.push({ count: store.rows, indexMs: store.indexMs, firstKeys, keys, countMs });
  }
  const [small, large] = sizes as [(typeof sizes)[0], (typeof sizes)[0]];
  say(
    `i) The account list answered from its index in memory, ${int(small.count)} and ${int(large.count)} accounts ${took()}`,
  );
  say(
    `   e)'s list over e)'s store; the list index read when the store opens (before the list, as current-store.ts does): ` +
      `${ms(small.indexMs)} at ${int(small.count)}, ${ms(large.indexMs)} at ${int(large.count)}`,
  );
  say(
    `   felt: from the input event's time stamp to the requestAnimationFrame callback after the DOM first shows the ` +
      `new search's rows and its count (the count's words equal listAccountIds' count, read untimed beforehand); ` +
      `every key of ${WORDS.map((w) => `"${w}"`).join(', ')} typed ${FELT_RUNS} times from an empty box after a warm-up "${SEARCH_WARMUP_WORD}"`,
  );
  const stat = (samples: number[]) => summarize(samples);
  const feltRow = (
    label: string,
    pick: (x: typeof small) => number[],
    which: 'median' | 'p95' | 'max',
    target: string,
  ) => {
    const [a, b] = [stat(pick(small))[which], stat(pick(large))[which]];
    return [label, ms(a), ms(b), ratio(b, a), target];
  };
  say(
    table([
      ['', `${int(small.count)} accounts`, `${int(large.count)} accounts`, 'ratio', 'target'],
      feltRow('keystroke felt, median', (x) => x.keys.map((k) => k.frameMs), 'median', '< 16 ms, ≤ 1.2×'),
      feltRow('keystroke felt, p95', (x) => x.keys.map((k) => k.frameMs), 'p95', '< 33 ms'),
      feltRow('keystroke felt, max', (x) => x.keys.map((k) => k.frameMs), 'max', ''),
      feltRow('first letter felt, median', (x) => x.firstKeys.map((k) => k.frameMs), 'median', '< 16 ms'),
      feltRow('first letter felt, max', (x) => x.firstKeys.map((k) => k.frameMs), 'max', ''),
      feltRow('input event → DOM right, median', (x) => x.keys.map((k) => k.domMs), 'median', ''),
      feltRow('input event → DOM right, p95', (x) => x.keys.map((k) => k.domMs), 'p95', ''),
    ]),
  );
  say(`   samples: ${small.keys.length} keystrokes at each size (${small.firstKeys.length} first letters)`);
  say(
    `   count shown: e)'s mount → the count of the whole list shown, with the list opened by each sort key in turn ` +
      `(ascending), ${COUNT_RUNS} rounds after a warm-up round; medians (min–max)`,
  );
  const countRows: string[][] = [
    ['sort key', `${int(small.count)} accounts`, `${int(large.count)} accounts`, 'ratio'],
  ];
  let worst = 0;
  for (const key of ACCOUNT_SORT_KEYS) {
    const [a, b] = [stat(small.countMs.get(key)!), stat(large.countMs.get(key)!)];
    worst = Math.max(worst, b.median / a.median);
    countRows.push([
      key,
      `${ms(a.median)} (${ms(a.min)}–${ms(a.max)})`,
      `${ms(b.median)} (${ms(b.min)}–${ms(b.max)})`,
      ratio(b.median, a.median),
    ]);
  }
  say(table(countRows));
  say(`   the largest ratio of the count shown: ${worst.toFixed(2)}× (target ≤ 1.5× for every sort key)`);
  say();
}
