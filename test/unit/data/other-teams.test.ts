// The changes that wait under the user's other teams, counted store by store (issue 12), in the
// fake IndexedDB every test store lives in.

import { afterEach, describe, expect, it } from 'vitest';
import { createRecord, updateRecord } from '../../../renderer/src/data/changes/index.ts';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import { storeName, type StoreIdentity } from '../../../renderer/src/data/identity/index.ts';
import {
  changesWaitingElsewhere,
  switchToSend,
  waitingSentence,
} from '../../../renderer/src/data/identity/other-teams.ts';
import { clientFields, fakeIdb, newUserKey, openDb, syncedAccount } from '../../support/store.ts';

const MAIN = { id: 1, name: 'Main Street Advisors' };
const HARBOR = { id: 2, name: 'Harbor Wealth Partners' };
const BAYSIDE = { id: 3, name: 'Bayside Planning' };

const opened: AdvisorDb[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await db.delete();
});

function storeOf(identity: StoreIdentity): AdvisorDb {
  const db = openDb(storeName(identity), identity);
  opened.push(db);
  return db;
}

async function databaseNames(): Promise<string[]> {
  const factory = fakeIdb.indexedDB as unknown as { databases(): Promise<{ name?: string }[]> };
  return (await factory.databases()).map((d) => d.name ?? '');
}

describe('changes waiting under the other teams', () => {
  it('counts each other team’s unsent changes; not the current team’s, not another user’s', async () => {
    const user = newUserKey();
    const main = storeOf({ user, team: MAIN.id });
    const harbor = storeOf({ user, team: HARBOR.id });
    await createRecord(main, 'accounts', { fields: clientFields('Here') });
    await createRecord(harbor, 'accounts', { fields: clientFields('Ann') });
    const account = await syncedAccount(harbor, 31);
    await updateRecord(harbor, 'accounts', account.id, { 'client.first_name': 'Bea' });
    // Refused and conflicting changes are unsent too.
    const other = await syncedAccount(harbor, 32, clientFields('Cy'));
    await updateRecord(harbor, 'accounts', other.id, { 'client.email': 'not-an-email' });
    await harbor.outbox.where('recordId').equals(other.id).modify({ state: 'rejected' });
    // Another user of this computer, in the same team: none of theirs.
    const someoneElse = storeOf({ user: newUserKey(), team: HARBOR.id });
    await createRecord(someoneElse, 'accounts', { fields: clientFields('Dee') });

    const waiting = await changesWaitingElsewhere(main, user, MAIN.id, [MAIN, HARBOR, BAYSIDE]);
    expect(waiting).toEqual([{ team: HARBOR, count: 3 }]);
    expect(waiting.map(waitingSentence)).toEqual(['3 changes wait for Harbor Wealth Partners']);
    expect(waiting.map(switchToSend)).toEqual(['Switch to Harbor Wealth Partners and send them']);
    // Looking for Bayside's store did not make one.
    expect(await databaseNames()).not.toContain(storeName({ user, team: BAYSIDE.id }));
  });

  it('a team whose store has nothing waiting, or has none at all, is not listed', async () => {
    const user = newUserKey();
    const main = storeOf({ user, team: MAIN.id });
    await storeOf({ user, team: HARBOR.id }).open();
    expect(await changesWaitingElsewhere(main, user, MAIN.id, [MAIN, HARBOR, BAYSIDE])).toEqual([]);
  });

  it('one change reads as one', () => {
    expect(waitingSentence({ team: HARBOR, count: 1 })).toBe('1 change waits for Harbor Wealth Partners');
    expect(switchToSend({ team: HARBOR, count: 1 })).toBe('Switch to Harbor Wealth Partners and send it');
  });
});
