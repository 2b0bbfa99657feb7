// The page of `npm run bench g` (run.ts bundles it with vite and opens it in Chromium): the
// household financial summary (PDF) of a full household, built as the export builds it in the
// renderer, timed from reading the store to the PDF's bytes. It lives in test/dom/ to typecheck
// with the renderer (tsconfig.web.json): pdfmake's typings load the DOM, which the rest of the
// bench must not see.

import Dexie from 'dexie';
import { AdvisorDb } from '../../../renderer/src/data/db.ts';
import { buildFinancialSummary } from '../../../renderer/src/export/summary-pdf.ts';
import { advisorConfig, fullHousehold, NOW } from '../export/summary-seeds.ts';

// As on app://advisor-desk/, where Dexie's debug mode is off (page.ts says why).
Dexie.debug = false;

async function summaryRuns(warmup: number, runs: number) {
  const db = new AdvisorDb(`bench-summary-${Date.now()}`);
  await db.open();
  await advisorConfig(db);
  const account = await fullHousehold(db);
  const samples: number[] = [];
  let pdf: Uint8Array = new Uint8Array();
  for (let run = 0; run < warmup + runs; run++) {
    const started = performance.now();
    pdf = await buildFinancialSummary(db, account.id, { now: NOW });
    if (run >= warmup) samples.push(performance.now() - started);
  }
  const pages = (new TextDecoder('latin1').decode(pdf).match(/\/Type \/Page\b/g) ?? []).length;
  await db.delete();
  return { samples, bytes: pdf.byteLength, pages };
}

Object.assign(globalThis, { summaryRuns });
