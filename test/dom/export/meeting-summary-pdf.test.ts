// The meeting change summary's PDF read back with pdftotext: 500 changes break across pages
// cleanly (the column header on every page, no row split, none lost, page numbers), and a span
// without changes says so in a sentence instead of an empty table.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChangeState } from '../../../renderer/src/data/journal.ts';
import { meetingSummaryPdf } from '../../../renderer/src/export/meeting-summary-pdf.ts';
import { STATE_WORDS, type MeetingSummary } from '../../../renderer/src/export/meeting-summary.ts';

const dir = mkdtempSync(join(tmpdir(), 'meeting-pdf-'));
const NOW = new Date(2026, 10, 26, 16, 0);
const FROM = new Date(2026, 10, 26, 9, 0).getTime();

function pages(bytes: Uint8Array, name: string): string[] {
  const file = join(dir, `${name}.pdf`);
  writeFileSync(file, bytes);
  const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  return text.split('\f').filter((p) => p.trim() !== '');
}

function summary(n: number): MeetingSummary {
  const states: ChangeState[] = ['sent', 'pending', 'refused'];
  const rows = Array.from({ length: n }, (_, i) => {
    const state = states[i % 3] as ChangeState;
    return {
      at: FROM + i * 30_000,
      section: 'Goals',
      item: `Goal ${i + 1}`,
      field: 'Target',
      before: `$${i + 1},000`,
      after: `$${i + 2},000`,
      state,
      status: STATE_WORDS[state],
      reason: state === 'refused' ? 'The target date must be in the future.' : '',
    };
  });
  const counts = { sent: 0, pending: 0, refused: 0, conflict: 0, withdrawn: 0 };
  for (const r of rows) counts[r.state]++;
  return {
    household: 'Ann Tester and Bob Tester',
    from: FROM,
    to: NOW.getTime(),
    rows,
    counts,
    firm: { name: 'Main Street Advisors' },
  };
}

describe('meeting change summary (PDF)', () => {
  it('breaks 500 changes across pages with the header on each and every row whole, once', async () => {
    const read = pages(await meetingSummaryPdf(summary(500), NOW), 'many');
    expect(read.length).toBeGreaterThan(5);
    expect(read[0]).toContain('Main Street Advisors');
    expect(read[0]?.replace(/\s+/g, ' ')).toContain(
      '500 changes: 167 on the platform, 167 not sent yet, 166 refused by the platform.',
    );
    const seen: number[] = [];
    read.forEach((page, i) => {
      expect(page).toMatch(/When\s+Section\s+Item\s+Field\s+Before\s+After\s+Status/);
      expect(page).toContain(`Page ${i + 1} of ${read.length}`);
      if (i > 0) expect(page).toContain('Meeting change summary · Ann Tester and Bob Tester');
      // A whole row: its item, field, before and after on one line.
      for (const m of page.matchAll(/Goal (\d+)\s+Target\s+\$([\d,]+)\s+\$([\d,]+)/g)) {
        const n = Number(m[1]);
        expect(m[2]).toBe(`${n},000`);
        expect(m[3]).toBe(`${n + 1},000`);
        seen.push(n);
      }
    });
    expect(seen).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
  });

  it('says so when nothing was changed in the span', async () => {
    const [page] = pages(await meetingSummaryPdf(summary(0), NOW), 'none');
    const flat = page?.replace(/\s+/g, ' ');
    expect(flat).toContain('0 changes.');
    expect(flat).toContain('No change was made to this household on this computer in this span.');
    expect(page).not.toMatch(/When\s+Section\s+Item/);
  });
});
