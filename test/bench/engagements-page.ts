// The page side of m) (engagements.ts): a store of engagements made from the sandbox's own
// payloads, the engagement index read as the list first asks for it (every row, then built), with a
// reference read of the same rows 500 to a record, and the list's queries over it: a search typed
// one key at a time, and the first open of each sort.

import Dexie from 'dexie';
import { EngagementListIndex } from '../../renderer/src/data/engagement-index.ts';
import type { AdvisorDb } from '../../renderer/src/data/db.ts';
import type { EngagementRow } from '../../renderer/src/data/model.ts';
import { ENGAGEMENT_SORT_KEYS, listEngagements } from '../../renderer/src/data/queries/index.ts';
import { engagementRow } from '../../renderer/src/data/records.ts';
import { drop, freshDb } from './page.ts';

const opened = new Map<number, AdvisorDb>();
/** Engagements to a record in the reference's key-only table. */
const CHUNK = 500;

/**
 * `count` engagements of the sandbox's `templates` (their titles, descriptions, statuses and
 * templates), each for a member named from `first` and `last` in turn, over 5,000 accounts, made
 * a minute apart: written untimed, in slices as a pull writes them.
 */
async function engagementStore(
  templates: readonly Record<string, unknown>[],
  first: readonly string[],
  last: readonly string[],
  count: number,
): Promise<{ rows: number }> {
  const db = await freshDb(`m-${count}`);
  const at = Date.UTC(2025, 0, 1);
  const rows = Array.from({ length: count }, (_, i) => {
    const t = templates[i % templates.length]!;
    const name = `${first[(i * 7) % first.length]} ${last[(i * 13) % last.length]}`;
    const made = new Date(at + i * 60_000).toISOString().replace('T', ' ').slice(0, 19);
    const row = engagementRow(
      { ...t, id: `bench-e-${i}`, account_id: 1 + (i % 5_000), name, created_at: made },
      Date.now(),
    );
    if (!row) throw new Error(`A bench engagement (${i}) is not one the interface describes.`);
    return row;
  });
  for (let i = 0; i < rows.length; i += 2_000) await db.engagements.bulkPut(rows.slice(i, i + 2_000));
  opened.set(count, db);
  return { rows: await db.engagements.count() };
}

const of = (count: number): AdvisorDb => {
  const db = opened.get(count);
  if (!db) throw new Error(`No bench store of ${count} engagements: make it first.`);
  return db;
};

/**
 * The index read `runs` times as the store opens it: every row read (`db.engagements.toArray()`),
 * then the index built and the default order sorted. Beside it, alternated, a reference: the same
 * rows read from a key-only table that holds them 500 to a record, what IndexedDB costs per
 * record rather than per byte.
 */
async function engagementOpen(count: number, runs: number) {
  const db = of(count);
  const rows = await db.engagements.toArray();
  const chunked = new Dexie(`bench-m-chunks-${count}`, { chromeTransactionDurability: 'strict' });
  chunked.version(1).stores({ chunks: '' });
  await chunked.open();
  const chunks = Array.from({ length: Math.ceil(rows.length / CHUNK) }, (_, i) =>
    rows.slice(i * CHUNK, (i + 1) * CHUNK),
  );
  await chunked.table('chunks').bulkPut(
    chunks,
    chunks.map((_, i) => i),
  );
  const readMs: number[] = [];
  const builtMs: number[] = [];
  const sortMs: number[] = [];
  const chunkedMs: number[] = [];
  for (let run = 0; run < runs; run++)
    for (const way of run % 2 ? ['chunks', 'rows'] : ['rows', 'chunks']) {
      const t0 = performance.now();
      if (way === 'chunks') {
        const read = (await chunked.table<EngagementRow[]>('chunks').toArray()).flat();
        chunkedMs.push(performance.now() - t0);
        if (read.length !== count) throw new Error(`The chunks hold ${read.length} of ${count} engagements.`);
        continue;
      }
      const read = await db.engagements.toArray();
      readMs.push(performance.now() - t0);
      const list = new EngagementListIndex();
      list.reset(read);
      builtMs.push(performance.now() - t0);
      // The default order sorted, as the first list asks for it.
      const t1 = performance.now();
      list.ids({ search: '' }, '-created_at');
      sortMs.push(performance.now() - t1);
      if (list.size !== count) throw new Error(`The index holds ${list.size} of ${count} engagements.`);
    }
  await chunked.delete();
  const rowBytes = rows.slice(0, 200).reduce((n, r) => n + JSON.stringify(r).length, 0) / 200;
  return { readMs, builtMs, sortMs, chunkedMs, rowBytes };
}

/**
 * Each word typed `runs` times, a key at a time: each prefix's first page of 50 and its total, as
 * the list asks (listEngagements, the index ready). Returns each key's time and its total.
 */
async function engagementKeys(count: number, words: readonly string[], runs: number) {
  const db = of(count);
  await listEngagements(db, {});
  const keys: { ms: number; first: boolean; total: number }[] = [];
  for (let run = 0; run < runs; run++)
    for (const word of words)
      for (let n = 1; n <= word.length; n++) {
        const t0 = performance.now();
        const page = await listEngagements(db, { search: word.slice(0, n), limit: 50 });
        keys.push({ ms: performance.now() - t0, first: n === 1, total: page.total });
      }
  return keys;
}

/** The first open of each sort (its order sorted on first use), in a store opened afresh. */
async function engagementSorts(count: number) {
  const db = of(count);
  db.close();
  await db.open();
  await listEngagements(db, {});
  const sorts: { key: string; ms: number }[] = [];
  for (const key of ENGAGEMENT_SORT_KEYS) {
    const t0 = performance.now();
    await listEngagements(db, { sort: key, limit: 50 });
    sorts.push({ key, ms: performance.now() - t0 });
  }
  return sorts;
}

async function dropEngagements(): Promise<void> {
  for (const db of opened.values()) await drop(db);
  opened.clear();
}

export const engagementBench = {
  engagementStore,
  engagementOpen,
  engagementKeys,
  engagementSorts,
  dropEngagements,
};
