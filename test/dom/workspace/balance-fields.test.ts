// @vitest-environment happy-dom
// Balances have no frequency (issue 23, point 12): a current value, an original value, a coverage
// and a cash value are amounts at one point in time. The 0.0.1 document's Currency allows a
// frequency on every field (value, frequency one-time/monthly/yearly), so the form must not offer
// one for a balance, and a balance stored as "monthly" all the same is shown as stored, never as
// "$1,000 /mo" (a flow) while net worth counts it once.

import { describe, expect, it } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import {
  blur,
  click,
  dialog,
  field,
  household,
  mountWorkspace,
  one,
  openDb,
  openNewItem,
  outbox,
  settle,
  syncedItem,
  typeText,
} from './harness.ts';

unmountAfterEach();

/** The "how often" choice of an amount field in the open dialog, if it offers one. */
const howOften = (name: string) => field(dialog(), name).querySelector('[aria-label$=": how often"]');
const hintOf = (name: string) =>
  field(dialog(), name).querySelector('[data-testid="field-hint"]')?.textContent?.trim() ?? '';

describe('a balance', () => {
  it('of an asset is offered without a frequency', async () => {
    await openNewItem('assets');
    expect(howOften('current_value')).toBeNull();
    expect(howOften('original_value')).toBeNull();
    await click(one('item-cancel'));
  });

  it('of a policy: coverage and cash value without a frequency, the premium with one', async () => {
    await openNewItem('insurance');
    expect(howOften('coverage_value')).toBeNull();
    expect(howOften('cash_value')).toBeNull();
    expect(howOften('premium_value')).not.toBeNull();
  });

  it('stored as monthly is shown as stored, and a new amount is saved without one', async () => {
    const db = openDb();
    const account = await household(db);
    await syncedItem(db, account.id, 'assets', 'a|1', {
      name: 'Boat',
      type: 'vehicle',
      owner: { type: 'joint', id: null },
      current_value: { value: 1000, frequency: 'monthly' },
    });
    await mountWorkspace(db, account.id, { tab: 'financials', section: 'assets' });
    const table = one('section-table');
    expect(table.textContent).toContain('$1,000 (stored as monthly)');
    expect(table.textContent).not.toContain('/mo');

    table.querySelector<HTMLElement>('tbody tr')!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    await settle();
    expect(howOften('current_value')).toBeNull();
    expect(hintOf('current_value')).toBe(
      'Stored as monthly, but a balance is an amount at one point in time: it counts once in net worth, and a new amount is saved without a frequency.',
    );
    const input = field(dialog(), 'current_value').querySelector('input') as HTMLInputElement;
    await typeText(input, '1,200');
    await blur(input);
    await click(one('item-save'));
    const [change] = await outbox(db);
    expect(change?.fields).toEqual({ current_value: { value: 1200, frequency: 'one-time' } });
  });
});
