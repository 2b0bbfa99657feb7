// The sandbox fixture: a sandbox platform (test/platform/) for a test file, a `describe` or each
// test, started and stopped by the hooks it registers (a seeded user's client over it:
// sandboxUser, in sandbox-client.ts).

import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { startPlatform, type Platform, type PlatformOptions } from '../platform/server.ts';

/** What every test's platform starts from: a free port, no rate limit (a test of it sets one). */
export const SANDBOX_OPTIONS: PlatformOptions = { port: 0, rateLimit: 0 };

/** Whether a fixture lives for the enclosing file or `describe` (the default), or for each test. */
export interface FixtureScope {
  perTest?: boolean;
}

/** Registers `start` before and `stop` after the scope's tests: all of them, or each. */
export function during({ perTest = false }: FixtureScope, start: () => unknown, stop: () => unknown): void {
  if (perTest) {
    beforeEach(async () => void (await start()));
    afterEach(async () => void (await stop()));
  } else {
    beforeAll(async () => void (await start()));
    afterAll(async () => void (await stop()));
  }
}

/** The value a fixture holds while its scope runs, or an error that says where it is missing. */
export function holder<T>(what: string) {
  let value: T | undefined;
  return {
    set: (v: T | undefined) => void (value = v),
    get: (): T => {
      if (value === undefined) throw new Error(`${what} exists only inside the tests of its scope`);
      return value;
    },
    peek: () => value,
  };
}

/**
 * Registers a sandbox platform of `options` (over SANDBOX_OPTIONS) for the enclosing file or
 * `describe`, or a fresh one for each test (`perTest`). The handle answers for the platform
 * running now, so a file keeps it in a `const`; hooks registered after this one see it started,
 * and its after-hook runs after theirs.
 */
export function sandbox(options: PlatformOptions = {}, scope: FixtureScope = {}): Platform {
  const running = holder<Platform>('The sandbox platform');
  during(
    scope,
    async () => running.set(await startPlatform({ ...SANDBOX_OPTIONS, ...options })),
    async () => {
      await running.peek()?.close();
      running.set(undefined);
    },
  );
  return {
    get url() {
      return running.get().url;
    },
    get control() {
      return running.get().control;
    },
    close: () => running.get().close(),
  };
}
