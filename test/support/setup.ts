// Runs before every vitest file (vitest.config.ts `setupFiles`).
//
// `vi.waitFor` and `vi.waitUntil` give up after 1 s unless told otherwise. They are waits, not
// assertions: a passing wait returns as soon as its condition holds, so a longer bound costs a
// passing test nothing. But 1 s is within what a busy machine takes for a store write or a
// sandbox round trip, and the suite must pass beside a second load (two cores shared with another
// run). Here the default bound is 10 s; a wait that sets its own `timeout` keeps it, as does one
// that gives a bare number (vitest's shorthand for the timeout).
import { vi } from 'vitest';

const WAIT_MS = 10_000;

type Options = number | { timeout?: number; interval?: number } | undefined;
const withDefault = (options: Options) =>
  typeof options === 'number' ? options : { ...options, timeout: options?.timeout ?? WAIT_MS };

const { waitFor, waitUntil } = vi;
vi.waitFor = ((callback: Parameters<typeof waitFor>[0], options?: Options) =>
  waitFor(callback, withDefault(options))) as typeof vi.waitFor;
vi.waitUntil = ((callback: Parameters<typeof waitUntil>[0], options?: Options) =>
  waitUntil(callback, withDefault(options))) as typeof vi.waitUntil;
