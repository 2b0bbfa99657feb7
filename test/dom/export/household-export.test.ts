// The workspace's household exports (export/household-export.ts) through the real export service
// into a temporary folder: the name a household's file is given, the workbook saved whole, and a
// file that cannot be made saying so and leaving nothing behind.

import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import readXlsxFile from 'read-excel-file/node';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PreviewRequest, PreviewResult } from '@shared/bridge.ts';
import { CONFIG_KEYS, putConfigEntries } from '../../../renderer/src/data/config.ts';
import { portraitPng } from '../../platform/samples.ts';
import { ExportService } from '../../../electron/main/exports/export-service.ts';
import {
  exportHousehold,
  FINANCIAL_SUMMARY,
  HOUSEHOLD_WORKBOOK,
  householdSubject,
} from '../../../renderer/src/export/household-export.ts';
import type { ExportApi } from '../../../renderer/src/common/save-export.ts';
import { clientFields, openDb, syncedAccount } from '../../support/store.ts';

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

  describe('the firm’s logo on the financial summary', () => {
    const LOGO_URL = 'https://platform.example/api/v0/files/f-logo/logo.png';

    /** The main process's picture cache as the export sees it: what it keeps, and what it was asked. */
    function keptPictures(kept: Record<string, Uint8Array>) {
      const asked: PreviewRequest[] = [];
      const preview = (request: PreviewRequest): Promise<PreviewResult> => {
        asked.push(request);
        const bytes = kept[request.url];
        return Promise.resolve(
          bytes
            ? { ok: true, bytes }
            : {
                ok: false,
                error: {
                  ok: false,
                  kind: 'network',
                  status: null,
                  message: 'Not downloaded yet — available when online.',
                  fields: {},
                  retryAfterMs: null,
                },
              },
        );
      };
      return { asked, pictures: { preview } };
    }

    /** The images of a PDF as pdfimages lists them: width × height of each. */
    function images(pdf: Uint8Array): string[] {
      const file = join(dir, 'summary.pdf');
      writeFileSync(file, pdf);
      const list = execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' }).split('\n').slice(2);
      return list.filter((l) => l.trim() !== '').map((l) => l.trim().split(/\s+/).slice(3, 5).join('×'));
    }

    async function firmWithLogo() {
      const db = openDb();
      await putConfigEntries(db, [
        [
          CONFIG_KEYS.userV0,
          {
            pulledAt: 1,
            data: {
              company: 'Main Street Advisors',
              company_logo: {
                type: 'image',
                url: LOGO_URL,
                filetype: 'image/png',
                filesize: 1,
                filename: 'logo.png',
              },
            },
          },
        ],
      ]);
      return { db, account: await syncedAccount(db, 7, clientFields('Ann')) };
    }

    it('draws the logo this computer keeps, asking for the kept copy alone', async () => {
      const { db, account } = await firmWithLogo();
      const { asked, pictures } = keptPictures({ [LOGO_URL]: new Uint8Array(portraitPng(7)) });
      const pdf = await FINANCIAL_SUMMARY.build(db, account.id, { now: NOW, currency: 'USD', pictures });
      expect(asked).toEqual([{ api: 'v0', url: LOGO_URL, keptOnly: true }]);
      // The sandbox's logo is a 64 × 64 picture.
      expect(images(pdf)).toContain('64×64');
    });

    it('goes without it when it is not kept here, or in a format a PDF cannot draw, and still names the firm', async () => {
      const { db, account } = await firmWithLogo();
      const gif = new TextEncoder().encode('GIF89a\x01\x00\x01\x00');
      for (const kept of [{}, { [LOGO_URL]: gif }] as Record<string, Uint8Array>[]) {
        const { pictures } = keptPictures(kept);
        const pdf = await FINANCIAL_SUMMARY.build(db, account.id, { now: NOW, currency: 'USD', pictures });
        expect(images(pdf)).toEqual([]);
        const file = join(dir, 'plain.pdf');
        writeFileSync(file, pdf);
        expect(execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' })).toContain(
          'Main Street Advisors',
        );
      }
    });
  });
});
