// The request budget on a fake clock: never more than N requests in any 60 s window, priorities,
// the reserve kept for the user's requests, pauses after Retry-After, aborts that leave nothing
// behind, limits changed at run time.

import { getEventListeners } from 'node:events';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LimiterClosedError, RateLimiter } from '../../../electron/main/transport/rate-limiter.ts';
import { PRIORITIES, type Priority } from '@shared/api/request.ts';
import { FakeClock, settle } from './fake-clock.ts';

const MINUTE = 60_000;

/** The most grants that fall in one closed window [t, t + 60 s], over every window that starts at a grant. */
function busiestMinute(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  let end = 0;
  for (let start = 0; start < sorted.length; start++) {
    while (end < sorted.length && (sorted[end] as number) <= (sorted[start] as number) + MINUTE) end++;
    most = Math.max(most, end - start);
  }
  return most;
}

/** Starts an acquisition and records when it is granted. */
function track(
  limiter: RateLimiter,
  clock: FakeClock,
  priority: Priority,
  log: { label: string; at: number }[],
  label: string,
  signal?: AbortSignal,
) {
  return limiter.acquire(priority, signal).then(() => {
    log.push({ label, at: clock.now() });
  });
}

describe('the rate limiter keeps under N requests in any sliding minute', () => {
  for (const perMinute of [60, 5, 1, 7, 13, 100, 600]) {
    it(`a burst of 500 requests at N = ${perMinute}`, async () => {
      const clock = new FakeClock();
      const start = clock.now();
      const limiter = new RateLimiter({ perMinute, clock });
      const granted: number[] = [];
      // Interactive: a priority that may spend the whole budget (background leaves the reserve, below).
      const all = Array.from({ length: 500 }, () =>
        limiter.acquire('interactive').then(() => granted.push(clock.now())),
      );
      await clock.runAll();
      await Promise.all(all);

      expect(granted).toHaveLength(500);
      expect(busiestMinute(granted)).toBeLessThanOrEqual(perMinute);
      // And it does not waste the budget: nearly all of the first minute is used.
      expect(granted.filter((t) => t <= start + MINUTE).length).toBeGreaterThanOrEqual(
        Math.min(500, perMinute - 1),
      );
      // One timer at a time, and none left behind.
      expect(clock.maxPending).toBe(1);
      expect(clock.pending).toBe(0);
      expect(limiter.waiting).toBe(0);
    });
  }

  it('holds for any limit and any pattern of arrivals, and serves each priority first come first served', async () => {
    const arrival = fc.record({
      gap: fc.integer({ min: 0, max: 30_000 }),
      count: fc.integer({ min: 1, max: 6 }),
      priority: fc.constantFrom<Priority>(...PRIORITIES),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 120 }),
        fc.array(arrival, { maxLength: 40 }),
        async (perMinute, arrivals) => {
          const clock = new FakeClock();
          const limiter = new RateLimiter({ perMinute, clock });
          const log: { label: string; at: number }[] = [];
          const asked: { label: string; priority: Priority }[] = [];
          const all: Promise<void>[] = [];
          for (const [i, a] of arrivals.entries()) {
            await clock.advance(a.gap);
            for (let k = 0; k < a.count; k++) {
              const label = `${i}.${k}`;
              asked.push({ label, priority: a.priority });
              all.push(track(limiter, clock, a.priority, log, label));
            }
          }
          await clock.runAll();
          await Promise.all(all);
          expect(log).toHaveLength(asked.length);
          expect(busiestMinute(log.map((g) => g.at))).toBeLessThanOrEqual(perMinute);
          for (const priority of PRIORITIES) {
            const order = asked.filter((a) => a.priority === priority).map((a) => a.label);
            const served = log.map((g) => g.label).filter((l) => order.includes(l));
            expect(served).toEqual(order);
          }
          expect(clock.pending).toBe(0);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('spends the bucket at once, then one request per interval (N = 60: 10 at once, then every 1.2 s)', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const limiter = new RateLimiter({ perMinute: 60, clock });
    const granted: number[] = [];
    for (let i = 0; i < 13; i++) void limiter.acquire().then(() => granted.push(clock.now() - start));
    await clock.runAll();
    expect(granted).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1200, 2400, 3600]);
  });
});

describe('priorities', () => {
  it('serves immediate before interactive before upload before background, first come first served within each', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ perMinute: 60, clock });
    for (let i = 0; i < 10; i++) await limiter.acquire('immediate');
    const log: { label: string; at: number }[] = [];
    const all = [
      track(limiter, clock, 'background', log, 'b1'),
      track(limiter, clock, 'upload', log, 'u1'),
      track(limiter, clock, 'background', log, 'b2'),
      track(limiter, clock, 'interactive', log, 'i1'),
      track(limiter, clock, 'upload', log, 'u2'),
      track(limiter, clock, 'interactive', log, 'i2'),
      // A delete asked while an opened account's pull waits goes first.
      track(limiter, clock, 'immediate', log, 'now'),
    ];
    await settle();
    expect(log).toEqual([]);
    await clock.runAll();
    await Promise.all(all);
    expect(log.map((g) => g.label)).toEqual(['now', 'i1', 'i2', 'u1', 'u2', 'b1', 'b2']);
  });

  it('a request that arrives later but matters more overtakes those already waiting', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ perMinute: 7, clock }); // capacity 1, one more every 10 s
    const log: { label: string; at: number }[] = [];
    await limiter.acquire();
    const background = track(limiter, clock, 'background', log, 'background');
    await clock.advance(5_000);
    const interactive = track(limiter, clock, 'interactive', log, 'interactive');
    await clock.runAll();
    await Promise.all([background, interactive]);
    expect(log.map((g) => g.label)).toEqual(['interactive', 'background']);
  });

  it('an unknown priority (a bad value over IPC) goes last rather than first', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ perMinute: 7, clock });
    const log: { label: string; at: number }[] = [];
    await limiter.acquire();
    const odd = track(limiter, clock, 'urgent!' as Priority, log, 'odd');
    const upload = track(limiter, clock, 'upload', log, 'upload');
    await clock.runAll();
    await Promise.all([odd, upload]);
    expect(log.map((g) => g.label)).toEqual(['upload', 'odd']);
  });
});

describe("the user's reserve", () => {
  it('background spends the bucket down to a reserve (N = 60: 6 at once, then every 1.2 s); a request the user waits on finds it at once', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const limiter = new RateLimiter({ perMinute: 60, clock });
    const pulled: number[] = [];
    for (let i = 0; i < 200; i++)
      void limiter.acquire('background').then(() => pulled.push(clock.now() - start));
    await settle();
    expect(pulled).toEqual([0, 0, 0, 0, 0, 0]);
    // A minute and a half of a pull running flat out, the last grant at 90 s.
    await clock.advance(90_000);
    expect(pulled).toHaveLength(6 + 75);
    expect(pulled.at(-1)).toBe(90_000);

    // The delete goes at once, and an account opened then gets the rest of the reserve at once.
    const user: { label: string; at: number }[] = [];
    const asked = [
      track(limiter, clock, 'immediate', user, 'delete'),
      ...[1, 2, 3, 4].map((i) => track(limiter, clock, 'interactive', user, `open ${i}`)),
    ];
    await settle();
    expect(user).toEqual(
      ['delete', 'open 1', 'open 2', 'open 3'].map((label) => ({ label, at: start + 90_000 })),
    );
    await clock.advance(1_200);
    await Promise.all(asked);
    expect(user.at(-1)).toEqual({ label: 'open 4', at: start + 91_200 });
    // And the budget holds: never more than 60 in any minute, background and user together.
    await clock.runAll();
    const all = [...pulled.map((t) => start + t), ...user.map((g) => g.at)];
    expect(busiestMinute(all)).toBeLessThanOrEqual(60);
  });

  it("a Retry-After a background request earned holds uploads and background, not the user's requests, which may spend the reserve", async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const limiter = new RateLimiter({ perMinute: 60, clock });
    for (let i = 0; i < 6; i++) await limiter.acquire('background');
    limiter.pauseUntil(start + 30_000, 'background');
    expect(limiter.pausedUntilMs()).toBe(start + 30_000);
    const log: { label: string; at: number }[] = [];
    const all = [
      track(limiter, clock, 'background', log, 'pull'),
      track(limiter, clock, 'upload', log, 'upload'),
      ...[1, 2, 3, 4, 5].map((i) => track(limiter, clock, 'immediate', log, `delete ${i}`)),
    ];
    await settle();
    // The reserve (4) at once, then one per interval: what the bucket allows, no more.
    expect(log.map((g) => g.at - start)).toEqual([0, 0, 0, 0]);
    await clock.advance(29_999);
    expect(log.map((g) => g.label)).toEqual(['delete 1', 'delete 2', 'delete 3', 'delete 4', 'delete 5']);
    expect(log.at(-1)?.at).toBe(start + 1_200);
    await clock.runAll();
    await Promise.all(all);
    // When the pause ends, one slot above the reserve: no burst meets the platform.
    expect(log.slice(5)).toEqual([
      { label: 'upload', at: start + 30_000 },
      { label: 'pull', at: start + 31_200 },
    ]);
  });

  it('a Retry-After an immediate request earned holds every request', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const limiter = new RateLimiter({ perMinute: 60, clock });
    limiter.pauseUntil(start + 30_000, 'background');
    limiter.pauseUntil(start + 10_000, 'immediate');
    const log: { label: string; at: number }[] = [];
    const all = [
      track(limiter, clock, 'background', log, 'pull'),
      track(limiter, clock, 'immediate', log, 'delete'),
    ];
    await clock.runAll();
    await Promise.all(all);
    expect(log).toEqual([
      { label: 'delete', at: start + 10_000 },
      { label: 'pull', at: start + 30_000 },
    ]);
  });
});

describe('pauseUntil (Retry-After)', () => {
  it('holds every waiter until then, even with slots in the bucket, and restarts without a burst', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const limiter = new RateLimiter({ perMinute: 60, clock });
    limiter.pauseUntil(start + 5_000);
    expect(limiter.pausedUntilMs()).toBe(start + 5_000);
    const granted: number[] = [];
    for (let i = 0; i < 3; i++) void limiter.acquire().then(() => granted.push(clock.now() - start));
    await clock.advance(4_999);
    expect(granted).toEqual([]);
    await clock.runAll();
    expect(granted).toEqual([5_000, 6_200, 7_400]);
    expect(limiter.pausedUntilMs()).toBeNull();
  });

  it('only ever lengthens a pause', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const limiter = new RateLimiter({ perMinute: 60, clock });
    limiter.pauseUntil(start + 8_000);
    limiter.pauseUntil(start + 2_000);
    limiter.pauseUntil(Number.NaN);
    let at: number | null = null;
    void limiter.acquire().then(() => (at = clock.now() - start));
    await clock.runAll();
    expect(at).toBe(8_000);
  });

  it('reset() forgets the pause and refills the bucket', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ perMinute: 60, clock });
    limiter.pauseUntil(clock.now() + 60_000);
    let done = false;
    void limiter.acquire().then(() => (done = true));
    await settle();
    expect(done).toBe(false);
    limiter.reset();
    await settle();
    expect(done).toBe(true);
    expect(clock.pending).toBe(0);
  });
});

describe('aborting a waiter', () => {
  it('rejects with the reason, frees its place, detaches its listener and leaves no timer', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const limiter = new RateLimiter({ perMinute: 7, clock }); // capacity 1, then every 10 s
    await limiter.acquire();
    const controller = new AbortController();
    const log: { label: string; at: number }[] = [];
    const aborted = track(limiter, clock, 'interactive', log, 'aborted', controller.signal);
    const next = track(limiter, clock, 'background', log, 'next');
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    expect(limiter.waiting).toBe(2);

    controller.abort(new Error('user left the screen'));
    await expect(aborted).rejects.toThrow('user left the screen');
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(limiter.waiting).toBe(1);

    await clock.runAll();
    await next;
    // The slot the aborted request would have taken goes to the next one.
    expect(log).toEqual([{ label: 'next', at: start + 10_000 }]);
    expect(clock.pending).toBe(0);
  });

  it('the last waiter aborted clears the timer', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ perMinute: 7, clock });
    await limiter.acquire();
    const controller = new AbortController();
    const waiting = limiter.acquire('interactive', controller.signal);
    expect(clock.pending).toBe(1);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    expect(clock.pending).toBe(0);
  });

  it('an already aborted signal rejects at once and takes no slot', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ perMinute: 7, clock });
    await expect(limiter.acquire('interactive', AbortSignal.abort('gone'))).rejects.toMatchObject({
      name: 'AbortError',
      message: 'gone',
    });
    let granted = false;
    void limiter.acquire().then(() => (granted = true));
    await settle();
    expect(granted).toBe(true);
  });

  it('a granted waiter drops its abort listener', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ perMinute: 60, clock });
    const controller = new AbortController();
    await limiter.acquire('interactive', controller.signal);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});

describe('setLimit and dispose', () => {
  it('a lower limit takes effect for the waiters at once', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const limiter = new RateLimiter({ perMinute: 60, clock });
    for (let i = 0; i < 10; i++) await limiter.acquire();
    const granted: number[] = [];
    for (let i = 0; i < 4; i++) void limiter.acquire().then(() => granted.push(clock.now() - start));
    limiter.setLimit(6); // capacity 1, one every 12 s; the bucket was empty and stays so
    expect(limiter.limit).toBe(6);
    await clock.runAll();
    expect(granted).toEqual([12_000, 24_000, 36_000, 48_000]);
  });

  it('a higher limit releases waiters sooner; 0 lifts the limit', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ perMinute: 1, clock });
    await limiter.acquire();
    let granted = 0;
    for (let i = 0; i < 5; i++) void limiter.acquire().then(() => granted++);
    await clock.advance(1_000);
    expect(granted).toBe(0);
    limiter.setLimit(0);
    await settle();
    expect(granted).toBe(5);
    expect(limiter.limit).toBe(0);
    expect(clock.pending).toBe(0);
  });

  it('dispose() lets every waiter go with LimiterClosedError and refuses new ones', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ perMinute: 1, clock });
    await limiter.acquire();
    const controller = new AbortController();
    const waiting = [limiter.acquire('upload', controller.signal), limiter.acquire('background')];
    limiter.dispose();
    for (const w of waiting) await expect(w).rejects.toBeInstanceOf(LimiterClosedError);
    await expect(limiter.acquire()).rejects.toBeInstanceOf(LimiterClosedError);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(clock.pending).toBe(0);
  });
});
