// What the coordinator's integration tests share: a sandbox platform for the file and, for each
// test, a fresh store and the advisor's transport; one window's coordinator over them, alone (no
// locks, no channel, no window events); and waiting for a state.

import { afterEach, beforeEach } from 'vitest';
import type { AdvisorDb } from '../../renderer/src/data/db.ts';
import type { SyncCoordinator } from '../../renderer/src/sync/coordinator/index.ts';
import { type SyncCoordinatorOptions, type SyncState } from '../../renderer/src/sync/coordinator/index.ts';
import type { Send } from '../../renderer/src/sync/send.ts';
import type { Platform } from '../platform/server.ts';
import { sandbox } from '../support/sandbox.ts';
import { storePerTest } from '../support/store.ts';
import { loneCoordinator as lone } from './lone-coordinator.ts';
import { ADVISOR, type SandboxClient, sandboxUser } from '../support/sandbox-client.ts';

/** Undone after each test, last first. */
export type Cleanup = (() => Promise<void> | void)[];

/** What each test works with. */
export interface SandboxWorld {
  platform: Platform;
  advisor: SandboxClient;
  db: AdvisorDb;
}

/**
 * Registers the hooks: a sandbox platform of `accounts` accounts (no rate limit) for the file; for
 * each test a fresh store and the advisor's transport, no faults, handed to `use`; after it, the
 * cleanup runs (last first), then the transport and the store go.
 */
export function onSandbox(accounts: number, cleanup: Cleanup, use: (world: SandboxWorld) => void): void {
  const platform = sandbox({ accounts });
  const advisor = sandboxUser(platform, ADVISOR, { perTest: true });
  let db: AdvisorDb;
  storePerTest((fresh) => (db = fresh));
  beforeEach(() => {
    platform.control.setFaults({ probability: 0, queue: [], retryAfter: 0 });
    use({ platform, advisor, db });
  });
  afterEach(async () => {
    for (const undo of cleanup.splice(0).reverse()) await undo();
  });
}

/** A lone window's coordinator (lone-coordinator.ts), stopped at cleanup. */
export function loneCoordinator(
  db: AdvisorDb,
  send: Send,
  cleanup: Cleanup,
  options: Partial<SyncCoordinatorOptions> = {},
): SyncCoordinator {
  const c = lone({ db, send, ...options });
  cleanup.push(() => c.stop());
  return c;
}

/** The first state that passes `test` (the current one included). */
export function untilState(
  c: SyncCoordinator,
  test: (s: SyncState) => boolean,
  cleanup: Cleanup,
  timeoutMs = 10_000,
): Promise<SyncState> {
  return new Promise((resolve, reject) => {
    let done = false;
    const timer = setTimeout(() => {
      off();
      reject(new Error(`Timed out; the state is ${JSON.stringify(c.state, null, 1)}`));
    }, timeoutMs);
    const off = c.subscribe((s) => {
      if (done || !test(s)) return;
      done = true;
      clearTimeout(timer);
      resolve(s);
    });
    if (done) off();
    else cleanup.push(off);
  });
}
