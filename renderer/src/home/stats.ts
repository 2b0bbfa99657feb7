// The advisor's statistics as Home shows them: the ranges offered (presets, in local days), and
// what the cached `/user/stats` answer says of one range, per measure, with totals. A range the
// cache does not cover is said to be so (null), never shown as zeros.

import type { StatsEntry } from '../data/queries/index.ts';

/** The measures of `/user/stats`, each a count per day. */
export type StatsMeasure = 'prospects' | 'clients' | 'sent_forms' | 'closed_forms';

export const MEASURES: readonly { key: StatsMeasure; label: string }[] = [
  { key: 'prospects', label: 'New prospects' },
  { key: 'clients', label: 'New clients' },
  { key: 'sent_forms', label: 'Forms sent' },
  { key: 'closed_forms', label: 'Forms closed' },
];

export type RangePreset = 'week' | '30days' | 'month' | 'quarter' | 'year';

export const PRESETS: readonly { value: RangePreset; label: string }[] = [
  { value: 'week', label: 'Last 7 days' },
  { value: '30days', label: 'Last 30 days' },
  { value: 'month', label: 'This month' },
  { value: 'quarter', label: 'This quarter' },
  { value: 'year', label: 'This year' },
];

export interface DayRange {
  /** `YYYY-MM-DD`, both ends included. */
  start: string;
  end: string;
}

const DAY = 86_400_000;
const pad = (n: number) => String(n).padStart(2, '0');
/** A local calendar day as the interface writes dates. */
export const dayOf = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
/** Days as UTC midnights, so that day arithmetic ignores daylight saving. */
const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);
const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function presetRange(preset: RangePreset, today: Date): DayRange {
  const end = dayOf(today);
  const y = today.getFullYear();
  const m = today.getMonth();
  const back = (days: number) => dayText(dayMs(end) - days * DAY);
  switch (preset) {
    case 'week':
      return { start: back(6), end };
    case '30days':
      return { start: back(29), end };
    case 'month':
      return { start: dayOf(new Date(y, m, 1)), end };
    case 'quarter':
      return { start: dayOf(new Date(y, m - (m % 3), 1)), end };
    case 'year':
      return { start: dayOf(new Date(y, 0, 1)), end };
  }
}

/** What Home asks the platform for: the last 366 days (its limit), so every preset is in it, offline too. */
export function statsPullRange(today: Date): DayRange {
  const end = dayOf(today);
  return { start: dayText(dayMs(end) - 365 * DAY), end };
}

export interface RangeStats {
  /** The days shown, from the range's start to its end or the last day the cache holds. */
  days: string[];
  counts: Record<StatsMeasure, number[]>;
  totals: Record<StatsMeasure, number>;
  /** When the cached answer was pulled (ms). */
  pulledAt: number;
  /** The cache ends before the range does (pulled on an earlier day). */
  cutShort: boolean;
}

/**
 * The cached statistics over `range`, or null when the cache does not cover its start (never
 * pulled, or pulled for a later or unknown range: the platform's default range is not known here).
 */
export function statsInRange(entry: StatsEntry | undefined, range: DayRange): RangeStats | null {
  if (!entry || entry.start === null || entry.end === null) return null;
  if (entry.start > range.start || entry.end < range.start) return null;
  const last = entry.end < range.end ? entry.end : range.end;
  const from = Math.round((dayMs(range.start) - dayMs(entry.start)) / DAY);
  const length = Math.round((dayMs(last) - dayMs(range.start)) / DAY) + 1;
  const days = Array.from({ length }, (_, i) => dayText(dayMs(range.start) + i * DAY));
  const counts = {} as Record<StatsMeasure, number[]>;
  const totals = {} as Record<StatsMeasure, number>;
  for (const { key } of MEASURES) {
    const held: unknown = entry.data[key];
    // Days the answer lacks (a shorter array than its range) are unknown: not shown as zeros.
    if (!Array.isArray(held) || held.length < from + length) return null;
    counts[key] = (held as number[]).slice(from, from + length);
    totals[key] = counts[key].reduce((a, b) => a + b, 0);
  }
  return { days, counts, totals, pulledAt: entry.pulledAt, cutShort: last < range.end };
}
