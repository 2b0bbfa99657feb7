// @vitest-environment happy-dom
// Fields as an advisor means them, in the workspace: income's interest is an amount, income
// typed into an unset field counts by the month (the platform answers an unset amount as 0,
// one-time), a one-time amount says where it is typed that the monthly cash flow leaves it out,
// and a liability's monthly payment is labelled so and has its column. Expected figures are
// worked out by hand from the documents' meaning.

import { describe, expect, it, vi } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import { outbox } from '../../support/store.ts';
import {
  choose,
  field,
  household,
  mountWorkspace,
  one,
  openDb,
  press,
  syncedItem,
  syncedSingle,
  typeNumber,
} from './harness.ts';

unmountAfterEach();

const usd = (value: number, frequency = 'one-time') => ({ value, frequency });
/** An income record as the platform answers one nobody filled in: every amount 0, one-time. */
const unsetIncome = {
  employment: usd(0),
  self_employment: usd(0),
  annuities: usd(0),
  social_security: usd(0),
  dividends: usd(0),
  interest: usd(0),
  other: usd(0),
  comments: null,
};
const hintOf = (root: ParentNode, name: string) =>
  field(root, name).querySelector('[data-testid="field-hint"]')?.textContent?.trim() ?? '';
const frequencyShown = (root: ParentNode, name: string) =>
  field(root, name).querySelector('[role="combobox"]')?.textContent?.trim();
const flow = (name: string) => one('cash-flow').querySelector(`[data-flow="${name}"] .amount`)?.textContent;

describe('income as an advisor means it', () => {
  it('takes Social Security and interest as monthly amounts and counts them in the monthly cash flow', async () => {
    const db = openDb();
    const account = await household(db);
    await syncedSingle(db, account.id, 'income:client', unsetIncome);
    const first = await mountWorkspace(db, account.id, { tab: 'financials', section: 'income:client' });
    const editor = one('single-income:client');

    // Interest is an amount of money with how often it comes, not a rate.
    const interest = field(editor, 'interest');
    expect(interest.querySelector('label')?.textContent).toBe('Interest');
    expect(interest.textContent).toContain('The amount received, not a rate.');
    expect(interest.querySelector('[role="combobox"]')).not.toBeNull();
    expect(frequencyShown(editor, 'interest')).toBe('Monthly');
    expect(frequencyShown(editor, 'social_security')).toBe('Monthly');
    expect(hintOf(editor, 'social_security')).toBe('');

    await typeNumber(editor, 'social_security', 2_400);
    await typeNumber(editor, 'interest', 30);
    await press('s', { ctrlKey: true });
    await vi.waitFor(async () => expect(await outbox(db)).toHaveLength(1));
    const [op] = await outbox(db);
    expect(op?.fields).toEqual({
      social_security: { value: 2_400, frequency: 'monthly' },
      interest: { value: 30, frequency: 'monthly' },
    });

    // The overview: 2,400 + 30 a month of income, nothing spent, nothing left out.
    first.wrapper.unmount();
    await mountWorkspace(db, account.id);
    await vi.waitFor(() => expect(flow('income')).toBe('$2,430'));
    expect(one('cash-flow-net').textContent).toBe('$2,430');
    expect(document.querySelector('[data-testid="one-time"]')).toBeNull();
  });

  it('says beside a one-time amount that the monthly cash flow leaves it out, and lists it apart', async () => {
    const db = openDb();
    const account = await household(db);
    await syncedSingle(db, account.id, 'income:client', {
      ...unsetIncome,
      employment: usd(5_000, 'monthly'),
      // Stored under its old meaning: a rate typed where an amount belonged (reported, not rewritten).
      interest: usd(4.5, 'one-time'),
    });
    const first = await mountWorkspace(db, account.id, { tab: 'financials', section: 'income:client' });
    const editor = one('single-income:client');
    expect(hintOf(editor, 'interest')).toContain('One-time: not counted in the monthly cash flow.');
    expect(hintOf(editor, 'employment')).toBe('');

    await typeNumber(editor, 'other', 12_000);
    await choose(editor, 'other', 'One time');
    expect(hintOf(editor, 'other')).toBe('One-time: not counted in the monthly cash flow.');
    // The hint is read with the amount and its frequency (their group).
    const group = field(editor, 'other').querySelector('[role="group"]') as HTMLElement;
    const hintId = field(editor, 'other').querySelector('[data-testid="field-hint"]')?.id as string;
    expect(group.getAttribute('aria-describedby')?.split(' ')).toContain(hintId);
    await choose(editor, 'other', 'Yearly');
    expect(hintOf(editor, 'other')).toBe('');
    await choose(editor, 'other', 'One time');
    await press('s', { ctrlKey: true });
    await vi.waitFor(async () => expect(await outbox(db)).toHaveLength(1));

    // Income 5,000 a month; the 12,000 and the 4.50 are one-time: listed apart, not counted.
    first.wrapper.unmount();
    await mountWorkspace(db, account.id);
    await vi.waitFor(() => expect(flow('income')).toBe('$5,000'));
    const left = one('one-time').textContent ?? '';
    expect(left).toContain('Other (income of Ann');
    expect(left).toContain('$12,000');
    expect(left).toContain('Interest (income of Ann');
    expect(left).not.toContain('rate');
  });
});

describe('a liability’s payment', () => {
  it('is labelled Payment, starts monthly, and the table shows it with its frequency', async () => {
    const db = openDb();
    const account = await household(db);
    await syncedItem(db, account.id, 'liabilities', 'l|1', {
      name: 'Mortgage',
      type: 'fixed',
      owner: { type: 'joint', id: null },
      interest: 6.25,
      current_value: usd(300_000),
      cost_value: usd(1_450, 'monthly'),
    });
    await mountWorkspace(db, account.id, { tab: 'financials', section: 'liabilities' });
    const table = one('section-table');
    const headers = [...table.querySelectorAll('th')].map((th) => th.textContent?.trim());
    expect(headers).toContain('Payment');
    expect(headers).not.toContain('Cost basis');
    expect(table.querySelector('tbody')?.textContent).toContain('$1,450 /mo');

    await press('n', { altKey: true });
    const form = one('item-dialog');
    expect(field(form, 'cost_value').querySelector('label')?.textContent).toBe('Payment');
    expect(frequencyShown(form, 'cost_value')).toBe('Monthly');
    expect(field(form, 'interest').querySelector('label')?.textContent).toBe('Interest rate (%)');
    // A liability is no part of the monthly cash flow (its payment is a fixed expense there).
    expect(hintOf(form, 'current_value')).toBe('');
  });
});

describe('variable expenses', () => {
  it('start monthly, and the table says which amounts are one-time', async () => {
    const db = openDb();
    const account = await household(db);
    await syncedItem(db, account.id, 'expenses-variable', 'v|1', {
      type: 'groceries',
      value: usd(800, 'monthly'),
    });
    await syncedItem(db, account.id, 'expenses-variable', 'v|2', { type: 'gifts', value: usd(300) });
    await mountWorkspace(db, account.id, { tab: 'financials', section: 'expenses-variable' });
    const body = one('section-table').querySelector('tbody')?.textContent ?? '';
    expect(body).toContain('$800 /mo');
    expect(body).toContain('$300 one-time');
    // 800 a month; the 300 is apart.
    expect(one('section-total').textContent).toBe('$800');

    await press('n', { altKey: true });
    expect(frequencyShown(one('item-dialog'), 'value')).toBe('Monthly');
  });
});
