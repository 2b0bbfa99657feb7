// The amount axis of the overview's bar charts (and the amount in a bar's tooltip): it starts at $0 and keeps the $0 tick, whatever
// ticks are thinned out, and says a negative amount with a true minus sign ("−$300K"), as every
// other amount of the app does (`signed` in FinanceSummary, `signedAmount` in the exports).

import { money } from '../household/values.ts';

/** An amount whole, a true minus sign below zero (`−$300,000`): a bar's tooltip, a net. */
export const signedMoney = (value: number, currency: string): string =>
  value < 0 ? `−${money(-value, currency)}` : money(value, currency);

/** An amount as the axis shows it: compact (`$450K`), a true minus sign below zero. */
export function axisMoney(value: number, currency: string): string {
  const compact = new Intl.NumberFormat('en-US', { notation: 'compact', style: 'currency', currency });
  return value < 0 ? `−${compact.format(-value)}` : compact.format(value);
}

/**
 * The scale's options: from zero (a chart of only positive bars starts at $0), ticks at round
 * steps, at most five, so that all fit level and none is skipped. The steps are multiples of
 * one round number, so $0 is among them whenever the axis crosses it.
 */
export function amountScale(currency: string, colors: { text: string; grid: string }) {
  return {
    beginAtZero: true,
    ticks: {
      color: colors.text,
      maxRotation: 0,
      autoSkip: false,
      maxTicksLimit: 5,
      callback: (v: unknown) => axisMoney(Number(v), currency),
    },
    grid: { color: colors.grid },
  };
}
