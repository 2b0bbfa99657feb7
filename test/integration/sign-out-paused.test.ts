// Signing out while the platform has asked us to wait (a 503 with Retry-After): "Send them first"
// says until when, Cancel leaves at any moment with the change kept, and once the platform's time
// has come the change goes and the sign-out goes on. The sandbox platform answers over real HTTP,
// the advisor's transport holds the uploads as it does in the app, and the dialog's flow is wired
// to the window's coordinator as SignOutDialog.vue wires it to the sync store.

import { describe, expect, it } from 'vitest';
import { updateRecord } from '../../renderer/src/data/changes/index.ts';
import type { AdvisorDb } from '../../renderer/src/data/db.ts';
import { SignOutFlow } from '../../renderer/src/shell/sign-out.ts';
import type { SyncCoordinator } from '../../renderer/src/sync/coordinator/index.ts';
import type { Platform } from '../platform/server.ts';
import { loneCoordinator, onSandbox, untilState } from './coordinator-harness.ts';
import type { SandboxClient } from '../support/sandbox-client.ts';

let platform: Platform;
let advisor: SandboxClient;
let db: AdvisorDb;
const cleanup: (() => Promise<void> | void)[] = [];

onSandbox(3, cleanup, (world) => ({ platform, advisor, db } = world));

/** Seconds the platform asks us to wait: long enough to look at the dialog, short for a test. */
const RETRY_AFTER_S = 3;

/** "14:32" or "2:32 PM", as an advisor reads this computer's clock. */
const clock = (ms: number) =>
  new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' }).format(new Date(ms));

/** The dialog's flow as the app wires it, over this window's coordinator; what it did, in order. */
function dialogFlow(c: SyncCoordinator) {
  const done: string[] = [];
  const unsent = () => c.state.pendingCount + c.state.rejected.length + c.state.conflicts.length;
  const flow = new SignOutFlow({
    unsent,
    waitingElsewhere: () => Promise.resolve([]),
    online: () => true,
    async sendUnsent(left) {
      const off = c.subscribe(() => left(unsent()));
      try {
        await c.sendNow();
        return unsent();
      } finally {
        off();
      }
    },
    platformWaitUntil: () => c.state.platformWaitUntil ?? null,
    signOut() {
      done.push('sign-out');
      return Promise.resolve(null);
    },
    leave() {
      done.push('leave');
      return Promise.resolve();
    },
    removeLocalCopy() {
      done.push('remove');
      return Promise.resolve();
    },
  });
  return { flow, done };
}

/**
 * A change to an account pulled from the platform, whose first sending meets a 503 with
 * Retry-After: the platform's wait as this window knows it, and the bounds it must lie in.
 */
async function changeMetAWait(c: SyncCoordinator, firstName: string) {
  platform.control.setFaults({
    retryAfter: RETRY_AFTER_S,
    queue: [{ kind: 'unavailable', methods: ['PUT', 'POST', 'PATCH'], count: 1 }],
  });
  const account = (await db.accounts.toArray()).find((a) => a.serverId !== null)!;
  const before = Date.now();
  await updateRecord(db, 'accounts', account.id, { 'client.first_name': firstName });
  const state = await untilState(c, (s) => (s.platformWaitUntil ?? 0) > 0, cleanup);
  const after = Date.now();
  const until = state.platformWaitUntil!;
  expect(until).toBeGreaterThanOrEqual(before + RETRY_AFTER_S * 1000);
  expect(until).toBeLessThanOrEqual(after + RETRY_AFTER_S * 1000);
  return { account, until };
}

describe('signing out while the platform asked us to wait', () => {
  it('says until when while it waits; Cancel leaves at once, the change kept, and it is sent after the wait', async () => {
    const c = loneCoordinator(db, advisor.send, cleanup);
    c.start();
    await untilState(c, (s) => s.phase === 'idle' && s.lastSyncedAt !== null, cleanup, 20_000);
    const { account, until } = await changeMetAWait(c, 'Kept-Through-Cancel');
    const queued = await db.outbox.toArray();
    expect(queued).toHaveLength(1);

    const { flow, done } = dialogFlow(c);
    const sending = flow.sendFirst();
    expect(flow.step).toBe('sending');
    expect(flow.sendingNote).toBe(
      `The platform asked us to wait until ${clock(until)}; 1 change still to send.`,
    );
    // Cancel is open while it waits, and leaves at once: nobody signed out, nothing lost.
    expect(flow.canCancel).toBe(true);
    flow.cancel();
    expect(flow.step).toBe('choose');
    expect(flow.busy).toBe(false);
    const kept = await db.outbox.toArray();
    expect(kept.map((op) => [op.id, op.fields])).toEqual(queued.map((op) => [op.id, op.fields]));
    expect(Date.now()).toBeLessThan(until);

    // The platform's time comes: the change goes as any other (the push goes on in the
    // background), and the cancelled flow signs nobody out.
    expect(await sending).toBe(false);
    await untilState(c, (s) => s.pendingCount === 0, cleanup, (RETRY_AFTER_S + 10) * 1000);
    expect(Date.now()).toBeGreaterThanOrEqual(until - 50);
    expect(await db.outbox.count()).toBe(0);
    const onPlatform = await advisor.send({
      api: 'v2',
      method: 'GET',
      path: `/accounts/${account.serverId}`,
    });
    expect(JSON.stringify(onPlatform)).toContain('Kept-Through-Cancel');
    expect(done).toEqual([]);
  });

  it('left waiting, it sends the change once the platform’s time has come, then signs out', async () => {
    const c = loneCoordinator(db, advisor.send, cleanup);
    c.start();
    await untilState(c, (s) => s.phase === 'idle' && s.lastSyncedAt !== null, cleanup, 20_000);
    const { until } = await changeMetAWait(c, 'Sent-Before-Sign-Out');

    const { flow, done } = dialogFlow(c);
    const sending = flow.sendFirst();
    expect(flow.sendingNote).toBe(
      `The platform asked us to wait until ${clock(until)}; 1 change still to send.`,
    );
    expect(await sending).toBe(true);
    expect(Date.now()).toBeGreaterThanOrEqual(until - 50);
    expect(await db.outbox.count()).toBe(0);
    expect(done).toEqual(['sign-out', 'leave']);
  });
});
