// The change journal (data/journal.ts, changes/journal.ts) on fake-indexeddb: an entry per field an
// edit changed, per item made, deleted or file chosen, written in the change's own transaction
// (a change that fails leaves none), what became of each read from the outbox, and pruning by age.

import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createRecord,
  deleteRecord,
  queueUpload,
  updateRecord,
} from '../../../renderer/src/data/changes/index.ts';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import { closeLocalDb, useIdentityStore } from '../../../renderer/src/data/identity/current-store.ts';
import { JOURNAL_DAYS, journalChanges, pruneJournal } from '../../../renderer/src/data/journal.ts';
import {
  fakeIdb,
  newUserKey,
  openDb,
  openIdentityDb,
  syncedAccount,
  syncedItem,
  SANDBOX_TEAM,
} from '../../support/store.ts';

const DAY = 24 * 60 * 60 * 1000;
let db: AdvisorDb;

afterEach(async () => {
  vi.useRealTimers();
  await db?.delete();
});

const everything = (accountId: string) => journalChanges(db, accountId, 0, Number.MAX_SAFE_INTEGER);

describe('the change journal', () => {
  it('records each field an edit changed, with the value before and after, under the edit’s operation', async () => {
    db = openDb();
    const account = await syncedAccount(db, 41);
    const car = await syncedItem(db, account.id, 'assets', 'a-1', {
      name: 'Car',
      type: 'vehicle',
      current_value: { value: 9000, frequency: 'one-time' },
    });
    const before = Date.now();
    const { opId } = await updateRecord(db, 'sectionItems', car.id, {
      name: 'Family car',
      current_value: { value: 8500, frequency: 'one-time' },
      type: 'vehicle', // unchanged: not a change
    });

    const entries = await everything(account.id);
    expect(entries.map((e) => [e.field, e.before, e.after])).toEqual([
      ['name', 'Car', 'Family car'],
      ['current_value', { value: 9000, frequency: 'one-time' }, { value: 8500, frequency: 'one-time' }],
    ]);
    for (const e of entries) {
      expect(e).toMatchObject({
        accountId: account.id,
        section: 'assets',
        recordId: car.id,
        label: 'Family car',
        kind: 'update',
        opId,
        state: 'pending',
      });
      expect(e.at).toBeGreaterThanOrEqual(before);
    }
  });

  it('records an item made with its fields, and an account’s own fields under “account”', async () => {
    db = openDb();
    const account = await syncedAccount(db, 42);
    const { opId } = await createRecord(db, 'sectionItems', {
      accountId: account.id,
      section: 'cash',
      fields: { name: 'Savings', type: 'savings', current_value: { value: 2000, frequency: 'one-time' } },
    });
    await updateRecord(db, 'accounts', account.id, { 'client.first_name': 'Anna' });
    const [made, renamed] = await everything(account.id);
    expect(made).toMatchObject({
      kind: 'create',
      section: 'cash',
      label: 'Savings',
      opId,
      field: null,
      after: { name: 'Savings', type: 'savings', current_value: { value: 2000, frequency: 'one-time' } },
    });
    expect(renamed).toMatchObject({
      kind: 'update',
      section: 'account',
      field: 'client.first_name',
      before: 'Ann',
      after: 'Anna',
    });
  });

  it('a change that fails leaves no entry: the journal is written in the change’s transaction', async () => {
    db = openDb();
    const account = await syncedAccount(db, 43);
    // The create is written (record, operation, journal) before its empty file is refused.
    await expect(
      createRecord(db, 'sectionItems', {
        accountId: account.id,
        section: 'documents',
        fields: { name: 'Trust deed' },
        files: { file: { name: 'empty.pdf', type: 'application/pdf', bytes: new Uint8Array(0) } },
      }),
    ).rejects.toThrow(/empty/);
    expect(await db.sectionItems.where('accountId').equals(account.id).count()).toBe(0);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.journal.count()).toBe(0);
  });

  it('a change undone before it was sent, and an item deleted before it was sent, say they were never sent', async () => {
    db = openDb();
    const account = await syncedAccount(db, 44);
    const car = await syncedItem(db, account.id, 'assets', 'a-2', { name: 'Car', type: 'vehicle' });
    await updateRecord(db, 'sectionItems', car.id, { name: 'Truck' });
    await updateRecord(db, 'sectionItems', car.id, { name: 'Car' });
    const { id: boat } = await createRecord(db, 'sectionItems', {
      accountId: account.id,
      section: 'assets',
      fields: { name: 'Boat', type: 'vehicle' },
    });
    await deleteRecord(db, 'sectionItems', boat);

    const entries = await everything(account.id);
    expect(entries.map((e) => [e.kind, e.label, e.state])).toEqual([
      ['update', 'Truck', 'withdrawn'],
      ['update', 'Car', 'withdrawn'],
      ['create', 'Boat', 'withdrawn'],
      ['delete', 'Boat', 'withdrawn'],
    ]);
    expect(await db.outbox.count()).toBe(0);
  });

  it('records a file chosen for a field, and a delete queued for an item on the platform', async () => {
    db = openDb();
    const account = await syncedAccount(db, 45);
    const deed = await syncedItem(db, account.id, 'employment:client', 'e-1', { employer: 'Acme' });
    const upload = await queueUpload(db, {
      table: 'sectionItems',
      recordId: deed.id,
      field: 'document',
      file: { name: 'Contract.pdf', type: 'application/pdf', bytes: new Uint8Array([1, 2, 3]) },
    });
    const removal = await deleteRecord(db, 'sectionItems', deed.id);
    const entries = await everything(account.id);
    expect(entries.map((e) => [e.kind, e.field, e.opId, e.state])).toEqual([
      ['upload', 'document', upload.opId, 'withdrawn'],
      ['delete', null, removal.opId, 'pending'],
    ]);
    expect(entries[0]?.after).toMatchObject({ filename: 'Contract.pdf' });
  });

  it('keeps only the entries of a span, for one household', async () => {
    db = openDb();
    vi.useFakeTimers({ toFake: ['Date'] });
    const a = await syncedAccount(db, 46);
    const b = await syncedAccount(db, 47, { 'client.first_name': 'Bea', 'client.email': 'b@example.com' });
    vi.setSystemTime(new Date(2026, 10, 26, 9, 0));
    await updateRecord(db, 'accounts', a.id, { 'client.last_name': 'Early' });
    vi.setSystemTime(new Date(2026, 10, 26, 10, 0));
    await updateRecord(db, 'accounts', a.id, { 'client.last_name': 'Inside' });
    await updateRecord(db, 'accounts', b.id, { 'client.last_name': 'Other' });
    vi.setSystemTime(new Date(2026, 10, 26, 11, 0));
    await updateRecord(db, 'accounts', a.id, { 'client.last_name': 'Late' });
    const from = new Date(2026, 10, 26, 9, 30).getTime();
    const to = new Date(2026, 10, 26, 10, 30).getTime();
    const inside = await journalChanges(db, a.id, from, to);
    expect(inside.map((e) => e.after)).toEqual(['Inside']);
  });
});

describe('pruning the journal', () => {
  it(`removes entries older than ${JOURNAL_DAYS} days and keeps the rest`, async () => {
    db = openDb();
    vi.useFakeTimers({ toFake: ['Date'] });
    const account = await syncedAccount(db, 48);
    const now = new Date(2026, 10, 26, 12, 0).getTime();
    vi.setSystemTime(now - 91 * DAY);
    await updateRecord(db, 'accounts', account.id, { 'client.last_name': 'Old' });
    vi.setSystemTime(now - 89 * DAY);
    await updateRecord(db, 'accounts', account.id, { 'client.last_name': 'Kept' });
    vi.setSystemTime(now);

    expect(await pruneJournal(db, now)).toBe(1);
    expect((await everything(account.id)).map((e) => e.after)).toEqual(['Kept']);
  });

  it('prunes when the store opens', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const identity = { user: newUserKey(), team: SANDBOX_TEAM };
    const now = new Date(2026, 10, 26, 12, 0).getTime();
    vi.setSystemTime(now - 100 * DAY);
    db = await openIdentityDb(identity);
    const account = await syncedAccount(db, 49);
    await updateRecord(db, 'accounts', account.id, { 'client.last_name': 'Long ago' });
    expect(await db.journal.count()).toBe(1);
    db.close();

    vi.setSystemTime(now);
    db = await openIdentityDb(identity);
    expect(await db.journal.count()).toBe(0);
  });

  it('prunes once a day while the app stays open', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    const now = new Date(2026, 10, 26, 12, 0).getTime();
    vi.setSystemTime(now);
    db = await useIdentityStore({ user: newUserKey(), team: SANDBOX_TEAM }, { dexie: fakeIdb });
    const account = await syncedAccount(db, 50);
    await updateRecord(db, 'accounts', account.id, { 'client.last_name': 'Monday' });
    // Ninety days and a bit later, the app still open: the next daily round takes it.
    vi.setSystemTime(now + 90 * DAY);
    await vi.advanceTimersByTimeAsync(DAY);
    await vi.waitFor(async () => expect(await db.journal.count()).toBe(0));
    closeLocalDb();
  });
});
