// Home's statistics from the cached `/user/stats` answer: the ranges offered, each measure's days
// and total over a range, and a range the cache does not cover said to be so (null), never zeros.

import { describe, expect, it } from 'vitest';
import { presetRange, statsInRange, statsPullRange } from '../../../renderer/src/home/stats.ts';
import type { StatsEntry } from '../../../renderer/src/data/queries/index.ts';

/** An answer for 2026-11-20 … 2026-11-26 (7 days). */
const entry: StatsEntry = {
  pulledAt: Date.UTC(2026, 10, 26, 9, 0),
  start: '2026-11-20',
  end: '2026-11-26',
  data: {
    prospects: [1, 0, 0, 2, 0, 0, 1],
    clients: [0, 0, 1, 0, 0, 0, 0],
    sent_forms: [3, 0, 0, 0, 1, 0, 0],
    closed_forms: [0, 1, 0, 0, 0, 0, 2],
  },
};

describe('statistics over a range', () => {
  it('gives each measure’s days and total within the range', () => {
    const stats = statsInRange(entry, { start: '2026-11-23', end: '2026-11-26' })!;
    expect(stats.days).toEqual(['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26']);
    expect(stats.counts.prospects).toEqual([2, 0, 0, 1]);
    expect(stats.totals).toEqual({ prospects: 3, clients: 0, sent_forms: 1, closed_forms: 2 });
    expect(stats.pulledAt).toBe(entry.pulledAt);
    expect(stats.cutShort).toBe(false);
  });

  it('never downloaded, or downloaded for a later start: nothing to show, not zeros', () => {
    expect(statsInRange(undefined, { start: '2026-11-20', end: '2026-11-26' })).toBeNull();
    expect(statsInRange(entry, { start: '2026-11-01', end: '2026-11-26' })).toBeNull();
    // The platform's default range (no dates asked) is not known here.
    expect(
      statsInRange({ ...entry, start: null, end: null }, { start: '2026-11-20', end: '2026-11-26' }),
    ).toBeNull();
    // An answer shorter than its range lacks days: unknown, not zero.
    const short = { ...entry, data: { ...entry.data, clients: [0, 1] } };
    expect(statsInRange(short, { start: '2026-11-20', end: '2026-11-26' })).toBeNull();
  });

  it('pulled on an earlier day: the days it holds, and says the range is cut short', () => {
    const stats = statsInRange(entry, { start: '2026-11-24', end: '2026-11-28' })!;
    expect(stats.days).toEqual(['2026-11-24', '2026-11-25', '2026-11-26']);
    expect(stats.cutShort).toBe(true);
  });
});

describe('ranges', () => {
  const today = new Date(2026, 10, 26, 15, 0); // 26 November 2026, local time

  it('offers the last 7 and 30 days, this month, quarter and year, ending today', () => {
    expect(presetRange('week', today)).toEqual({ start: '2026-11-20', end: '2026-11-26' });
    expect(presetRange('30days', today)).toEqual({ start: '2026-10-28', end: '2026-11-26' });
    expect(presetRange('month', today)).toEqual({ start: '2026-11-01', end: '2026-11-26' });
    expect(presetRange('quarter', today)).toEqual({ start: '2026-10-01', end: '2026-11-26' });
    expect(presetRange('year', today)).toEqual({ start: '2026-01-01', end: '2026-11-26' });
  });

  it('asks the platform once for the last 366 days (its limit), which holds every range', () => {
    const pulled = statsPullRange(today);
    expect(pulled).toEqual({ start: '2025-11-26', end: '2026-11-26' });
    for (const preset of ['week', '30days', 'month', 'quarter', 'year'] as const)
      expect(presetRange(preset, today).start >= pulled.start).toBe(true);
  });
});
