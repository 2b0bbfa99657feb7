// "Export this list…" read back with tools other than the writers (csv-parse, read-excel-file):
// the rows the list's query shows for a search, filter and sort, the BOM, the formula guard, typed
// cells, empty cells for what this computer does not hold; written through the real export
// service into a temporary folder; 50,000 accounts in many slices, cancellable.

import { parse } from 'csv-parse/sync';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSheet } from 'read-excel-file/node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExportService } from '../../../electron/main/exports/export-service.ts';
import { accountIndex, emptyMeta } from '../../../renderer/src/data/accounts.ts';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import type { AccountRow } from '../../../renderer/src/data/model.ts';
import { listAccountIds } from '../../../renderer/src/data/queries/index.ts';
import {
  ACCOUNT_LIST_COLUMNS,
  exportAccountList,
  writeAccountListCsv,
  type AccountListQuery,
} from '../../../renderer/src/export/account-list.ts';
import type { ExportApi } from '../../../renderer/src/common/save-export.ts';
import { workbookBytes } from '../../../renderer/src/export/xlsx-sheets.ts';
import { openDb } from '../../support/store.ts';

let dir: string;
let db: AdvisorDb;
let exports: ExportService;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'list-export-'));
  db = openDb();
  exports = new ExportService((name) => Promise.resolve(join(dir, name)));
});
afterEach(async () => {
  await exports.cancelAll();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Spec {
  first: string;
  last: string;
  email?: string;
  phone?: [code: string, number: string];
  co?: [first: string, last: string, email: string];
  type?: 'CLIENT' | 'PROSPECT';
  stage?: string;
  quality?: number | null;
  favorite?: boolean;
  archived?: boolean;
  created?: string | null;
  updated?: string | null;
}

let made = 0;
function account(spec: Spec): AccountRow {
  made++;
  const fields = {
    type: spec.type ?? 'CLIENT',
    'client.first_name': spec.first,
    'client.last_name': spec.last,
    'client.email': spec.email ?? '',
    'client.phone.code': spec.phone?.[0] ?? null,
    'client.phone.number': spec.phone?.[1] ?? null,
    'coclient.first_name': spec.co?.[0] ?? null,
    'coclient.last_name': spec.co?.[1] ?? null,
    'coclient.email': spec.co?.[2] ?? null,
    archived: spec.archived ?? false,
    favorited: spec.favorite ?? false,
    'pipeline.id': spec.stage ?? '',
  };
  const meta = {
    ...emptyMeta(),
    created_at: spec.created === undefined ? '2026-01-05 09:30:00' : spec.created,
    updated_at: spec.updated === undefined ? '2026-02-10 16:45:00' : spec.updated,
    quality: spec.quality == null ? null : { score: spec.quality, rules: [] },
  };
  return {
    id: `acc-${String(made).padStart(6, '0')}`,
    serverId: spec.created === null ? null : made,
    fields,
    server: fields,
    status: 'synced',
    changedAt: made,
    ...accountIndex(fields, meta),
    meta,
    availableOffline: 0,
    openedAt: null,
    pulledAt: null,
  };
}

const STAGES: Record<string, string> = { s1: 'First meeting', s2: 'Proposal' };
const stageTitle = (row: AccountRow) => STAGES[row.pipelineId] ?? null;

/** The bridge's export group as the window reaches it, in memory, over the main process's real service. */
const api: ExportApi = {
  begin: (name) => exports.begin(name),
  write: (id, chunk) => exports.write(id, chunk),
  finish: (id) => exports.finish(id),
  cancel: (id) => exports.cancel(id),
};
const through = { api, buildWorkbook: workbookBytes, stageTitle };

const HEADER = ACCOUNT_LIST_COLUMNS.map((c) => c.header);

async function seed(specs: Spec[]): Promise<void> {
  await db.accounts.bulkPut(specs.map(account));
}

const readCsv = (path: string) => {
  const raw = readFileSync(path);
  const rows: string[][] = parse(raw, { bom: true });
  return { raw, rows };
};

describe('account list export', () => {
  beforeEach(() =>
    seed([
      {
        first: 'Anna',
        last: 'Zimmer',
        email: 'anna@zimmer.test',
        phone: ['+1', '5550100'],
        co: ['Paul', 'Zimmer', 'paul@zimmer.test'],
        stage: 's2',
        quality: 87,
        favorite: true,
      },
      {
        first: 'Andrew',
        last: 'Baker, Jr.',
        email: 'andy@baker.test',
        quality: 0,
        created: '2026-03-01 23:30:00',
      },
      // Not on the platform yet: it has no score, no stage and no platform dates to show.
      { first: 'Annie', last: 'Moss "the boss"', quality: null, created: null, updated: null },
      // Cells a spreadsheet would run as formulas.
      { first: '=HYPERLINK("http://evil.test","x")', last: 'Anderson', email: '@SUM(1)' },
      { first: 'Ann', last: '-2+3', email: '+ann@x.test' },
      // Outside the query: a prospect, an archived client, a client whose names start otherwise.
      { first: 'Anabel', last: 'Prospect', type: 'PROSPECT' },
      { first: 'Anton', last: 'Archived', archived: true },
      { first: 'Bob', last: 'Brown', email: 'bob@brown.test' },
    ]),
  );

  const query: AccountListQuery = { search: 'an', filter: 'client', sort: 'client.last_name' };

  it('writes the rows the list shows for a search, filter and sort, as CSV with BOM and the formula guard', async () => {
    const result = await exportAccountList(db, query, {
      format: 'csv',
      fileName: 'Accounts.csv',
      ...through,
    });
    expect(result).toMatchObject({ ok: true, accounts: 5, name: 'Accounts.csv' });
    const { raw, rows } = readCsv(join(dir, 'Accounts.csv'));
    expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(raw.toString('utf8')).toContain('\r\n');
    expect(rows[0]).toEqual(HEADER);
    // Clients (not archived) whose names or emails start with "an", by last name A to Z; Bob,
    // the prospect and the archived client are not in the list, so not in the file.
    expect(rows.slice(1).map((r) => r[1])).toEqual([
      "'-2+3",
      'Anderson',
      'Baker, Jr.',
      'Moss "the boss"',
      'Zimmer',
    ]);
    const byLast = new Map(rows.slice(1).map((r) => [r[1], r]));
    expect(byLast.get('Zimmer')).toEqual([
      'Anna',
      'Zimmer',
      'anna@zimmer.test',
      // A calling code starts with +, as a formula does: guarded too (the workbook needs no guard).
      "'+1 5550100",
      'Paul',
      'Zimmer',
      'paul@zimmer.test',
      '',
      'Client',
      'Proposal',
      '87',
      'Yes',
      'No',
      // UTC platform times as the advisor's clock reads them (the tests' clock runs in UTC).
      localText('2026-01-05 09:30:00'),
      localText('2026-02-10 16:45:00'),
    ]);
    // What this computer does not hold is empty; a score of 0 is a score.
    expect(byLast.get('Moss "the boss"')?.slice(8)).toEqual(['Client', '', '', 'No', 'No', '', '']);
    expect(byLast.get('Baker, Jr.')?.[10]).toBe('0');
    // The guard: spreadsheets read these as text, not as formulas.
    expect(byLast.get('Anderson')?.slice(0, 3)).toEqual([
      '\'=HYPERLINK("http://evil.test","x")',
      'Anderson',
      "'@SUM(1)",
    ]);
    expect(byLast.get("'-2+3")?.slice(0, 3)).toEqual(['Ann', "'-2+3", "'+ann@x.test"]);
    // Equal to the list's own answer, in its order.
    const ids = await listAccountIds(db, query);
    const listed = (await db.accounts.bulkGet(ids)).map((r) => r?.fields['client.email'] || '');
    expect(rows.slice(1).map((r) => r[2]?.replace(/^'/, ''))).toEqual(listed);
  });

  it('writes an XLSX whose cells have their types: numbers, booleans, dates, and empty cells', async () => {
    const result = await exportAccountList(db, query, {
      format: 'xlsx',
      fileName: 'Accounts.xlsx',
      ...through,
    });
    expect(result).toMatchObject({ ok: true, accounts: 5 });
    const rows = await readSheet(readFileSync(join(dir, 'Accounts.xlsx')));
    expect(rows[0]).toEqual(HEADER);
    expect(rows.slice(1).map((r) => r[1])).toEqual([
      '-2+3',
      'Anderson',
      'Baker, Jr.',
      'Moss "the boss"',
      'Zimmer',
    ]);
    const zimmer = rows.find((r) => r[1] === 'Zimmer') ?? [];
    expect(zimmer.slice(8, 13)).toEqual(['Client', 'Proposal', 87, true, false]);
    expect(zimmer[13]).toBeInstanceOf(Date);
    // A serial day number keeps the time to about a millisecond.
    const toSecond = (d: Date) => new Date(Math.round(d.getTime() / 1000) * 1000).toISOString();
    expect(toSecond(zimmer[13] as unknown as Date)).toBe(localWall('2026-01-05 09:30:00'));
    expect(toSecond(zimmer[14] as unknown as Date)).toBe(localWall('2026-02-10 16:45:00'));
    expect(zimmer[3]).toBe('+1 5550100');
    const moss = rows.find((r) => r[1] === 'Moss "the boss"') ?? [];
    expect(moss.slice(9, 15)).toEqual([null, null, false, false, null, null]);
    // In a workbook a text cell is not a formula whatever it starts with: written as it is.
    const anderson = rows.find((r) => r[1] === 'Anderson') ?? [];
    expect(anderson[0]).toBe('=HYPERLINK("http://evil.test","x")');
  });

  it('leaves no file when cancelled, nor when the dialog is cancelled', async () => {
    const stop = new AbortController();
    const result = await exportAccountList(
      db,
      {},
      {
        format: 'csv',
        fileName: 'Accounts.csv',
        ...through,
        pageSize: 2,
        onProgress: (_, done) => done >= 2 && stop.abort(),
        signal: stop.signal,
      },
    );
    expect(result).toEqual({ ok: false, cancelled: true });
    expect(readdirSync(dir)).toEqual([]);

    exports = new ExportService(() => Promise.resolve(null));
    expect(await exportAccountList(db, {}, { format: 'xlsx', fileName: 'A.xlsx', ...through })).toEqual({
      ok: false,
      cancelled: true,
    });
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('account list export of 50,000 accounts', () => {
  it('is made in many slices, with progress after each', async () => {
    const specs: Spec[] = Array.from({ length: 50_000 }, (_, i) => ({
      first: `First${i}`,
      last: `Last${i}`,
      email: `p${i}@example.test`,
    }));
    await seed(specs);
    const progress: [number, number][] = [];
    const chunks: Uint8Array[] = [];
    const written = await writeAccountListCsv(
      db,
      { filter: 'all' },
      (bytes) => {
        chunks.push(bytes);
        return true;
      },
      { stageTitle, onProgress: (done, total) => progress.push([done, total]) },
    );
    expect(written).toBe(50_000);
    // 500 rows a slice: a hundred steps, each reported, growing to the whole.
    expect(progress.length).toBeGreaterThanOrEqual(100);
    expect(progress.every(([, total]) => total === 50_000)).toBe(true);
    expect(progress.at(-1)).toEqual([50_000, 50_000]);
    expect(progress.map(([done]) => done)).toEqual([...progress.map(([done]) => done)].sort((a, b) => a - b));
    const rows: string[][] = parse(Buffer.concat(chunks), { bom: true });
    expect(rows).toHaveLength(50_001);
  }, 120_000);
});

/** A UTC platform time as the local clock shows it, as the CSV writes it. */
function localText(stamp: string): string {
  const d = new Date(`${stamp.replace(' ', 'T')}Z`);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** The same local clock time as a spreadsheet keeps it (a date without a zone, read back as UTC). */
function localWall(stamp: string): string {
  return `${localText(stamp).replace(' ', 'T')}:00.000Z`;
}
