// The push sends a change only under the user and team it was made under, and takes a 404 for a
// deletion only once the platform confirms the store's team is current (issue 12), against a
// scripted platform whose current team a test moves.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRecord, deleteRecord, updateRecord } from '../../../renderer/src/data/changes/index.ts';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import type { StoreIdentity } from '../../../renderer/src/data/identity/index.ts';
import { PushEngine } from '../../../renderer/src/sync/push/index.ts';
import { TeamWatch } from '../../../renderer/src/sync/team.ts';
import { FakeApi } from './fake-api.ts';
import {
  SANDBOX_TEAM,
  clientFields,
  newUserKey,
  openDb,
  outbox,
  syncedAccount,
  syncedItem,
} from '../../support/store.ts';

let db: AdvisorDb;
let api: FakeApi;
let identity: StoreIdentity;

beforeEach(() => {
  identity = { user: newUserKey(), team: SANDBOX_TEAM };
  db = openDb(undefined, identity);
  api = new FakeApi();
});
afterEach(async () => {
  await db.delete();
});

const engine = (signedIn: () => StoreIdentity | null, team = new TeamWatch(db, api.send)) =>
  new PushEngine({ db, send: api.send, identity: signedIn, team, backoff: { baseMs: 0 } });

describe('sent only under its own identity', () => {
  it('another team or another user signed in, or nobody: held as it is, not failed, retried or refused', async () => {
    await createRecord(db, 'accounts', { fields: clientFields('Ann') });
    const before = await outbox(db);
    for (const signedIn of [{ ...identity, team: 2 }, { user: newUserKey(), team: SANDBOX_TEAM }, null]) {
      const report = await engine(() => signedIn).run();
      expect(report).toMatchObject({ requests: 0, synced: 0, retried: 0, rejected: 0, remaining: 1 });
    }
    expect([api.requests, api.teamChecks]).toEqual([[], 0]);
    expect(await outbox(db)).toEqual(before);

    // A new account: the platform confirms first that the store's team is current.
    expect(await engine(() => identity).run()).toMatchObject({ synced: 1, remaining: 0 });
    expect([api.lines, api.teamChecks]).toEqual([['POST /accounts'], 1]);
  });

  it('a change of an earlier version, not stamped, waits for its store to be adopted', async () => {
    await createRecord(db, 'accounts', { fields: clientFields('Ann') });
    await db.outbox.toCollection().modify((op) => void delete op.identity);
    expect(await engine(() => identity).run()).toMatchObject({ requests: 0, remaining: 1 });
  });
});

describe('a 404 under another team', () => {
  it('is no deletion: no conflict, no mark, nothing removed, nothing else sent; sent once the team is back', async () => {
    const account = await syncedAccount(db, 7);
    api.accounts.set(7, { id: 7 });
    const edited = await syncedItem(db, account.id, 'assets', 'x|1', { name: 'House' });
    const removed = await syncedItem(db, account.id, 'assets', 'x|2', { name: 'Car' });
    api.collections.set(`/accounts/7/assets`, [
      { id: 'x|1', name: 'House' },
      { id: 'x|2', name: 'Car' },
    ]);
    await updateRecord(db, 'sectionItems', edited.id, { name: 'Flat' });
    await deleteRecord(db, 'sectionItems', removed.id);
    await createRecord(db, 'accounts', { fields: clientFields('Bea') });
    const queued = await outbox(db);

    // Another device switched the platform to the user's other team: the account is out of sight.
    api.team = 2;
    const hidden = (req: { path: string }) =>
      req.path.startsWith('/accounts/7') ? { ...notFound } : undefined;
    api.overrides.push(hidden);
    const moves: (number | null)[] = [];
    const team = new TeamWatch(db, api.send, (moved) => moves.push(moved));
    const push = engine(() => identity, team);
    const report = await push.run();

    expect(report).toMatchObject({ synced: 0, conflicts: 0, rejected: 0, retried: 0, remaining: 3 });
    expect(moves).toEqual([2]);
    expect(await db.conflicts.count()).toBe(0);
    expect(await db.sectionItems.get(edited.id)).not.toHaveProperty('deletedOnServer');
    expect(await db.sectionItems.get(removed.id)).toBeDefined();
    expect((await outbox(db)).map((op) => [op.kind, op.state, op.attempts])).toEqual(
      queued.map((op) => [op.kind, 'queued', 0]),
    );
    // The new account was not created in the other team.
    expect(api.lines.filter((l) => l === 'POST /accounts')).toEqual([]);

    // Still the other team: nothing goes (the platform is asked which team is current, only).
    const asked = [api.requests.length, api.teamChecks];
    expect(await push.run()).toMatchObject({ synced: 0, remaining: 3 });
    expect([api.requests.length, api.teamChecks]).toEqual([asked[0], asked[1]! + 1]);

    // The store's team is current again: everything reaches the platform.
    api.team = SANDBOX_TEAM;
    api.overrides.length = 0;
    expect(await push.run()).toMatchObject({ synced: 3, conflicts: 0, remaining: 0 });
    expect(moves).toEqual([2, null]);
    expect(api.collections.get('/accounts/7/assets')).toEqual([{ id: 'x|1', name: 'Flat' }]);
  });

  it('under the store’s team a 404 still means deleted: the update meets "deleted on the platform"', async () => {
    const account = await syncedAccount(db, 7);
    const item = await syncedItem(db, account.id, 'assets', 'x|1', { name: 'House' });
    await updateRecord(db, 'sectionItems', item.id, { name: 'Flat' });
    expect(await engine(() => identity).run()).toMatchObject({ conflicts: 1 });
    expect(api.teamChecks).toBe(1);
  });
});

const notFound = {
  ok: false as const,
  kind: 'not-found' as const,
  status: 404,
  message: 'Not found.',
  fields: {},
  retryAfterMs: null,
};
