// A clock for the limiter's tests: time moves only when the test says, timers fire in order of
// their due time, and what their callbacks set off (promise continuations) runs before the next.

import type { Clock } from '../../../electron/main/transport/rate-limiter.ts';

interface Timer {
  id: number;
  at: number;
  callback: () => void;
}

/** Lets every pending promise continuation run (setImmediate comes after the microtask queue). */
export const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

export class FakeClock implements Clock {
  private time: number;
  private timers: Timer[] = [];
  private nextId = 1;
  /** The most timers that were ever pending at once. */
  maxPending = 0;

  constructor(start = 1_700_000_000_000) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const timer = { id: this.nextId++, at: this.time + Math.max(0, ms), callback };
    this.timers.push(timer);
    this.maxPending = Math.max(this.maxPending, this.timers.length);
    return timer.id;
  }

  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((t) => t.id !== handle);
  }

  get pending(): number {
    return this.timers.length;
  }

  /** Moves time forward by `ms`, firing every timer due on the way, in order. */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    await settle();
    for (;;) {
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.time = Math.max(this.time, due.at);
      due.callback();
      await settle();
    }
    this.time = end;
    await settle();
  }

  /** Fires timers until none is left (or `limitMs` has passed). */
  async runAll(limitMs = 24 * 3600_000): Promise<void> {
    const end = this.time + limitMs;
    while (this.timers.length > 0 && this.time < end) {
      const next = Math.min(...this.timers.map((t) => t.at));
      await this.advance(Math.max(0, next - this.time));
    }
  }
}
