// @vitest-environment happy-dom
// Issue 23 point 4: the overview's monthly cash flow says its rule (the expense sections are the
// budget) and sets the payments entered with liabilities, insurance, plans and annuities beside
// their budget line, naming each difference, instead of leaving them out without a word.

import { describe, expect, it } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import { household, mountWorkspace, one, openDb, syncedItem, syncedSingle } from './harness.ts';

unmountAfterEach();

const usd = (value: number, frequency = 'one-time') => ({ value, frequency });
const monthly = (value: number) => usd(value, 'monthly');

describe('the cash flow beside the payments entered elsewhere', () => {
  it('names the rule and each difference between the budget and the items’ payments', async () => {
    const db = openDb();
    const account = await household(db);
    const id = account.id;
    await syncedItem(db, id, 'liabilities', 'l|1', {
      name: 'Home mortgage',
      type: 'fixed',
      current_value: usd(300_000),
      cost_value: monthly(1_650),
    });
    await syncedItem(db, id, 'liabilities', 'l|2', {
      name: 'Car loan',
      type: 'auto',
      current_value: usd(18_000),
      cost_value: monthly(420),
    });
    await syncedItem(db, id, 'insurance', 'i|1', {
      name: 'Term life',
      type: 'term',
      premium_value: monthly(85),
    });
    await syncedItem(db, id, 'plans', 'p|1', {
      name: 'Company 401(k)',
      type: '401k',
      contribution_value: monthly(2_500),
      current_value: usd(150_000),
    });
    await syncedItem(db, id, 'annuities', 'n|1', {
      name: 'Retirement annuity',
      type: 'fixed',
      contribution_value: monthly(560),
      current_value: usd(40_000),
    });
    await syncedSingle(db, id, 'income:client', { employment: usd(144_000, 'yearly') });
    await syncedSingle(db, id, 'expenses-fixed', { mortgage: monthly(3_200) });
    await mountWorkspace(db, id);

    // The budget alone: income 12,000 less the mortgage line 3,200.
    expect(one('cash-flow-net').textContent).toBe('$8,800');
    expect(one('budget-rule').textContent).toContain('The expense sections are the budget');
    const rows = [...one('budget-payments').querySelectorAll('tbody tr')].map((tr) =>
      [...tr.children].map((c) => c.textContent?.replace(/\s+/g, ' ').trim()),
    );
    // In the order of the fixed expenses in the document.
    expect(rows).toEqual([
      ['Life insurance Term life (policy)', 'none', '$85', 'Not in the budget: $85'],
      ['Annuity Retirement annuity (annuity)', 'none', '$560', 'Not in the budget: $560'],
      ['Retirement plan Company 401(k) (plan)', 'none', '$2,500', 'Not in the budget: $2,500'],
      ['Mortgage Home mortgage (liability)', '$3,200', '$1,650', 'Budget $1,550 higher'],
      ['Loan Car loan (liability)', 'none', '$420', 'Not in the budget: $420'],
    ]);
    // 85 + 560 + 2,500 + 420 = 3,565 a month not in the budget; 8,800 − 3,565 = 5,235.
    expect(one('not-in-budget').textContent?.replace(/\s+/g, ' ').trim()).toBe(
      '$3,565 a month of these payments is not in the budget: paid on top of it, the net would be $5,235.',
    );
  });

  it('names a payments section not on this computer instead of comparing nothing', async () => {
    const db = openDb();
    const account = await household(db);
    await syncedSingle(db, account.id, 'income:client', { employment: monthly(5_000) });
    await db.accounts.update(account.id, {
      parts: Object.fromEntries(
        Object.entries((await db.accounts.get(account.id))!.parts ?? {}).filter(([k]) => k !== 'insurance'),
      ),
    });
    await mountWorkspace(db, account.id);
    expect(one('payments-missing').textContent?.trim()).toBe(
      'Payments of Insurance: not downloaded yet, so not compared.',
    );
  });
});
