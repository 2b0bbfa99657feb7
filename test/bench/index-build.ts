// k) The account index as the store opens, and the ingest against its floor (`npm run bench k`):
// the index read from every account row (before schema version 8) or from the compact entries
// written beside them (now), and the pull's ingest of 10,000 accounts against a bulkPut of the
// same rows into a table with its key alone. The page side is index-page.ts.

import type { BenchCall } from './page.ts';
import { int, ms, ratio, summarize, table } from './report.ts';

const OPEN_SIZES = [1_000, 50_000] as const;
const OPEN_RUNS = 5;
const INGEST = 10_000;
const INGEST_RUNS = 3;

export async function indexBuild(
  call: BenchCall,
  say: (line?: string) => void,
  took: () => string,
): Promise<void> {
  const opened = [];
  for (const size of OPEN_SIZES) opened.push({ size, ...(await call('indexOpen', size, OPEN_RUNS)) });
  // Warm-up (discarded), then the three writes alternated.
  await call('ingestFloor', 1_000);
  await call('ingestEngine', 1_000, false);
  const engine: number[] = [];
  const store: number[] = [];
  const keyOnly: number[] = [];
  for (let run = 0; run < INGEST_RUNS; run++) {
    const floor = await call('ingestFloor', INGEST);
    store.push(floor.storeMs);
    keyOnly.push(floor.keyOnlyMs);
    const pulled = await call('ingestEngine', INGEST, false);
    // Rows only: the pull also asks for /user, which a)'s list server does not answer (a failure).
    if (pulled.rows !== INGEST) throw new Error(`The pull stored ${pulled.rows} of ${INGEST} rows.`);
    engine.push(pulled.ms);
  }
  say(`k) The account index as the store opens; the ingest against a key-only bulkPut ${took()}`);
  say(
    `   a store of the pull's rows (bulkPut untimed); the index read and sorted for the default order, ` +
      `${OPEN_RUNS} runs each way alternated, medians (min–max)`,
  );
  const cell = (xs: number[]) => {
    const s = summarize(xs);
    return `${ms(s.median)} (${ms(s.min)}–${ms(s.max)})`;
  };
  say(
    table([
      ['', ...opened.map((o) => `${int(o.size)} accounts`)],
      ['from every row (db.accounts), read + built', ...opened.map((o) => cell(o.rowsMs))],
      ['  of which the read', ...opened.map((o) => cell(o.readRowsMs))],
      ['from the entries (db.accountEntries), read + built', ...opened.map((o) => cell(o.entriesMs))],
      ['  of which the read', ...opened.map((o) => cell(o.readEntriesMs))],
      [
        'entries / rows',
        ...opened.map((o) => ratio(summarize(o.entriesMs).median, summarize(o.rowsMs).median)),
      ],
    ]),
  );
  const last = opened[opened.length - 1]!;
  say(
    `   size as JSON: a row ${int(last.rowBytes)} bytes, its entry ${int(last.entryBytes)} bytes (means of 200)`,
  );
  const [e, s, k] = [summarize(engine), summarize(store), summarize(keyOnly)];
  say(
    `   ingest of ${int(INGEST)} accounts into an empty store, ${INGEST_RUNS} runs after a warm-up on 1,000`,
  );
  say(
    table([
      ['', 'median', 'min', 'max', 'vs key-only'],
      [
        'PullEngine.pullAccountList, full sweep (as a))',
        ms(e.median),
        ms(e.min),
        ms(e.max),
        ratio(e.median, k.median),
      ],
      [
        'bulkPut into the app’s store (indexes, entries)',
        ms(s.median),
        ms(s.min),
        ms(s.max),
        ratio(s.median, k.median),
      ],
      ['bulkPut into a table with its key alone', ms(k.median), ms(k.min), ms(k.max), '1.00×'],
    ]),
  );
  say(`   target: the ingest ≤ 3× the key-only bulkPut`);
  say();
}
