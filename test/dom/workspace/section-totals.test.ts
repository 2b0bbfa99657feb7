// @vitest-environment happy-dom
// A section table's total stands under the column it sums, with its label under the first column:
// net worth counts an item's current value, a policy's cash value (not its coverage, which is paid
// only on a claim), and variable expenses their monthly amount. Every section with a total is walked.

import { describe, expect, it } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import { household, mountWorkspace, one, openDb, syncedItem } from './harness.ts';

unmountAfterEach();

const usd = (value: number, frequency = 'one-time') => ({ value, frequency });

/** Section, one item of it, the header of the summed column, the total and its label, worked out by hand. */
const CASES: [string, Record<string, unknown>, string, string, string][] = [
  [
    'assets',
    { name: 'Home', current_value: usd(450_000), original_value: usd(300_000) },
    'Current value',
    '$450,000',
    'Total current value',
  ],
  [
    'cash',
    { name: 'Checking', current_value: usd(12_500) },
    'Current value',
    '$12,500',
    'Total current value',
  ],
  [
    'taxable',
    { name: 'Brokerage', current_value: usd(40_000), cost_value: usd(25_000) },
    'Current value',
    '$40,000',
    'Total current value',
  ],
  [
    'plans',
    { name: '401(k)', current_value: usd(210_000) },
    'Current value',
    '$210,000',
    'Total current value',
  ],
  [
    'annuities',
    { name: 'Fixed annuity', current_value: usd(80_000) },
    'Current value',
    '$80,000',
    'Total current value',
  ],
  [
    'insurance',
    {
      name: 'Whole life',
      coverage_value: usd(1_000_000),
      cash_value: usd(9_000),
      premium_value: usd(200, 'monthly'),
    },
    'Cash value',
    '$9,000',
    'Total cash value',
  ],
  [
    'liabilities',
    { name: 'Mortgage', current_value: usd(300_000), cost_value: usd(1_450, 'monthly') },
    'Current value',
    '$300,000',
    'Total current value',
  ],
  ['expenses-variable', { type: 'groceries', value: usd(800, 'monthly') }, 'Amount', '$800', 'Per month'],
];

/** The header of the column a footer cell stands in, by position. */
function columnOf(cell: HTMLElement): string | undefined {
  const table = cell.closest('table')!;
  const index = [...cell.parentElement!.children].indexOf(cell);
  return table.querySelectorAll('thead th')[index]?.textContent?.trim();
}

describe('a section table’s total', () => {
  it.each(CASES)('%s: stands under the column it sums', async (section, fields, header, total, label) => {
    const db = openDb();
    const account = await household(db);
    await syncedItem(db, account.id, section, 'x|1', fields);
    await mountWorkspace(db, account.id, { tab: 'financials', section });
    const cell = one('section-total').closest('td')!;
    expect(one('section-total').textContent).toBe(total);
    expect(columnOf(cell)).toBe(header);
    const first = one('section-table').querySelector<HTMLElement>('tfoot td')!;
    expect(first.textContent?.trim()).toBe(label);
  });
});

describe('the variable expenses’ monthly total', () => {
  it('counts only what it can convert to a month and says what it left out', async () => {
    const db = openDb();
    const account = await household(db);
    await syncedItem(db, account.id, 'expenses-variable', 'v|1', {
      type: 'groceries',
      value: usd(800, 'monthly'),
    });
    await syncedItem(db, account.id, 'expenses-variable', 'v|2', {
      type: 'clothing',
      value: usd(1_200, 'yearly'),
    });
    await syncedItem(db, account.id, 'expenses-variable', 'v|3', {
      type: 'special-events',
      value: usd(2_000),
    });
    await syncedItem(db, account.id, 'expenses-variable', 'v|4', {
      type: 'domestic-help',
      value: usd(80, 'biweekly'),
    });
    await mountWorkspace(db, account.id, { tab: 'financials', section: 'expenses-variable' });
    // 800 + 1,200 / 12; the one-time events and the biweekly help are not a monthly figure.
    expect(one('section-total').textContent).toBe('$900');
    const note = one('section-total-note');
    expect(note.textContent?.trim()).toBe('+ 1 one-time + 1 not counted');
    expect(note.title).toBe(
      'Not in the monthly figures (the app cannot convert their frequency): Domestic help, $80 biweekly',
    );
  });
});
