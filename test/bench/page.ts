// The benchmark's page: runs in Chromium (bundled by run.ts with vite) against the browser's real
// IndexedDB, through the app's own data layer and sync engine. It only measures and returns raw
// samples; run.ts repeats, summarizes and prints. DOM-free like the data layer, so it typechecks
// with the rest of test/ (tsconfig.json); the account list's view (sections e and f) is list.ts's.

import Dexie from 'dexie';
import type { ApiFailure, ApiRequest, ApiResult } from '@shared/api/request.ts';
import { accountIndex } from '../../renderer/src/data/accounts.ts';
import { updateRecord } from '../../renderer/src/data/changes/index.ts';
import { IDENTITY_META_KEY } from '../../renderer/src/data/identity/index.ts';
import { AdvisorDb } from '../../renderer/src/data/db.ts';
import { useLocalDb } from '../../renderer/src/data/identity/current-store.ts';
import { accountSnapshot, newAccountRow } from '../../renderer/src/data/mappers.ts';
import type { AccountRow, Fields, Operation } from '../../renderer/src/data/model.ts';
import {
  CONFIG_KEYS,
  putConfigEntry,
  listAccountIds,
  listAccounts,
  searchAccounts,
} from '../../renderer/src/data/queries/index.ts';
import { sameValue } from '../../renderer/src/data/view.ts';
import { PullEngine, applySnapshots } from '../../renderer/src/sync/pull/index.ts';
import type { Send } from '../../renderer/src/sync/send.ts';
import { PushEngine } from '../../renderer/src/sync/push/index.ts';
import { exportAccountList, type ListExportFormat } from '../../renderer/src/export/account-list.ts';
import type { ExportApi } from '../../renderer/src/common/save-export.ts';
import { workbookOffThread } from '../../renderer/src/export/xlsx-off-thread.ts';
import type { V2Account } from './data.ts';
import {
  armFelt,
  armKeystroke,
  closeList,
  domSize,
  feltResult,
  focusSearch,
  keystrokeResult,
  openList,
} from './list.ts';
import { accountIndex as listIndex } from '../../renderer/src/data/account-index/index.ts';
import { engagementBench } from './engagements-page.ts';
import { indexBench } from './index-page.ts';

// The app runs from app://advisor-desk/, where Dexie's debug mode is off; on http://127.0.0.1 Dexie
// would turn it on (a console task per table call), which is not what users run.
Dexie.debug = false;

/** The page's view of run.ts's `exposeFunction`: the real main-side Transport in Node. */
const bridge: Send = (req) => (globalThis as unknown as { benchSend: Send }).benchSend(req);

let accounts: V2Account[] = [];
/** The payloads loaded (for index-page.ts). */
export const benchPayloads = (): readonly V2Account[] => accounts;
let dbCount = 0;

export async function freshDb(label: string): Promise<AdvisorDb> {
  const db = new AdvisorDb(`bench-${label}-${++dbCount}`);
  await db.open();
  // A store records whose data it holds; changes are stamped with it (data/identity/).
  await db.meta.put({ key: IDENTITY_META_KEY, value: { user: 'b'.repeat(32), team: 1 } });
  return db;
}

/** Deletes the database, then lets Chromium settle (its LevelDB compacts in the background). */
export async function drop(db: AdvisorDb): Promise<void> {
  await db.delete();
  await sleep(100);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A seeded 0..1 stream (mulberry32): the same edits on every run. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const failure = (status: number, kind: ApiFailure['kind'], message: string): ApiFailure => ({
  ok: false,
  kind,
  status,
  message,
  fields: {},
  retryAfterMs: null,
});

/** The version 2 User (interface document, section 2): the advisor of the store freshDb records, team 1 current. */
const BENCH_USER = {
  first_name: 'Bench',
  last_name: 'Advisor',
  email: 'bench.advisor@example.com',
  phone: { code: '+1', number: '5550100', country: 'US' },
  photo: 'https://example.com/photo.png',
  timezone: 'America/New_York',
  currency: 'USD',
  team: { id: 1, name: 'Bench team' },
  teams: [{ id: 1, name: 'Bench team' }],
  permissions: {},
  templates: [],
  pipelines: [],
};

/**
 * The version 2 account list served from memory, as the platform pages it (`sort=-updated_at`,
 * ties newest record first, limit 1..500, `params.total`): what the pull receives, minus the
 * network and the IPC hop, so that the figures are the engine's and IndexedDB's work.
 */
function listServer(payloads: readonly V2Account[]): Send {
  const sorted = [...payloads].sort((a, b) =>
    a.updated_at !== b.updated_at ? (a.updated_at < b.updated_at ? 1 : -1) : b.id - a.id,
  );
  return (req: ApiRequest): Promise<ApiResult> => {
    // The pull asks which team is current before it writes (sync/team.ts): the store's own (freshDb).
    if (req.method === 'GET' && req.path === '/user')
      return Promise.resolve({ ok: true, status: 200, data: BENCH_USER });
    if (req.method !== 'GET' || req.path !== '/accounts')
      return Promise.resolve(failure(404, 'not-found', `No route ${req.method} ${req.path} here.`));
    const limit = Number(req.query?.limit ?? 50);
    const offset = Number(req.query?.offset ?? 0);
    if (!Number.isInteger(limit) || limit < 1 || limit > 500)
      return Promise.resolve(failure(422, 'validation', 'The limit must be between 1 and 500.'));
    const items = sorted.slice(offset, offset + limit);
    const params = { limit, offset, sort: '-updated_at', total: sorted.length };
    return Promise.resolve({ ok: true, status: 200, data: { items, params } });
  };
}

/** The row a pull writes for an account seen for the first time with nothing pending (see `applySnapshots`). */
export function mappedRow(payload: V2Account): AccountRow {
  const snapshot = accountSnapshot(payload);
  if (!snapshot) throw new Error(`Not an account: ${JSON.stringify(payload).slice(0, 80)}`);
  const fields = { ...snapshot.fields };
  return {
    ...newAccountRow(snapshot),
    server: snapshot.fields,
    fields,
    ...accountIndex(fields, snapshot.meta),
  };
}

/**
 * Untimed set-up: a store holding these accounts, as the pull leaves them (a) checks that the
 * pull writes exactly these rows), written with bulkPut because the pull of 50,000 takes minutes.
 */
export async function stored(label: string, payloads: readonly V2Account[]): Promise<AdvisorDb> {
  const db = await freshDb(label);
  const rows = payloads.map(mappedRow);
  for (let i = 0; i < rows.length; i += 2_000) await db.accounts.bulkPut(rows.slice(i, i + 2_000));
  return db;
}

/** A row without its local id, nor the time the pull saw the platform's copy change (`serverAt`, stamped as it writes). */
const withoutId = ({ id: _id, serverAt: _at, ...rest }: AccountRow) => rest;

// ---- a) ingest ---------------------------------------------------------------------------------

/** `check`: afterwards (untimed), count the rows equal to the mapped rows bulkPut writes (local ids and `serverAt` aside). */
async function ingestEngine(count: number, check: boolean) {
  const payloads = accounts.slice(0, count);
  const db = await freshDb('a-engine');
  const engine = new PullEngine({ db, send: listServer(payloads) });
  const t0 = performance.now();
  const report = await engine.pullAccountList({ full: true });
  const ms = performance.now() - t0;
  const rows = await db.accounts.count();
  let identical: number | null = null;
  if (check) {
    const mapped = new Map(payloads.map((p) => [p.id, mappedRow(p)]));
    identical = 0;
    for (const row of await db.accounts.toArray()) {
      const raw = mapped.get(row.serverId as number);
      if (raw && sameValue(withoutId(row), withoutId(raw))) identical++;
    }
  }
  await drop(db);
  return { ms, rows, identical, requests: report.requests, failures: report.failures.length };
}

/** The same rows as the pull writes them (mapped untimed), with one bulkPut. */
async function ingestBulk(count: number) {
  const t0 = performance.now();
  const rows = accounts.slice(0, count).map(mappedRow);
  const mapMs = performance.now() - t0;
  const db = await freshDb('a-bulk');
  const t1 = performance.now();
  await db.accounts.bulkPut(rows);
  const ms = performance.now() - t1;
  const stored = await db.accounts.count();
  await drop(db);
  return { ms, mapMs, rows: stored };
}

// ---- b) search as you type -----------------------------------------------------------------------

let searchDb: AdvisorDb | null = null;

async function prepareSearch(count: number) {
  const t0 = performance.now();
  searchDb = await stored('b-search', accounts.slice(0, count));
  const ms = performance.now() - t0;
  return { ms, rows: await searchDb.accounts.count() };
}

/** Types `word` one character at a time, awaiting each query before the next keystroke. */
async function typeWord(word: string, query: 'search' | 'list' | 'ids') {
  const db = searchDb;
  if (!db) throw new Error('prepareSearch first');
  const keystrokes: { prefix: string; ms: number; matches: number }[] = [];
  for (let n = 1; n <= word.length; n++) {
    const prefix = word.slice(0, n);
    const t0 = performance.now();
    const matches =
      query === 'search'
        ? (await searchAccounts(db, prefix, 50)).length
        : query === 'list'
          ? (await listAccounts(db, { search: prefix, limit: 50 })).total
          : (await listAccountIds(db, { search: prefix })).length;
    keystrokes.push({ prefix, ms: performance.now() - t0, matches });
  }
  return keystrokes;
}

async function closeSearch() {
  if (searchDb) await drop(searchDb);
  searchDb = null;
}

// ---- c) a local edit made durable ------------------------------------------------------------------

/**
 * Each sample is one awaited write with strict durability, on its own account. Per round: an
 * `updateRecord` that queues a new operation, a second one on the same account that coalesces
 * into it, and two references without the layer on other accounts: a raw `put` of the row, and a
 * raw transaction of `put` + `outbox.add` (the least a queued change can cost). The four kinds
 * alternate in one fresh store, so that they meet the same store and the same machine load.
 */
async function edits(count: number, samples: number, warmup: number) {
  const db = await stored('c-edit', accounts.slice(0, count));
  const rows = await db.accounts.toArray();
  // Distinct accounts drawn at random: a partial Fisher-Yates shuffle, three per round.
  const rnd = random(7);
  const rounds = warmup + samples;
  for (let i = 0; i < rounds * 3; i++) {
    const j = i + Math.floor(rnd() * (rows.length - i));
    [rows[i], rows[j]] = [rows[j]!, rows[i]!];
  }
  const out = {
    newOp: [] as number[],
    coalesced: [] as number[],
    rawPut: [] as number[],
    rawPutOutbox: [] as number[],
  };
  const timed = async (into: number[], round: number, write: () => Promise<unknown>) => {
    const t0 = performance.now();
    await write();
    if (round >= warmup) into.push(performance.now() - t0);
  };
  for (let round = 0; round < rounds; round++) {
    const [edited, put, putOutbox] = [rows[3 * round]!, rows[3 * round + 1]!, rows[3 * round + 2]!];
    await timed(out.newOp, round, () =>
      updateRecord(db, 'accounts', edited.id, { 'client.first_name': `First${round}` }),
    );
    await timed(out.coalesced, round, () =>
      updateRecord(db, 'accounts', edited.id, { 'client.last_name': `Last${round}` }),
    );
    const now = Date.now();
    await timed(out.rawPut, round, () =>
      db.accounts.put({
        ...put,
        fields: { ...put.fields, 'client.first_name': `First${round}` },
        status: 'pending',
        changedAt: now,
      }),
    );
    const op: Operation = {
      id: crypto.randomUUID(),
      table: 'accounts',
      recordId: putOutbox.id,
      kind: 'update',
      fields: { 'client.first_name': `First${round}` },
      base: { 'client.first_name': putOutbox.server?.['client.first_name'] ?? null },
      parentId: null,
      state: 'queued',
      attempts: 0,
      nextAttemptAt: 0,
      lastError: null,
      createdAt: now,
      updatedAt: now,
    };
    await timed(out.rawPutOutbox, round, () =>
      db.transaction('rw', [db.accounts, db.outbox], async () => {
        await db.accounts.put({
          ...putOutbox,
          fields: { ...putOutbox.fields, ...op.fields },
          status: 'pending',
          changedAt: now,
        });
        await db.outbox.add(op);
      }),
    );
  }
  const queued = await db.outbox.count();
  await drop(db);
  return { ...out, queued };
}

// ---- d) coalescing, counted in requests --------------------------------------------------------------

const NAMES = ['Ann', 'Ben', 'Cara', 'Dev', 'Eli', 'Fay', 'Gus', 'Hana', 'Ivo', 'Jo', 'Kai', 'Lea'];
const EDITED = ['client.first_name', 'client.last_name', 'client.phone.number', 'favorited'] as const;

function randomEdit(rnd: () => number): Fields {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)]!;
  const field = pick(EDITED);
  if (field === 'favorited') return { favorited: rnd() < 0.5 };
  if (field === 'client.phone.number')
    return { [field]: `${200 + Math.floor(rnd() * 800)}${String(Math.floor(rnd() * 1e7)).padStart(7, '0')}` };
  return { [field]: field === 'client.first_name' ? pick(NAMES) : `${pick(NAMES)}son` };
}

/**
 * `editCount` random edits (seeded) to the given accounts, each an awaited `updateRecord`; then
 * the push engine sends them through the bridge to the real Transport and the sandbox. `live`:
 * the engine runs (`start()`) while the edits are made, as in the app; otherwise the edits are
 * made offline and pushed in one pass (`run()`).
 */
async function coalesce(payloads: V2Account[], editCount: number, seed: number, live: boolean) {
  const db = await freshDb('d-push');
  await applySnapshots(
    db,
    'accounts',
    payloads.map((p) => {
      const snapshot = accountSnapshot(p)!;
      return { row: newAccountRow(snapshot), server: snapshot.fields };
    }),
  );
  const before = await db.accounts.toArray();
  const byMethod: Record<string, number> = {};
  const send: Send = (req) => {
    byMethod[req.method] = (byMethod[req.method] ?? 0) + 1;
    return bridge(req);
  };
  const engine = new PushEngine({ db, send });
  const rnd = random(seed);
  const touched = new Set<string>();
  if (live) engine.start();
  const t0 = performance.now();
  for (let i = 0; i < editCount; i++) {
    const row = before[Math.floor(rnd() * before.length)]!;
    touched.add(row.id);
    await updateRecord(db, 'accounts', row.id, randomEdit(rnd));
  }
  const editMs = performance.now() - t0;
  const queued = await db.outbox.count();
  const t1 = performance.now();
  if (live) {
    const deadline = performance.now() + 60_000;
    while ((await db.outbox.count()) > 0 && performance.now() < deadline) await sleep(10);
    await engine.stop();
  } else await engine.run();
  const pushMs = performance.now() - t1;
  const after = await db.accounts.toArray();
  const changed = after.filter((row) => {
    const start = before.find((b) => b.id === row.id)!;
    return EDITED.some((f) => !sameValue(start.server?.[f], row.fields[f]));
  }).length;
  const result = {
    edits: editCount,
    records: before.length,
    touched: touched.size,
    changed,
    queued,
    byMethod,
    editMs,
    pushMs,
    remaining: await db.outbox.count(),
    notSynced: after.filter((r) => r.status !== 'synced').length,
    final: after.map((r) => ({
      serverId: r.serverId as number,
      fields: Object.fromEntries(EDITED.map((f) => [f, r.fields[f] ?? null])),
    })),
  };
  await drop(db);
  return result;
}

// ---- e), f) the account list's view ---------------------------------------------------------------

let listDb: AdvisorDb | null = null;

/**
 * Untimed: the app's local store (`useLocalDb`) holding `count` accounts as the pull leaves them,
 * and the user resource (permissions, pipeline stages) as the configuration pull keeps it, asked
 * of the sandbox platform through the bridge.
 */
async function prepareList(count: number) {
  closeList();
  if (listDb) await drop(listDb);
  const t0 = performance.now();
  const db = await stored(`ef-list-${count}`, accounts.slice(0, count));
  const user = await bridge({ api: 'v2', method: 'GET', path: '/user' });
  if (!user.ok) throw new Error(`The sandbox's /user answered ${user.status}: ${user.message}`);
  await putConfigEntry(db, CONFIG_KEYS.user, { pulledAt: Date.now(), data: user.data });
  const ms = performance.now() - t0;
  // As when the app opens a store (current-store.ts): the list index is read before the list opens.
  const t1 = performance.now();
  await listIndex(db).whenReady;
  const indexMs = performance.now() - t1;
  useLocalDb(db);
  listDb = db;
  return { ms, indexMs, rows: await db.accounts.count() };
}

/** What the list shows for a search (untimed): the count label's number. */
async function listMatches(prefix: string) {
  if (!listDb) throw new Error('prepareList first');
  return (await listAccountIds(listDb, { search: prefix })).length;
}

async function closeListDb() {
  closeList();
  if (listDb) await drop(listDb);
  listDb = null;
}

// ---- h) the account list exported ------------------------------------------------------------------

/**
 * Watches the page while something runs: the longest gap of a 10 ms timer (what the window would
 * feel), in which step it fell (`step` says the step now), and Chromium's longest task.
 */
function stallMeter() {
  let longestTask = 0;
  const tasks = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longestTask = Math.max(longestTask, entry.duration);
  });
  // A browser's entry type; Node's types (this file's) know only Node's.
  tasks.observe({ type: 'longtask' as 'function' });
  let last = performance.now();
  let stall = 0;
  let step = 'start';
  let stallStep = step;
  const tick = () => {
    const now = performance.now();
    if (now - last > stall) [stall, stallStep] = [now - last, step];
    last = now;
  };
  const timer = setInterval(tick, 10);
  return {
    step: (name: string) => void (step = name),
    stop() {
      tick();
      clearInterval(timer);
      tasks.disconnect();
      return { stallMs: stall, stallStep, longestTaskMs: longestTask };
    },
  };
}

/**
 * Every account prepareList stored exported as the list's "Export this list…" does (reading in
 * pages, CSV streamed or XLSX built in the worker), the bytes counted instead of crossing to a
 * main process, the page watched meanwhile (stallMeter); and, for comparison, the list's own
 * query (every id in order, as the list reads it when opened) watched alone.
 */
async function exportList(format: ListExportFormat) {
  if (!listDb) throw new Error('prepareList first');
  const idsMeter = stallMeter();
  await listAccountIds(listDb, { filter: 'all' });
  const ids = idsMeter.stop();
  let bytes = 0;
  const api: ExportApi = {
    begin: () => Promise.resolve({ ok: true, exportId: 'b'.repeat(22), name: `bench.${format}` }),
    write: (_, chunk) => Promise.resolve({ ok: true, bytes: (bytes += chunk.length) }),
    finish: () => Promise.resolve({ ok: true, path: `bench.${format}`, bytes }),
    cancel: () => Promise.resolve(),
  };
  const meter = stallMeter();
  let progress = 0;
  const t0 = performance.now();
  const result = await exportAccountList(
    listDb,
    { filter: 'all' },
    {
      api,
      buildWorkbook: workbookOffThread,
      format,
      fileName: `bench.${format}`,
      stageTitle: (row) => row.meta.pipeline?.title ?? null,
      onProgress: (phase, done) => {
        progress++;
        meter.step(phase === 'reading' && done === 0 ? 'ids read' : phase);
      },
    },
  );
  const ms = performance.now() - t0;
  const watched = meter.stop();
  if (!result.ok) throw new Error(`The export failed: ${result.cancelled ? 'cancelled' : result.message}`);
  return { ms, bytes, accounts: result.accounts ?? 0, ...watched, progress, idsStallMs: ids.stallMs };
}

// ---- the API run.ts calls ------------------------------------------------------------------------

const api = {
  async load(url: string) {
    const res = await fetch(url);
    accounts = (await res.json()) as V2Account[];
    return { accounts: accounts.length, dexie: Dexie.semVer };
  },
  ingestEngine,
  ingestBulk,
  prepareSearch,
  typeWord,
  closeSearch,
  prepareList,
  openList,
  closeList,
  domSize,
  focusSearch,
  armKeystroke,
  keystrokeResult,
  armFelt,
  feltResult,
  listMatches,
  closeListDb,
  exportList,
  edits,
  coalesce,
  ...indexBench,
  ...engagementBench,
};

export type BenchApi = typeof api;

/** A call of the page's bench function `name` from the Node side (run.ts, caller), its answer awaited. */
export type BenchCall = <K extends keyof BenchApi>(
  name: K,
  ...args: Parameters<BenchApi[K]>
) => Promise<Awaited<ReturnType<BenchApi[K]>>>;

Object.assign(globalThis, { bench: api, benchReady: true });
