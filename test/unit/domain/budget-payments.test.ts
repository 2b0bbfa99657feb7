// Issue 23 point 4: the payments a household entered with its items (a liability's monthly
// payment, an insurance premium, contributions to a plan or an annuity) set beside the budget (the
// fixed expenses), line by line, with the difference an advisor would work out by hand.

import { describe, expect, it } from 'vitest';
import {
  budgetLineOf,
  differenceWords,
  paymentsBesideBudget,
  type BudgetCheck,
} from '@shared/budget-payments.ts';
import type { ItemLike } from '@shared/finance.ts';

const item = (section: string, fields: Record<string, unknown>): ItemLike => ({ section, fields });
const monthly = (value: number) => ({ value, frequency: 'monthly' });
const yearly = (value: number) => ({ value, frequency: 'yearly' });
const usd = (cents: number) => `$${(cents / 100).toLocaleString('en-US')}`;

/** The walk's household: the mortgage is $1,650 a month as a liability, $3,200 in the budget. */
const ITEMS: ItemLike[] = [
  item('liabilities', { name: 'Home mortgage', type: 'fixed', cost_value: monthly(1_650) }),
  item('liabilities', { name: 'Car loan', type: 'auto', cost_value: monthly(420) }),
  item('insurance', { name: 'Term life 20y', type: 'term', premium_value: monthly(85) }),
  item('insurance', { name: 'Auto policy', type: 'auto', premium_value: yearly(1_200) }),
  item('plans', {
    name: 'Company 401(k)',
    type: '401k',
    contribution_value: monthly(2_500),
    employer_contribution_value: monthly(600),
  }),
  item('annuities', { name: 'Retirement annuity', type: 'fixed', contribution_value: monthly(560) }),
  // Worth, no payment: not part of the comparison.
  item('assets', { name: 'Family home', type: 'primary-residence', current_value: 450_000 }),
];
const FIXED = { mortgage: monthly(3_200), auto_insurance: monthly(100), rent: monthly(0) };

describe('payments beside the budget', () => {
  it('sets each payment beside its budget line and names the difference', () => {
    const beside = paymentsBesideBudget(FIXED, ITEMS);
    const byLine = Object.fromEntries(beside.checks.map((c) => [c.line, c]));
    // In the fixed expenses' order; rent has no payment entered with an item and is not listed.
    expect(beside.checks.map((c) => c.line)).toEqual([
      'life_insurance',
      'auto_insurance',
      'annuity',
      'retirement_plan',
      'mortgage',
      'loan',
    ]);
    // The mortgage: $3,200 budgeted, $1,650 entered as the liability's payment: $1,550 more in the budget.
    expect(byLine.mortgage).toMatchObject({ budget: 320_000, paid: 165_000, difference: 155_000 });
    // The car loan is in no budget line: $420 a month the net does not count.
    expect(byLine.loan).toMatchObject({ budget: 0, paid: 42_000, difference: -42_000 });
    // The auto policy's $1,200 a year is $100 a month, as budgeted.
    expect(byLine.auto_insurance).toMatchObject({ budget: 10_000, paid: 10_000, difference: 0 });
    expect(byLine.life_insurance).toMatchObject({ budget: 0, paid: 8_500 });
    // The household's own contribution only: the employer's $600 is not the household's payment.
    expect(byLine.retirement_plan).toMatchObject({ budget: 0, paid: 250_000 });
    expect(byLine.annuity).toMatchObject({ budget: 0, paid: 56_000 });
    // Not in the budget: 420 + 85 + 2,500 + 560 = $3,565 a month.
    expect(beside.notInBudget).toBe(356_500);
    expect(beside.notMonthly).toEqual([]);
  });

  it('says the difference in words', () => {
    const { checks } = paymentsBesideBudget(FIXED, ITEMS);
    const words = (line: string) =>
      differenceWords(
        checks.find((c) => c.line === line)!,
        usd,
      );
    expect(words('mortgage')).toBe('Budget $1,550 higher');
    expect(words('loan')).toBe('Not in the budget: $420');
    expect(words('auto_insurance')).toBe('Same as the budget');
    const lower: BudgetCheck = {
      line: 'loan',
      budget: 30_000,
      payments: [],
      paid: 42_000,
      difference: -12_000,
    };
    expect(differenceWords(lower, usd)).toBe('Budget $120 lower');
  });

  it('lists a payment that is no monthly amount apart, and compares nothing with a line it cannot convert', () => {
    const beside = paymentsBesideBudget({ mortgage: { value: 9_600, frequency: 'quarterly' } }, [
      item('insurance', { name: 'Single premium', type: 'whole', premium_value: 20_000 }),
      item('liabilities', { name: 'Home mortgage', type: 'arm', cost_value: monthly(1_650) }),
    ]);
    // A premium without a frequency is one-time (the document's default for Currency).
    expect(beside.notMonthly).toEqual([
      {
        section: 'insurance',
        name: 'Single premium',
        line: 'life_insurance',
        money: { value: 20_000, frequency: 'one-time' },
      },
    ]);
    expect(beside.checks).toEqual([
      expect.objectContaining({ line: 'mortgage', budget: null, paid: 165_000, difference: null }),
    ]);
    expect(beside.notInBudget).toBe(0);
  });

  it('puts each kind of debt, policy and plan on the line a planner would', () => {
    expect(['arm', 'fixed', 'int-only'].map((t) => budgetLineOf('liabilities', t))).toEqual([
      'mortgage',
      'mortgage',
      'mortgage',
    ]);
    expect(budgetLineOf('liabilities', 'credit-card')).toBe('credit_card');
    expect(budgetLineOf('liabilities', 'school')).toBe('loan');
    expect(budgetLineOf('insurance', 'employer-disability')).toBe('disability_insurance');
    expect(budgetLineOf('insurance', 'long-term-care')).toBe('long_term_care_insurance');
    expect(budgetLineOf('insurance', 'other')).toBe('other_insurance');
    expect(budgetLineOf('plans', 'college')).toBe('college_plan');
    expect(budgetLineOf('plans', 'roth-ira')).toBe('retirement_plan');
    expect(budgetLineOf('assets', 'vehicle')).toBeNull();
  });
});
