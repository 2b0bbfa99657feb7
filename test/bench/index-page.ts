// The page side of k) (index-build.ts): the account index read as a store opens, from the rows or
// from their compact entries, and the ingest's floor, a bulkPut into a table with its key alone.

import Dexie from 'dexie';
import { storedEntryOf } from '../../renderer/src/data/account-index/entry.ts';
import { AccountListIndex } from '../../renderer/src/data/account-index/list-index.ts';
import { benchPayloads, drop, freshDb, mappedRow, stored } from './page.ts';

/**
 * A store of `count` accounts as the pull leaves them (written untimed), its index read `runs`
 * times each way: from every row (`db.accounts.toArray()`, as before version 8), and from the
 * `accountEntries` table (as the store opens now). Also each way's JSON size, as a measure of the
 * bytes IndexedDB reads and clones.
 */
async function indexOpen(count: number, runs: number) {
  const db = await stored(`k-open-${count}`, benchPayloads().slice(0, count));
  const rowsMs: number[] = [];
  const entriesMs: number[] = [];
  const readRowsMs: number[] = [];
  const readEntriesMs: number[] = [];
  for (let run = 0; run < runs; run++) {
    for (const way of run % 2 ? ['entries', 'rows'] : ['rows', 'entries']) {
      const t0 = performance.now();
      const list = new AccountListIndex();
      if (way === 'rows') {
        const rows = await db.accounts.toArray();
        readRowsMs.push(performance.now() - t0);
        list.reset(rows.map(storedEntryOf));
        rowsMs.push(performance.now() - t0);
      } else {
        const entries = await db.accountEntries.toArray();
        readEntriesMs.push(performance.now() - t0);
        list.reset(entries);
        entriesMs.push(performance.now() - t0);
      }
      if (list.size !== count) throw new Error(`The index holds ${list.size} of ${count} accounts.`);
    }
  }
  const sample = (await db.accounts.limit(200).toArray()).map((r) => JSON.stringify(r).length);
  const entrySample = (await db.accountEntries.limit(200).toArray()).map((e) => JSON.stringify(e).length);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  await drop(db);
  return {
    rowsMs,
    entriesMs,
    readRowsMs,
    readEntriesMs,
    rowBytes: mean(sample),
    entryBytes: mean(entrySample),
  };
}

let keyOnlyCount = 0;

/**
 * The same rows as the pull writes (mapped untimed) put in one bulkPut: into a table with the key
 * alone (no index, no middleware: IndexedDB's own cost), and into the app's store (its indexes,
 * and each row's entry written beside it).
 */
async function ingestFloor(count: number) {
  const rows = benchPayloads().slice(0, count).map(mappedRow);
  const raw = new Dexie(`bench-k-key-only-${++keyOnlyCount}`, { chromeTransactionDurability: 'strict' });
  raw.version(1).stores({ accounts: 'id' });
  await raw.open();
  const t0 = performance.now();
  await raw.table('accounts').bulkPut(rows);
  const keyOnlyMs = performance.now() - t0;
  await raw.delete();
  const db = await freshDb('k-store');
  const t1 = performance.now();
  await db.accounts.bulkPut(rows);
  const storeMs = performance.now() - t1;
  await drop(db);
  return { keyOnlyMs, storeMs };
}

export const indexBench = { indexOpen, ingestFloor };
