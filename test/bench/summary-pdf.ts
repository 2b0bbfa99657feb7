// `npm run bench g`: the household financial summary (PDF) of a full household, built as the export
// does it, timed from reading the store to the PDF's bytes. Run by run.ts in a Node process of its
// own (fake-indexeddb, pdfmake's Node build): pdfmake's typings load the DOM library, which the
// rest of the bench (tsconfig.json) must not see, so this file typechecks with the renderer.

import { performance } from 'node:perf_hooks';
import { buildFinancialSummary } from '../../renderer/src/export/summary-pdf.ts';
import { openDb } from '../unit/data/helpers.ts';
import { advisorConfig, fullHousehold, NOW } from '../unit/export/summary-seeds.ts';
import { ms, summarize, table } from './report.ts';

const WARMUP = 3;
const RUNS = 15;

const db = openDb();
await advisorConfig(db);
const account = await fullHousehold(db);
const samples: number[] = [];
let bytes = 0;
let pages = 0;
for (let run = 0; run < WARMUP + RUNS; run++) {
  const started = performance.now();
  const pdf = await buildFinancialSummary(db, account.id, { now: NOW });
  const took = performance.now() - started;
  if (run >= WARMUP) samples.push(took);
  bytes = pdf.byteLength;
  pages = (new TextDecoder('latin1').decode(pdf).match(/\/Type \/Page\b/g) ?? []).length;
}
const s = summarize(samples);
process.stdout.write(
  `g) The financial summary (PDF) of a full household: every section filled, ${pages} pages, ${Math.round(bytes / 1024)} KB\n` +
    `   Node ${process.version} (pdfmake's Node build, fake-indexeddb); ${s.n} builds after ${WARMUP} discarded\n` +
    table([
      ['', 'median', 'p95', 'min', 'max'],
      ['read the store + lay out + write the PDF', ms(s.median), ms(s.p95), ms(s.min), ms(s.max)],
    ]) +
    '\n\n',
);
db.close();
