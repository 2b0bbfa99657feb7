// The waits of every vitest file are bounded at 10 s unless a test says otherwise
// (test/support/setup.ts): vitest's own default, 1 s, fails under a second load.
import { describe, expect, it, vi } from 'vitest';

/** A condition that holds once `ms` have passed since it was made. */
function after(ms: number) {
  const start = Date.now();
  return () => {
    if (Date.now() - start < ms) throw new Error('not yet');
    return 'held';
  };
}

describe('the waits of the suite', () => {
  it('vi.waitFor waits past vitest’s 1 s for a condition that takes longer', async () => {
    await expect(vi.waitFor(after(1_500))).resolves.toBe('held');
  });

  it('vi.waitUntil waits past 1 s too', async () => {
    // waitUntil waits for a truthy answer (a throw ends it at once).
    const start = Date.now();
    await expect(vi.waitUntil(() => Date.now() - start >= 1_500)).resolves.toBe(true);
  });

  it('a wait that sets its own bound keeps it', async () => {
    await expect(vi.waitFor(after(5_000), { timeout: 200 })).rejects.toThrow('not yet');
    await expect(vi.waitFor(after(5_000), 200)).rejects.toThrow('not yet');
  });
});
