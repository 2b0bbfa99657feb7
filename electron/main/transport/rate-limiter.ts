// The request budget of one interface: a token bucket that keeps us under the platform's limit of
// N requests in any sliding minute, serving waiters by priority, keeping a reserve of it for the
// user's own requests, and pausing after a Retry-After.

import { PRIORITIES, type Priority } from '@shared/api/request.ts';

/** Time as the limiter and the transport see it; tests hand in a fake one. */
export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/**
 * Whole epoch milliseconds from the monotonic clock: setting the computer's clock back must not
 * hold requests for an hour (nor setting it forward release a burst).
 */
export const systemClock: Clock = {
  now: () => Math.floor(performance.timeOrigin + performance.now()),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface RateLimiterOptions {
  /** Requests allowed in any window of `windowMs`; 0 (or less, or not finite) means no limit. Default 60. */
  perMinute?: number;
  /** Length of the platform's sliding window. Default 60 s. */
  windowMs?: number;
  clock?: Clock;
}

/** Why a waiter was let go without a slot. */
export class LimiterClosedError extends Error {
  constructor() {
    super('The request budget was closed before this request could be sent.');
    this.name = 'LimiterClosedError';
  }
}

interface Waiter {
  resolve(): void;
  reject(reason: unknown): void;
  /** Detaches the abort listener once the waiter is settled. */
  release(): void;
}

/** A priority's place in PRIORITIES, which lists them most urgent first. */
const RANK = Object.fromEntries(PRIORITIES.map((p, i) => [p, i])) as Record<Priority, number>;

/** A priority that is not one of ours (a bad value from over IPC) never jumps the queue. */
const rankOf = (priority: Priority): number =>
  Object.hasOwn(RANK, priority) ? RANK[priority] : RANK.background;

/**
 * Slots of a full bucket (10 at N = 60) that uploads and background pulls leave alone: a request
 * the user waits on (a delete, an account opened) then finds one at once, however long a pull has
 * been running flat out, and the platform never has to refuse it. Half the bucket at most, so a
 * small budget still lets the background through.
 */
const USER_RESERVE = 4;

/**
 * The bucket holds at most `capacity` slots and gains one every `intervalMs`. Any window of
 * `windowMs` then sees at most capacity + windowMs / intervalMs ≤ N requests; in fact N + 1
 * requests span at least windowMs + intervalMs, so the platform may receive them up to one
 * interval later than we sent them (network jitter) and still never count more than N.
 *
 * The state is kept as `fullAt`, the instant at which the bucket would be full again, in whole
 * milliseconds, so no rounding can let one request too many through.
 */
export class RateLimiter {
  private capacity = 1;
  private intervalMs = 0;
  private unlimited = false;
  private fullAt = Number.NEGATIVE_INFINITY;
  /** Per priority (by rank): held until then after a Retry-After (pauseUntil). */
  private readonly pausedUntil: number[] = PRIORITIES.map(() => Number.NEGATIVE_INFINITY);
  /** When a pause ends, the bucket holds at most `slots`: no burst meets a platform that said "too many". */
  private restarts: { at: number; slots: number }[] = [];
  private readonly queues: Waiter[][] = PRIORITIES.map(() => []);
  private timer: { handle: unknown; at: number } | null = null;
  private closed = false;
  private readonly clock: Clock;
  private readonly windowMs: number;
  private perMinute = 60;

  constructor(options: RateLimiterOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.windowMs = options.windowMs ?? 60_000;
    this.configure(options.perMinute ?? 60);
  }

  /** The configured limit (0 when unlimited). */
  get limit(): number {
    return this.unlimited ? 0 : this.perMinute;
  }

  /** Requests waiting for a slot. */
  get waiting(): number {
    return this.queues.reduce((n, q) => n + q.length, 0);
  }

  /**
   * Resolves when the request may be sent. Waiters are served immediate first, then interactive, upload,
   * background, first come first served within a priority. Rejects with the signal's reason when
   * aborted, and with LimiterClosedError after dispose().
   */
  acquire(priority: Priority = 'interactive', signal?: AbortSignal): Promise<void> {
    if (this.closed) return Promise.reject(new LimiterClosedError());
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    return new Promise<void>((resolve, reject) => {
      const queue = this.queues[rankOf(priority)] as Waiter[];
      const onAbort = () => {
        const index = queue.indexOf(waiter);
        if (index >= 0) queue.splice(index, 1);
        waiter.release();
        reject(abortReason(signal as AbortSignal));
        this.schedule();
      };
      const waiter: Waiter = {
        resolve,
        reject,
        release: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      queue.push(waiter);
      this.pump();
    });
  }

  /**
   * After a 429 or 503 with Retry-After: holds requests until `until` (epoch ms); a pause only ever
   * grows. A pause that an upload or a background request earned holds uploads and background
   * only: the user's requests go on, but from now on within the reserve those had to leave (the
   * platform may count more than we do, after a restart say, and its refusal shows it). A pause
   * that one of the user's requests earned (or any, when the budget is too small for a reserve)
   * holds every request. When a pause ends, the bucket restarts with one slot for what it held, so
   * the platform is not met by a burst the moment it lets requests in again.
   */
  pauseUntil(until: number, earnedBy: Priority = 'immediate'): void {
    const reserve = this.reserveOf(rankOf(earnedBy));
    const from = reserve > 0 ? RANK.upload : 0;
    if (!Number.isFinite(until) || until <= (this.pausedUntil[from] as number)) return;
    for (let k = from; k < this.pausedUntil.length; k++)
      this.pausedUntil[k] = Math.max(this.pausedUntil[k] as number, until);
    if (!this.unlimited) {
      const now = this.clock.now();
      this.fullAt = Math.max(this.fullAt, now + (this.capacity - reserve) * this.intervalMs);
      this.restarts.push({ at: until, slots: reserve + 1 });
    }
    this.pump();
  }

  /** Until when the interface holds (at least its background) requests (epoch ms), or null when it does not. */
  pausedUntilMs(): number | null {
    const until = Math.max(...this.pausedUntil);
    return until > this.clock.now() ? until : null;
  }

  /**
   * Changes the limit at run time. The slots left are kept (never more than the new capacity):
   * requests already sent still count in the platform's window.
   */
  setLimit(perMinute: number): void {
    const now = this.clock.now();
    const left = this.unlimited ? Number.POSITIVE_INFINITY : this.slotsAt(now);
    this.configure(perMinute);
    if (!this.unlimited) {
      const kept = Math.min(this.capacity, Math.floor(left));
      this.fullAt = now + (this.capacity - kept) * this.intervalMs;
    }
    this.pump();
  }

  /** A fresh budget (another platform, say): no pause, a full bucket; waiters are served at once. */
  reset(): void {
    this.pausedUntil.fill(Number.NEGATIVE_INFINITY);
    this.restarts = [];
    this.fullAt = this.clock.now();
    this.pump();
  }

  /** Lets every waiter go with LimiterClosedError and refuses new ones. */
  dispose(): void {
    this.closed = true;
    this.clearTimer();
    for (const queue of this.queues) {
      for (const waiter of queue.splice(0)) {
        waiter.release();
        waiter.reject(new LimiterClosedError());
      }
    }
  }

  private configure(perMinute: number): void {
    this.unlimited = !Number.isFinite(perMinute) || perMinute <= 0;
    if (this.unlimited) return;
    const n = Math.max(1, Math.floor(perMinute));
    this.perMinute = n;
    // About ten seconds' worth of the budget may go at once; the rest is spread over the window.
    this.capacity = Math.min(10, Math.max(1, Math.floor(n / 6)));
    const spread = n - this.capacity;
    // With N = 1 nothing is left to spread: one request per window, one millisecond apart from
    // the window's edge so that two never fall in the same closed window.
    this.intervalMs = spread > 0 ? Math.ceil(this.windowMs / spread) : this.windowMs + 1;
    if (this.fullAt === Number.NEGATIVE_INFINITY) this.fullAt = this.clock.now();
  }

  /** Slots in the bucket at `now` (may be fractional). */
  private slotsAt(now: number): number {
    return this.capacity - Math.max(0, this.fullAt - now) / this.intervalMs;
  }

  /** Slots the requests of this rank must leave in the bucket: the user's reserve, for uploads and background. */
  private reserveOf(rank: number): number {
    return rank >= RANK.upload ? Math.min(USER_RESERVE, Math.floor(this.capacity / 2)) : 0;
  }

  /** The earliest instant at which a request of this rank may go, pauses aside. */
  private nextSlotAt(rank: number): number {
    if (this.unlimited) return Number.NEGATIVE_INFINITY;
    return this.fullAt - (this.capacity - 1 - this.reserveOf(rank)) * this.intervalMs;
  }

  /** The earliest instant at which a request of this rank may go. */
  private readyAt(rank: number): number {
    return Math.max(this.pausedUntil[rank] as number, this.nextSlotAt(rank));
  }

  /** The most urgent rank with a waiter, or -1. */
  private firstWaiting(): number {
    return this.queues.findIndex((queue) => queue.length > 0);
  }

  /** A pause that has ended leaves the bucket with at most the slots it restarts with. */
  private restartIfDue(now: number): void {
    for (const { at, slots } of this.restarts.filter((r) => r.at <= now))
      if (!this.unlimited)
        this.fullAt = Math.max(this.fullAt, at + (this.capacity - slots) * this.intervalMs);
    this.restarts = this.restarts.filter((r) => r.at > now);
  }

  /**
   * Hands out every slot available now, most urgent first, then sleeps until the next one. A less
   * urgent rank never has an earlier turn than a more urgent one (its reserve and its pauses are
   * never smaller), so the first rank that must wait holds all the others too.
   */
  private pump(): void {
    if (this.closed) return;
    for (;;) {
      const now = this.clock.now();
      this.restartIfDue(now);
      const rank = this.firstWaiting();
      if (rank < 0 || now < this.readyAt(rank)) break;
      const waiter = (this.queues[rank] as Waiter[]).shift() as Waiter;
      if (!this.unlimited) this.fullAt = Math.max(this.fullAt, now) + this.intervalMs;
      waiter.release();
      waiter.resolve();
    }
    this.schedule();
  }

  /** Keeps exactly one timer, set for the moment the first waiter may go (or a pause ends). */
  private schedule(): void {
    const rank = this.firstWaiting();
    if (this.closed || rank < 0) {
      this.clearTimer();
      return;
    }
    const at = Math.min(this.readyAt(rank), ...this.restarts.map((r) => r.at));
    if (this.timer?.at === at) return;
    this.clearTimer();
    const delay = Math.max(0, at - this.clock.now());
    const handle = this.clock.setTimeout(() => {
      this.timer = null;
      this.pump();
    }, delay);
    this.timer = { handle, at };
  }

  private clearTimer(): void {
    if (this.timer) this.clock.clearTimeout(this.timer.handle);
    this.timer = null;
  }
}

function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  const message = typeof reason === 'string' ? reason : 'The operation was aborted.';
  return new DOMException(message, 'AbortError');
}
