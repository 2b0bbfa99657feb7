// The spans "Meeting summary…" offers: by default since the household was opened today (the
// workspace records when), or the whole of today when it was not opened today.

import { describe, expect, it } from 'vitest';
import { spansFor } from '../../../renderer/src/meeting-summary/spans.ts';

const NOW = new Date(2026, 10, 26, 15, 30).getTime();
const MIDNIGHT = new Date(2026, 10, 26).getTime();

describe('meeting summary spans', () => {
  it('start when the household was opened today', () => {
    const opened = new Date(2026, 10, 26, 14, 5).getTime();
    const [first, ...rest] = spansFor({ openedAt: opened }, NOW);
    expect(first).toMatchObject({ choice: 'opened', from: opened });
    expect(rest.map((s) => [s.choice, s.from])).toEqual([
      ['today', MIDNIGHT],
      ['week', new Date(2026, 10, 20).getTime()],
      ['kept', 0],
    ]);
  });

  it('start at midnight when it was opened on another day, or never', () => {
    for (const openedAt of [new Date(2026, 10, 25, 16, 0).getTime(), null])
      expect(spansFor({ openedAt }, NOW)[0]).toMatchObject({ choice: 'today', from: MIDNIGHT });
  });
});
