// "Send them first" at sign-out (`SyncCoordinator.sendNow`, which the sync store's `sendNow`
// awaits), against the sandbox platform over real HTTP: it resolves when the push pass that sends
// the queue ends, the state then counting what is left; a pull the platform is still holding (the
// sync state still "syncing") does not hold it up, and no timer decides when it is done.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { updateRecord } from '../../renderer/src/data/changes/index.ts';
import type { AdvisorDb } from '../../renderer/src/data/db.ts';
import type { StoreIdentity } from '../../renderer/src/data/identity/index.ts';
import type { AccountRow } from '../../renderer/src/data/model.ts';
import type { SyncCoordinator, SyncState } from '../../renderer/src/sync/coordinator/index.ts';
import { PullEngine } from '../../renderer/src/sync/pull/index.ts';
import { sandbox } from '../support/sandbox.ts';
import { SANDBOX_TEAM, newUserKey, openDb } from '../support/store.ts';
import { loneCoordinator } from './lone-coordinator.ts';
import { ADVISOR, sandboxUser } from '../support/sandbox-client.ts';

const platform = sandbox({ accounts: 12 });
const advisor = sandboxUser(platform, ADVISOR, { perTest: true });
let db: AdvisorDb;
let identity: StoreIdentity;
let sync: SyncCoordinator | null = null;

beforeEach(async () => {
  identity = { user: newUserKey(), team: SANDBOX_TEAM };
  db = openDb(undefined, identity);
  // The store holds its team's accounts, as after a first pull.
  await new PullEngine({ db, send: advisor.send }).pullAccountList({ full: true });
});
afterEach(async () => {
  await sync?.stop();
  sync = null;
  platform.control.setFaults({ probability: 0, queue: [] });
  await db.delete();
});

/** What the sign-out dialog counts: queued, refused and in conflict (the sync store's `unsentCount`). */
const unsent = (s: SyncState) => s.pendingCount + s.rejected.length + s.conflicts.length;

const firstName = (id: unknown) =>
  platform.control.dump().accounts.find((a) => a.id === id)?.client.first_name;

/** Two synced accounts renamed here: two changes queued. */
async function renameTwo(): Promise<{ rows: AccountRow[]; names: string[] }> {
  const rows = (await db.accounts.toArray()).filter((r) => typeof r.serverId === 'number').slice(0, 2);
  const names = rows.map(() => `Now-${crypto.randomUUID().slice(0, 8)}`);
  for (const [i, row] of rows.entries())
    await updateRecord(db, 'accounts', row.id, { 'client.first_name': names[i]! });
  return { rows, names };
}

/**
 * Every later list read of the accounts is held by the platform for a minute, and the next writes
 * fail (a server error: each waits for a retry; no Retry-After, which would hold the transport).
 */
function holdListRefuseWrites(): void {
  platform.control.setFaults({
    probability: 1,
    kinds: ['latency'],
    methods: ['GET'],
    path: '/accounts$',
    latencyMs: 60_000,
    queue: [{ kind: 'server-error', methods: ['PUT', 'POST', 'PATCH', 'DELETE'], count: 1000 }],
  });
}

/** Resolves once `test` holds, polling (the test's own wait, not the code's). */
async function until(test: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const end = Date.now() + 10_000;
  while (!(await test())) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Syncing, with a background pull the platform holds (the sync says "syncing" throughout) and two
 * changes the platform failed for now: both wait for a retry (in flight: whether a write that met
 * a server error landed is not known).
 */
async function twoWaiting() {
  holdListRefuseWrites();
  const c = loneCoordinator({ db, send: advisor.send, identity: () => identity });
  sync = c;
  c.start();
  await until(() => c.state.phase === 'syncing', 'the background pull');
  const renamed = await renameTwo();
  await until(
    async () => (await db.outbox.toArray()).every((op) => op.lastError?.status === 500),
    'both changes to have failed once',
  );
  return { c, ...renamed };
}

describe('send now', () => {
  it('sends the waiting changes at once and resolves with none left, the count going down', async () => {
    const { c, rows, names } = await twoWaiting();
    // The platform takes writes again.
    platform.control.setFaults({ queue: [] });

    const heard: number[] = [];
    const off = c.subscribe((s) => heard.push(unsent(s)));
    await c.sendNow();
    off();
    expect(unsent(c.state)).toBe(0);
    expect(rows.map((r) => firstName(r.serverId))).toEqual(names);
    expect(await db.outbox.count()).toBe(0);
    expect(heard[0]).toBe(2);
    expect(heard.at(-1)).toBe(0);
    expect(heard).toEqual([...heard].sort((a, b) => b - a));
    // The pull is still held: it was not waited for.
    expect(c.state.phase).toBe('syncing');
  });

  it('resolves with what is left once the pass ends, while the platform still refuses and holds the pull', async () => {
    const { c, rows, names } = await twoWaiting();
    const before = platform.control.stats().received;

    await c.sendNow();
    expect(unsent(c.state)).toBe(2);
    // The pass tried them again (the platform heard it) though their retry was not due yet.
    expect(platform.control.stats().received).toBeGreaterThanOrEqual(before + 2);
    expect(c.state.phase).toBe('syncing');
    // Neither reached the platform.
    for (const [i, row] of rows.entries()) expect(firstName(row.serverId)).not.toBe(names[i]);
    expect(await db.outbox.count()).toBe(2);
  });
});
