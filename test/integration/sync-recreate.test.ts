// "Keep mine" on an account deleted on the server, against the sandbox platform over real HTTP:
// the account comes back with every record under it, each once, relations kept, and a pull
// afterwards finds them all on the platform rather than removing them here.

import { describe, expect, it } from 'vitest';
import { createRecord, resolveConflict, updateRecord } from '../../renderer/src/data/changes/index.ts';
import type { AdvisorDb } from '../../renderer/src/data/db.ts';
import { PullEngine } from '../../renderer/src/sync/pull/index.ts';
import { PushEngine } from '../../renderer/src/sync/push/index.ts';
import { SANDBOX_PASSWORD } from '../platform/seed.ts';
import { sandbox } from '../support/sandbox.ts';
import { storePerTest } from '../support/store.ts';
import { ADVISOR, sandboxUser } from '../support/sandbox-client.ts';

const platform = sandbox({ accounts: 5 });
const advisor = sandboxUser(platform, ADVISOR, { perTest: true });
let db: AdvisorDb;

const push = () => new PushEngine({ db, send: advisor.send, backoff: { baseMs: 0 } }).run();

storePerTest((fresh) => (db = fresh));

const onServer = (email: string) => platform.control.dump().accounts.filter((a) => a.client.email === email);

/** An account on the platform with items (one naming another), and two single records. */
async function accountWithRecords() {
  const email = `recreate-${crypto.randomUUID()}@example.com`;
  const { id: account } = await createRecord(db, 'accounts', {
    fields: {
      type: 'CLIENT',
      'client.first_name': 'Rhea',
      'client.last_name': 'Back',
      'client.email': email,
    },
  });
  const { id: kid } = await createRecord(db, 'sectionItems', {
    accountId: account,
    section: 'family',
    fields: { relationship: 'child', first_name: 'Kit', last_name: 'Back' },
  });
  const { id: goal } = await createRecord(db, 'sectionItems', {
    accountId: account,
    section: 'goals',
    fields: {
      name: 'College',
      type: 'college',
      owner: { type: 'client', id: null },
      beneficiary: { type: 'FamilyMember', id: kid },
      target: { value: 50000, date: '2035-09-01' },
    },
  });
  const { id: asset } = await createRecord(db, 'sectionItems', {
    accountId: account,
    section: 'assets',
    fields: { name: 'Car', type: 'vehicle', owner: { type: 'client', id: null }, current_value: 100 },
  });
  await createRecord(db, 'singles', {
    accountId: account,
    key: 'expenses-fixed',
    fields: { rent: { value: 900, frequency: 'monthly' } },
  });
  await createRecord(db, 'singles', {
    accountId: account,
    key: 'details:client',
    fields: { 'address.city': 'Springfield' },
  });
  expect(await push()).toMatchObject({ rejected: 0, conflicts: 0, remaining: 0 });
  const row = await db.accounts.get(account);
  return { email, account, kid, goal, asset, serverId: row?.serverId };
}

describe('keep mine on an account deleted on the server', () => {
  it('recreates the account with its items and single records, each once, parents first', async () => {
    const { email, account, kid, goal, asset, serverId } = await accountWithRecords();
    const deleted = await advisor.transport.request({
      api: 'v2',
      method: 'DELETE',
      path: `/accounts/${serverId}`,
      body: { password: SANDBOX_PASSWORD },
    });
    expect(deleted.ok).toBe(true);

    // Edits made here meanwhile: the account's, and an item's.
    const { opId } = await updateRecord(db, 'accounts', account, { 'client.first_name': 'Rhea Mine' });
    await updateRecord(db, 'sectionItems', asset, { name: 'Car mine' });
    const first = await push();
    expect(first.conflicts).toBeGreaterThanOrEqual(1);
    // A pull meanwhile keeps the account (changes are pending) and flags it.
    await new PullEngine({ db, send: advisor.send }).pullAccountList({ full: true });
    expect((await db.accounts.get(account))?.deletedOnServer).toBeTruthy();

    await resolveConflict(db, opId as string, 'mine');
    expect(await db.conflicts.count()).toBe(0);
    const queued = await db.outbox.orderBy('seq').toArray();
    expect(queued.every((op) => op.kind === 'create' && op.state === 'queued')).toBe(true);
    expect(queued[0]).toMatchObject({ table: 'accounts', recordId: account });
    expect(
      queued
        .filter((op) => op.table === 'sectionItems')
        .map((op) => op.recordId)
        .sort(),
    ).toEqual([kid, goal, asset].sort());
    for (const id of [kid, goal, asset]) expect((await db.sectionItems.get(id))?.serverId).toBeNull();
    // The relation still names the local record.
    expect(queued.find((op) => op.recordId === goal)?.fields.beneficiary).toEqual({
      type: 'FamilyMember',
      id: kid,
    });

    expect(await push()).toMatchObject({ rejected: 0, conflicts: 0, remaining: 0 });
    const stored = onServer(email);
    expect(stored).toHaveLength(1);
    const [again] = stored;
    expect(again?.id).not.toBe(serverId);
    expect(again?.client.first_name).toBe('Rhea Mine');
    const family = again?.sections?.family ?? [];
    const goals = again?.sections?.goals ?? [];
    const assets = again?.sections?.assets ?? [];
    expect([family.length, goals.length, assets.length]).toEqual([1, 1, 1]);
    expect(goals[0]?.fields.beneficiary).toEqual({ type: 'FamilyMember', id: family[0]?.id });
    expect(assets[0]?.fields.name).toBe('Car mine');
    expect(again?.singles?.['expenses-fixed']?.rent).toMatchObject({ value: 900, frequency: 'monthly' });
    expect(JSON.stringify(again?.singles?.['details:client'] ?? again)).toContain('Springfield');

    // The next pulls find everything on the platform: nothing removed or doubled here.
    const pull = new PullEngine({ db, send: advisor.send });
    await pull.pullAccountList({ full: true });
    await pull.pullAccount(account, { priority: 'interactive' });
    const local = await db.accounts.get(account);
    expect(local).toMatchObject({ serverId: again?.id, status: 'synced' });
    expect(local?.deletedOnServer).toBeFalsy();
    const items = await db.sectionItems.where('accountId').equals(account).toArray();
    expect(items.map((i) => i.id).sort()).toEqual([kid, goal, asset].sort());
    expect(items.every((i) => i.status === 'synced' && i.serverId !== null)).toBe(true);
    expect(await db.outbox.count()).toBe(0);
  });

  it('keep mine on an item of an account the server deleted recreates the whole account', async () => {
    const { email, account, asset, serverId } = await accountWithRecords();
    await advisor.transport.request({
      api: 'v2',
      method: 'DELETE',
      path: `/accounts/${serverId}`,
      body: { password: SANDBOX_PASSWORD },
    });
    const { opId } = await updateRecord(db, 'sectionItems', asset, { current_value: 250 });
    await new PullEngine({ db, send: advisor.send }).pullAccountList({ full: true });
    expect(await push()).toMatchObject({ conflicts: 1 });
    await resolveConflict(db, opId as string, 'mine');
    expect(await push()).toMatchObject({ rejected: 0, conflicts: 0, remaining: 0 });
    const stored = onServer(email);
    expect(stored).toHaveLength(1);
    expect(stored[0]?.sections?.assets).toHaveLength(1);
    expect(stored[0]?.sections?.family).toHaveLength(1);
    expect(stored[0]?.sections?.goals).toHaveLength(1);
    expect((await db.accounts.get(account))?.serverId).toBe(stored[0]?.id);
  });
});

describe('keep mine on an item deleted on the server', () => {
  it('a relation to it the platform still holds is no change made there: editing it opens no conflict', async () => {
    const { account, kid, goal, serverId } = await accountWithRecords();
    const kidBefore = await db.sectionItems.get(kid);
    // Another user deletes the child; the goal on the platform still names it.
    const deleted = await advisor.transport.request({
      api: 'v0',
      method: 'DELETE',
      path: `/accounts/${serverId}/family/${encodeURIComponent(String(kidBefore?.serverId))}`,
    });
    expect(deleted.ok).toBe(true);
    const { opId } = await updateRecord(db, 'sectionItems', kid, { first_name: 'Kit Mine' });
    expect(await push()).toMatchObject({ conflicts: 1 });
    await resolveConflict(db, opId as string, 'mine');
    expect(await push()).toMatchObject({ rejected: 0, conflicts: 0, remaining: 0 });
    const kidAfter = await db.sectionItems.get(kid);
    expect(kidAfter?.serverId).not.toBe(kidBefore?.serverId);
    // Here as there, the goal names the child that was deleted, not the one made again; a pull
    // reads the platform's relation as the same local id.
    const named = (await db.sectionItems.get(goal))?.fields.beneficiary as { id: string };
    expect(named.id).not.toBe(kid);
    await new PullEngine({ db, send: advisor.send }).pullAccount(account, { priority: 'interactive' });
    expect((await db.sectionItems.get(goal))?.fields.beneficiary).toEqual(named);

    // Nobody changed the goal's beneficiary there (it names the deleted child, as it did): the
    // user's new beneficiary simply goes.
    await updateRecord(db, 'sectionItems', goal, { beneficiary: { type: 'client', id: null } });
    expect(await push()).toMatchObject({ conflicts: 0, synced: 1, remaining: 0 });
    const stored = platform.control.dump().accounts.find((a) => a.id === serverId);
    expect(stored?.sections?.goals?.[0]?.fields.beneficiary).toMatchObject({ type: 'client' });
  });
});
