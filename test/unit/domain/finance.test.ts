// Net worth and monthly cash flow: which sections count, how frequencies are normalized, and that
// sums in cents do not drift however many items there are.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cashFlow, monthlyCents, netWorth, readMoney, type ItemLike } from '@shared/finance.ts';

const item = (section: string, fields: Record<string, unknown>): ItemLike => ({ section, fields });
const usd = (value: number, frequency = 'one-time') => ({ value, frequency });

describe('readMoney', () => {
  it('reads the Currency object and the plain number the examples show, at the field default', () => {
    expect(readMoney(usd(10, 'yearly'), 'one-time')).toEqual({ value: 10, frequency: 'yearly' });
    expect(readMoney(250, 'monthly')).toEqual({ value: 250, frequency: 'monthly' });
    expect(readMoney(null, 'monthly')).toBeNull();
    expect(readMoney({ value: '12' }, 'monthly')).toBeNull();
    expect(readMoney(Number.NaN, 'monthly')).toBeNull();
  });

  // Issue 16 point 5: the forms keep and show a frequency the platform allows that the app does not
  // know; replacing it with the field's default here counted $5 weekly as $5 a month.
  it('keeps a frequency the app does not know as stored, and takes the default only when none is given', () => {
    expect(readMoney({ value: 5, frequency: 'weekly' }, 'monthly')).toEqual({
      value: 5,
      frequency: 'weekly',
    });
    expect(readMoney({ value: 3_000, frequency: 'quarterly' }, 'one-time')).toEqual({
      value: 3_000,
      frequency: 'quarterly',
    });
    // The document makes the frequency optional: absent (or empty) is the field's default.
    expect(readMoney({ value: 7 }, 'yearly')).toEqual({ value: 7, frequency: 'yearly' });
    expect(readMoney({ value: 7, frequency: '' }, 'yearly')).toEqual({ value: 7, frequency: 'yearly' });
  });
});

describe('netWorth', () => {
  it('adds assets, cash, taxable, plans, annuities and insurance cash value, and subtracts liabilities', () => {
    const worth = netWorth([
      item('assets', { current_value: usd(450_000) }),
      item('cash', { current_value: usd(12_500.5) }),
      item('taxable', { current_value: 80_000 }),
      item('plans', { current_value: usd(210_000) }),
      item('annuities', { current_value: usd(50_000) }),
      item('insurance', { cash_value: usd(9_999.99), coverage_value: usd(1_000_000) }),
      item('liabilities', { current_value: usd(300_000) }),
      // Not part of net worth: a goal's target, a contact, an asset's original value.
      item('goals', { target: { value: 100_000, date: '2030-01-01' } }),
      item('contacts', { first_name: 'Ann' }),
      item('assets', { original_value: usd(300_000) }),
    ]);
    expect(worth.total).toBe(51_250_049);
    expect(worth.parts.find((p) => p.section === 'insurance')?.cents).toBe(999_999);
    expect(worth.parts.find((p) => p.section === 'liabilities')).toMatchObject({
      cents: 30_000_000,
      sign: -1,
    });
    expect(worth.parts.find((p) => p.section === 'assets')?.items).toBe(2);
  });

  it('counts an item’s current value whatever frequency it is stored with', () => {
    // A balance is worth what it is worth today: a frequency the app does not know changes nothing.
    const worth = netWorth([
      item('assets', { current_value: usd(100_000, 'quarterly') }),
      item('liabilities', { current_value: usd(40_000, 'biweekly') }),
    ]);
    expect(worth.total).toBe(60_000_00);
  });

  it('is the sum of its parts, to the cent, for any items', () => {
    const sections = ['assets', 'cash', 'taxable', 'plans', 'annuities', 'liabilities'];
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ section: fc.constantFrom(...sections), cents: fc.integer({ min: 0, max: 10 ** 11 }) }),
        ),
        (rows) => {
          const worth = netWorth(rows.map((r) => item(r.section, { current_value: usd(r.cents / 100) })));
          const expected = rows.reduce((s, r) => s + (r.section === 'liabilities' ? -r.cents : r.cents), 0);
          expect(worth.total).toBe(expected);
        },
      ),
    );
  });
});

describe('cashFlow', () => {
  it('normalizes every amount to a month and keeps one-time amounts apart', () => {
    const flow = cashFlow(
      {
        'income:client': {
          employment: usd(6_000, 'monthly'),
          dividends: usd(1_200, 'yearly'),
          other: usd(5_000),
        },
        'income:coclient': { employment: usd(48_000, 'yearly'), comments: 'part time' },
        'expenses-fixed': { mortgage: usd(2_100, 'monthly'), auto_insurance: 120 },
        'expenses-tax': { federal_income: usd(24_000, 'yearly'), fica: usd(0, 'yearly') },
        assets: { current_value: usd(1) },
      },
      [
        item('expenses-variable', { type: 'groceries', value: usd(800, 'monthly') }),
        item('expenses-variable', { type: 'vacations', value: usd(6_000, 'yearly') }),
        item('expenses-variable', { type: 'gifts', value: usd(300) }),
        item('assets', { current_value: usd(999) }),
      ],
    );
    expect(flow.income).toBe(6_000_00 + 100_00 + 4_000_00);
    // A plain number in fixed expenses is monthly: the field's default frequency.
    expect(flow.fixed).toBe(2_220_00);
    expect(flow.tax).toBe(2_000_00);
    expect(flow.variable).toBe(1_300_00);
    expect(flow.net).toBe(10_100_00 - 2_220_00 - 2_000_00 - 1_300_00);
    expect(flow.oneTime.map((l) => `${l.source}:${l.name}`).sort()).toEqual([
      'expenses-variable:gifts',
      'income:client:other',
    ]);
  });

  // What an advisor means: $1,000 a month of salary is $1,000 a month; $3,000 of dividends each
  // quarter is money the app cannot turn into a month without guessing how the platform means it,
  // so it is not in the monthly income and is named apart, never counted as $3,000 a month.
  it('counts no amount at a frequency it cannot convert, and lists it apart from the one-time ones', () => {
    const flow = cashFlow(
      {
        'income:client': {
          employment: usd(1_000, 'monthly'),
          dividends: usd(3_000, 'quarterly'),
          other: usd(2_000),
        },
      },
      [],
    );
    expect(flow.income).toBe(1_000_00);
    expect(flow.net).toBe(1_000_00);
    expect(flow.uncounted).toEqual([
      {
        group: 'income',
        source: 'income:client',
        name: 'dividends',
        money: { value: 3_000, frequency: 'quarterly' },
      },
    ]);
    expect(flow.oneTime.map((l) => l.name)).toEqual(['other']);
  });

  it('leaves out every frequency other than the document’s, in expenses as in income', () => {
    const flow = cashFlow(
      {
        'expenses-fixed': { mortgage: usd(2_000, 'monthly'), auto_insurance: usd(600, 'semi-annually') },
        'expenses-tax': { federal_income: usd(12_000, 'yearly'), real_estate: usd(1_500, 'half-yearly') },
      },
      [
        item('expenses-variable', { type: 'groceries', value: usd(150, 'weekly') }),
        // Twice a week or every two weeks: no figure would be right for both.
        item('expenses-variable', { type: 'dining', value: usd(80, 'biweekly') }),
        item('expenses-variable', { type: 'gifts', value: usd(400, 'yearly') }),
      ],
    );
    expect(flow.fixed).toBe(2_000_00);
    expect(flow.tax).toBe(1_000_00);
    // Only the yearly gifts: 400 / 12 = 33.33.
    expect(flow.variable).toBe(33_33);
    expect(flow.net).toBe(-(2_000_00 + 1_000_00 + 33_33));
    expect(flow.uncounted.map((l) => `${l.name} ${l.money.value} ${l.money.frequency}`).sort()).toEqual([
      'auto_insurance 600 semi-annually',
      'dining 80 biweekly',
      'groceries 150 weekly',
      'real_estate 1500 half-yearly',
    ]);
    expect(flow.oneTime).toEqual([]);
  });

  it('a yearly amount is twelve months of its monthly share, within a cent', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 10 }), (c) => {
        const monthly = monthlyCents({ value: c / 100, frequency: 'yearly' }) as number;
        expect(Math.abs(monthly * 12 - c)).toBeLessThanOrEqual(6);
      }),
    );
  });
});
