// The workspace's household exports (export/household-export.ts) through the real export service
// into a temporary folder: the name a household's file is given, the workbook saved whole, and a
// file that cannot be made saying so and leaving nothing behind.

import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import readXlsxFile from 'read-excel-file/node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExportService } from '../../../electron/main/exports/export-service.ts';
import {
  exportHousehold,
  FINANCIAL_SUMMARY,
  HOUSEHOLD_WORKBOOK,
  householdSubject,
} from '../../../renderer/src/export/household-export.ts';
import type { ExportApi } from '../../../renderer/src/export/save-export.ts';
import { clientFields, openDb, syncedAccount } from '../data/helpers.ts';

let dir: string;
let service: ExportService;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'household-export-'));
  service = new ExportService((name) => Promise.resolve(join(dir, name)));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const api = (): ExportApi => ({
  begin: (name) => service.begin(name),
  write: (id, chunk) => service.write(id, chunk),
  finish: (id) => service.finish(id),
  cancel: (id) => service.cancel(id),
});
const NOW = new Date(2026, 10, 25, 14, 5);

describe('household exports', () => {
  it('names the household by its members’ last names, or by the client when there are none', () => {
    expect(householdSubject({ fields: { 'client.last_name': 'Smith', 'coclient.last_name': 'Smith' } })).toBe(
      'Smith household',
    );
    expect(
      householdSubject({ fields: { 'client.last_name': 'Lindqvist', 'coclient.last_name': 'Berg' } }),
    ).toBe('Lindqvist & Berg household');
    expect(householdSubject({ fields: { 'client.email': 'ann@example.com' } })).toBe('ann@example.com');
  });

  it('saves the household data as a workbook, named for the household, the data and the day', async () => {
    const db = openDb();
    const account = await syncedAccount(db, 7, clientFields('Ann'));
    const steps: string[] = [];
    const saved = await exportHousehold(db, HOUSEHOLD_WORKBOOK, {
      api: api(),
      account,
      now: NOW,
      currency: 'USD',
      onProgress: (phase) => steps.push(phase),
    });
    const name = 'Tester household – household data – 2026-11-25.xlsx';
    expect(saved).toMatchObject({ ok: true, name, path: join(dir, name) });
    expect([...new Set(steps)]).toEqual(['choosing', 'building', 'writing']);
    const [summary] = await readXlsxFile(readFileSync(join(dir, name)));
    expect(summary?.sheet).toBe('Summary');
    expect(summary?.data[2]).toEqual(['Client', 'Ann Tester']);
  });

  it('says the summary could not be made, and why, when the household is not here; no file is left', async () => {
    const db = openDb();
    const saved = await exportHousehold(db, FINANCIAL_SUMMARY, {
      api: api(),
      account: { id: 'gone', fields: clientFields('Ann') },
      now: NOW,
      currency: 'USD',
    });
    expect(saved).toMatchObject({ ok: false, cancelled: false });
    const message = saved.ok || saved.cancelled ? '' : saved.message;
    expect(message).toMatch(
      /^The financial summary could not be made from this computer's data: No household gone/,
    );
    expect(message).toContain('Nothing was saved; try again');
    expect(readdirSync(dir)).toEqual([]);
  });
});
