// What stands between a request and its handler: maintenance mode, injected faults and the rate
// limit. All of it is switchable at run time through the control endpoints.

import type { Random } from './random.ts';

export const FAULT_KINDS = [
  'server-error',
  'unavailable',
  'rate-limited',
  'latency',
  'drop-before',
  'drop-after',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultRule {
  kind: FaultKind;
  /** Only requests with one of these methods (default: any). */
  methods?: string[];
  /** Only requests whose path matches this regular expression (default: any). */
  path?: string;
  /** For queued faults: how many matching requests to hit (default 1). */
  count?: number;
}

export interface FaultSettings {
  /** Probability that a request to either interface meets a random fault. */
  probability: number;
  kinds: FaultKind[];
  methods?: string[];
  path?: string;
  /** Seconds sent in Retry-After with 429 and 503 faults. */
  retryAfter: number;
  /** Added delay of a latency fault, in ms. */
  latencyMs: number;
  /** Deterministic faults, met in order by the next matching requests. */
  queue: FaultRule[];
}

export const defaultFaults = (probability = 0): FaultSettings => ({
  probability,
  kinds: [...FAULT_KINDS],
  retryAfter: 1,
  latencyMs: 1500,
  queue: [],
});

const matches = (rule: { methods?: string[]; path?: string }, method: string, path: string) =>
  (!rule.methods || rule.methods.includes(method)) && (!rule.path || new RegExp(rule.path).test(path));

export class FaultInjector {
  settings: FaultSettings;
  constructor(
    private readonly random: Random,
    probability: number,
  ) {
    this.settings = defaultFaults(probability);
  }

  /** The fault this request meets, if any. */
  draw(method: string, path: string): FaultKind | null {
    const queued = this.settings.queue.findIndex((r) => matches(r, method, path));
    if (queued >= 0) {
      const rule = this.settings.queue[queued] as FaultRule;
      rule.count = (rule.count ?? 1) - 1;
      if (rule.count <= 0) this.settings.queue.splice(queued, 1);
      return rule.kind;
    }
    const s = this.settings;
    if (s.probability <= 0 || s.kinds.length === 0 || !matches(s, method, path)) return null;
    return this.random.chance(s.probability) ? this.random.pick(s.kinds) : null;
  }
}

/** Sliding one-minute window per interface and token: at most `perMinute` requests. */
export class RateLimiter {
  private windows = new Map<string, number[]>();
  constructor(
    public perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records the request if allowed; otherwise returns the seconds to wait. */
  take(key: string): { allowed: true; remaining: number } | { allowed: false; retryAfter: number } {
    if (this.perMinute <= 0) return { allowed: true, remaining: Number.POSITIVE_INFINITY };
    const now = this.now();
    const window = (this.windows.get(key) ?? []).filter((t) => t > now - 60_000);
    if (window.length >= this.perMinute) {
      this.windows.set(key, window);
      return {
        allowed: false,
        retryAfter: Math.max(1, Math.ceil(((window[0] as number) + 60_000 - now) / 1000)),
      };
    }
    window.push(now);
    this.windows.set(key, window);
    return { allowed: true, remaining: this.perMinute - window.length };
  }

  reset(): void {
    this.windows.clear();
  }
}
