// The names exports suggest: subject, what, the local day, joined by en dashes.

import { describe, expect, it } from 'vitest';
import { exportFileName, localDay } from '@shared/export/file-name.ts';

describe('exportFileName', () => {
  it('names the household, the document and the day', () => {
    const day = new Date(2026, 10, 25, 14, 5);
    expect(exportFileName('Smith household', 'financial summary', day, 'pdf')).toBe(
      'Smith household – financial summary – 2026-11-25.pdf',
    );
    expect(exportFileName('', 'Accounts', day, 'csv')).toBe('Accounts – 2026-11-25.csv');
    expect(exportFileName('  Ann   Tester ', 'data', day, 'zip')).toBe('Ann Tester – data – 2026-11-25.zip');
  });

  it('takes the day of this computer’s calendar, not UTC’s', () => {
    // Shortly after local midnight of 1 March (whatever the time zone), before it in some UTC offsets.
    const justAfterMidnight = new Date(2026, 2, 1, 0, 10);
    expect(localDay(justAfterMidnight)).toBe('2026-03-01');
    const lateEvening = new Date(2026, 11, 31, 23, 50);
    expect(localDay(lateEvening)).toBe('2026-12-31');
  });
});
