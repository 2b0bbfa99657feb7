// The spans "Meeting summary…" offers: by default the meeting, since the first change made to the
// household today (however often its workspace was opened since), or the whole of today when no
// change was made today.

import { describe, expect, it } from 'vitest';
import { spansFor } from '../../../renderer/src/meeting-summary/spans.ts';

const NOW = new Date(2026, 10, 26, 15, 30).getTime();
const MIDNIGHT = new Date(2026, 10, 26).getTime();

describe('meeting summary spans', () => {
  it('start at the first change made today', () => {
    const first = new Date(2026, 10, 26, 14, 5).getTime();
    const [meeting, ...rest] = spansFor(first, NOW);
    expect(meeting).toMatchObject({ choice: 'meeting', from: first });
    expect(meeting?.label).toMatch(/^This meeting \(since \d/);
    expect(rest.map((s) => [s.choice, s.from])).toEqual([
      ['today', MIDNIGHT],
      ['week', new Date(2026, 10, 20).getTime()],
      ['kept', 0],
    ]);
  });

  it('start at midnight when no change was made today', () => {
    for (const first of [new Date(2026, 10, 25, 16, 0).getTime(), null])
      expect(spansFor(first, NOW)[0]).toMatchObject({ choice: 'today', from: MIDNIGHT });
  });
});
