// "Last synced …" reads the same in the sync panel and in an account's header: one ago(), in the
// words an advisor reads.

import { describe, expect, it } from 'vitest';
import { ago } from '../../../renderer/src/common/ago.ts';

const now = Date.UTC(2026, 4, 14, 15, 0, 0);
const before = (ms: number) => ago(now - ms, now);
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('ago', () => {
  it('says "just now" for the last 45 seconds, and for a time a little ahead (another clock)', () => {
    expect(before(0)).toBe('just now');
    expect(before(44 * SECOND)).toBe('just now');
    expect(before(-20 * SECOND)).toBe('just now');
  });

  it('counts minutes, then hours, then days', () => {
    expect(before(45 * SECOND)).toBe('1 minute ago');
    expect(before(5 * MINUTE)).toBe('5 minutes ago');
    expect(before(59 * MINUTE)).toBe('59 minutes ago');
    expect(before(60 * MINUTE)).toBe('1 hour ago');
    expect(before(3 * HOUR)).toBe('3 hours ago');
    expect(before(23 * HOUR)).toBe('23 hours ago');
  });

  it('says "yesterday" for a day, then counts days', () => {
    expect(before(DAY)).toBe('yesterday');
    expect(before(3 * DAY)).toBe('3 days ago');
  });
});
