// The chaos property (DESIGN.md §6): whatever the advisor changes offline, whatever the assistant
// changes meanwhile, whatever faults and restarts happen, nothing is lost, nothing is duplicated,
// and the local store ends equal to the server. A few seeded runs of the scenario (scenario.ts)
// in the suite; `npm run chaos -- --ops 2000 …` runs long ones.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { failed, runChaos, summary } from './scenario.ts';

describe('chaos', () => {
  it('loses nothing, duplicates nothing, and ends with the local store equal to the server', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.integer({ min: 1, max: 4 }),
        async (seed, restarts) => {
          const report = await runChaos({ seed, ops: 250, faults: 0.25, restarts });
          const replay = `npm run chaos -- --seed ${seed} --ops 250 --faults 0.25 --restarts ${restarts}`;
          expect(failed(report), `${replay}\n${summary(report)}\n${report.problems.join('\n')}`).toBe(false);
        },
      ),
      // A seed is a whole scenario: shrinking it would only run other scenarios.
      { numRuns: 3, endOnFailure: true },
    );
  }, 90_000);
});
