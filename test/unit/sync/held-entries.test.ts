// Where "load older" starts in a newest-first list (the feed, an account's activity): after as
// many entries as this computer holds, below the oldest of them; with none held, from the top.

import { describe, expect, it } from 'vitest';
import { heldEntries } from '../../../renderer/src/sync/pull/paging.ts';

/** Stored entries, newest first, read a window at a time as the local queries read them. */
const stored = (createdAt: string[]) => (window: { offset?: number; limit: number }) =>
  Promise.resolve({
    total: createdAt.length,
    items: createdAt
      .slice(window.offset ?? 0, (window.offset ?? 0) + window.limit)
      .map((at) => ({ createdAt: at })),
  });

describe('the entries held here', () => {
  it('counts them and finds the oldest', async () => {
    const read = stored(['2026-11-03 10:00:00', '2026-11-02 09:00:00', '2026-10-30 08:00:00']);
    expect(await heldEntries(read)).toEqual({ count: 3, oldest: '2026-10-30 08:00:00' });
  });

  it('has no oldest when none are held', async () => {
    expect(await heldEntries(stored([]))).toEqual({ count: 0, oldest: null });
  });
});
