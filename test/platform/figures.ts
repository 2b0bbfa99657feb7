// A household's net worth worked out from the sandbox's own data as the 0.0.1 document means it
// (what is owned less what is owed): the oracle the tests hold the app's figures against.

import type { SectionItem } from './model.ts';

/** The amount of an item's value: Currency (`{ value, frequency }`), or a bare number. */
export function amountOf(value: unknown): number {
  if (typeof value === 'number') return value;
  const money = value as { value?: unknown } | null;
  return typeof money?.value === 'number' ? money.value : 0;
}

/** The sum of one field over a section's items (`current_value` by default). */
export const sectionSum = (
  sections: Record<string, SectionItem[]>,
  path: string,
  field = 'current_value',
): number => (sections[path] ?? []).reduce((n, item) => n + amountOf(item.fields[field]), 0);

/** Assets, cash, taxable accounts, plans, annuities and insurance cash value, less liabilities. */
export function netWorthOf(sections: Record<string, SectionItem[]>): number {
  const owned = ['assets', 'cash', 'taxable', 'plans', 'annuities'].map((path) => sectionSum(sections, path));
  return (
    owned.reduce((a, b) => a + b, 0) +
    sectionSum(sections, 'insurance', 'cash_value') -
    sectionSum(sections, 'liabilities')
  );
}

/** Whole dollars as the overview writes them: `$1,234`, `−$56`. */
export const WHOLE_DOLLARS = /^−?\$[\d,]+$/;

/** An amount in whole dollars as the overview writes it. */
export function wholeDollars(value: number): string {
  const text = new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    maximumFractionDigits: 0,
  }).format(Math.abs(value));
  return value < 0 ? `−${text}` : text;
}
