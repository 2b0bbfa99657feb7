// Every queued change carries the user and team it was made under (issue 12): the identity its
// store recorded, through every kind of change and every coalescing; a store that records none
// queues nothing.

import { afterEach, describe, expect, it } from 'vitest';
import {
  ChangeRefused,
  createRecord,
  deleteRecord,
  queueResetPin,
  queueUpload,
  updateRecord,
} from '../../../renderer/src/data/changes/index.ts';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import { storeName, type StoreIdentity } from '../../../renderer/src/data/identity/index.ts';
import { clientFields, newUserKey, openDb, outbox, syncedAccount, syncedItem } from '../../support/store.ts';

const opened: AdvisorDb[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await db.delete();
});

/** The store of one identity, named for it, as the app opens it. */
function storeOf(identity: StoreIdentity | null): AdvisorDb {
  const name = identity ? storeName(identity) : `earlier-${crypto.randomUUID()}`;
  const db = openDb(name, identity);
  opened.push(db);
  return db;
}

const harbor = (user = newUserKey()): StoreIdentity => ({ user, team: 2 });

describe('stamping queued changes', () => {
  it('a create, an update, a delete, an upload and a PIN reset each carry the store’s user and team', async () => {
    const identity = harbor();
    const db = storeOf(identity);
    await createRecord(db, 'accounts', { fields: clientFields('Nia') });
    const account = await syncedAccount(db, 41);
    await updateRecord(db, 'accounts', account.id, { 'client.first_name': 'Noor' });
    await queueResetPin(db, account.id, 'client');
    const item = await syncedItem(db, account.id, 'assets', '9', { description: 'House' });
    await deleteRecord(db, 'sectionItems', item.id);
    const details = `${account.id}:details:client`;
    await queueUpload(db, {
      table: 'singles',
      recordId: details,
      field: 'photo',
      file: { name: 'me.png', type: 'image/png', bytes: new Uint8Array([1, 2, 3]) },
    });

    const ops = await outbox(db);
    expect(ops.map((op) => op.kind)).toEqual(['create', 'update', 'resetPin', 'delete', 'upload']);
    for (const op of ops) expect(op.identity).toEqual(identity);
  });

  it('a change coalesced into one not sent yet keeps that one’s stamp', async () => {
    const identity = harbor();
    const db = storeOf(identity);
    const { id } = await createRecord(db, 'accounts', { fields: clientFields('Ola') });
    await updateRecord(db, 'accounts', id, { 'client.last_name': 'Okafor' });
    await updateRecord(db, 'accounts', id, { 'client.email': 'ola@example.com' });

    const ops = await outbox(db);
    expect(ops).toHaveLength(1);
    expect(ops[0]).toMatchObject({
      kind: 'create',
      identity,
      fields: { 'client.last_name': 'Okafor', 'client.email': 'ola@example.com' },
    });
  });

  it('two teams of one user: each store stamps its own team', async () => {
    const user = newUserKey();
    const main = storeOf({ user, team: 1 });
    const other = storeOf(harbor(user));
    await createRecord(main, 'accounts', { fields: clientFields('Main') });
    await createRecord(other, 'accounts', { fields: clientFields('Harbor') });

    expect((await outbox(main))[0]?.identity).toEqual({ user, team: 1 });
    expect((await outbox(other))[0]?.identity).toEqual({ user, team: 2 });
  });

  it('a store that records no identity refuses the change, says what to do, and keeps nothing of it', async () => {
    const db = storeOf(null);
    const account = await syncedAccount(db, 5);

    const refused = createRecord(db, 'accounts', { fields: clientFields('Pia') });
    await expect(refused).rejects.toBeInstanceOf(ChangeRefused);
    await expect(refused).rejects.toThrow(/which user and team.*Sign out and sign in again/);
    await expect(updateRecord(db, 'accounts', account.id, { 'client.first_name': 'X' })).rejects.toThrow(
      ChangeRefused,
    );

    expect(await outbox(db)).toEqual([]);
    expect(await db.accounts.count()).toBe(1);
    expect((await db.accounts.get(account.id))?.fields['client.first_name']).toBe('Ann');
  });
});
