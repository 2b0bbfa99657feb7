// Sign-out with changes waiting in the advisor's other teams (issue 12): removing this computer's
// copy removes every team's store, so the dialog counts and names what waits in each of them,
// read from the real stores (fake-indexeddb), and the second confirmation says it is lost.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRecord } from '../../../renderer/src/data/changes/index.ts';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import { storeName, type StoreIdentity } from '../../../renderer/src/data/identity/index.ts';
import {
  closeLocalDb,
  removeUserStores,
  useLocalDb,
} from '../../../renderer/src/data/identity/current-store.ts';
import { changesInOtherStores } from '../../../renderer/src/data/identity/other-teams.ts';
import { storeNames } from '../../../renderer/src/data/identity/store-names.ts';
import { SignOutFlow, elsewhereNote, elsewhereWay } from '../../../renderer/src/shell/sign-out.ts';
import { clientFields, fakeIdb, newUserKey, openIdentityDb } from '../../support/store.ts';

const MAIN = { id: 1, name: 'Main Street Advisors' };
const HARBOR = { id: 2, name: 'Harbor Wealth Partners' };
/** The user's teams as the platform lists them now (team 9, which they left, is not among them). */
const TEAMS = [MAIN, HARBOR];

let user: string;
let main: AdvisorDb;
let opened: AdvisorDb[];

async function store(identity: StoreIdentity): Promise<AdvisorDb> {
  const db = await openIdentityDb(identity);
  opened.push(db);
  return db;
}

async function queue(db: AdvisorDb, ...names: string[]): Promise<AdvisorDb> {
  for (const name of names) await createRecord(db, 'accounts', { fields: clientFields(name) });
  return db;
}

beforeEach(async () => {
  opened = [];
  user = newUserKey();
  main = await store({ user, team: MAIN.id });
  useLocalDb(main);
  await queue(main, 'Here');
  // Not open: their teams are not current.
  (await queue(await store({ user, team: HARBOR.id }), 'Ann', 'Bea')).close();
  (await queue(await store({ user, team: 9 }), 'Cy')).close();
});
afterEach(async () => {
  closeLocalDb();
  for (const db of opened) await db.delete();
});

/** The dialog's flow as the app wires it: the open store is Main Street's; sending sends its queue. */
function flow(): { flow: SignOutFlow; done: string[] } {
  const done: string[] = [];
  let unsent = 1;
  const made = new SignOutFlow({
    unsent: () => unsent,
    waitingElsewhere: () => changesInOtherStores(main, user, MAIN.id, TEAMS),
    online: () => true,
    async sendUnsent(left) {
      // The push sends the open store's queue, and only it (its operations carry its team).
      await main.outbox.clear();
      unsent = await main.outbox.count();
      left(unsent);
      return unsent;
    },
    signOut: () => Promise.resolve(null),
    leave: () => Promise.resolve(),
    async removeLocalCopy() {
      done.push('remove');
      await removeUserStores(user, fakeIdb);
    },
  });
  return { flow: made, done };
}

describe('signing out with changes waiting in other teams', () => {
  it('counts and names each other team’s unsent changes, a team the user left by its id', async () => {
    const { flow: f } = flow();
    await f.load();
    expect(f.unsent).toBe(1);
    expect(f.unsentEverywhere).toBe(4);
    expect(elsewhereNote(f.elsewhere)).toBe(
      '2 changes for Harbor Wealth Partners and 1 change for team 9 are not sent.',
    );
    expect(elsewhereWay(f.elsewhere)).toBe(
      'They are kept here and sent when their team is your current team.',
    );
  });

  it('the second confirmation names what is lost in every team, and then every store of the user goes', async () => {
    const someoneElse = await store({ user: newUserKey(), team: HARBOR.id });
    await queue(someoneElse, 'Dee');
    const { flow: f, done } = flow();
    f.removeCopy = true;
    // Asked before the dialog read the other stores: they are read before the question is put.
    expect(await f.confirm()).toBe(false);
    expect(f.step).toBe('confirm-removal');
    expect(f.loss).toMatch(
      /The 1 change that has not reached the platform will be lost for good\. 2 changes for Harbor Wealth Partners and 1 change for team 9 are not sent\. They will be lost for good too\.$/,
    );
    expect(done).toEqual([]);

    expect(await f.confirm()).toBe(true);
    expect(done).toEqual(['remove']);
    const left = await storeNames(fakeIdb);
    for (const team of [MAIN.id, HARBOR.id, 9]) expect(left).not.toContain(storeName({ user, team }));
    // Another user's store, same team, is not theirs to remove.
    expect(left).toContain(someoneElse.name);
    expect(await someoneElse.outbox.count()).toBe(1);
  });

  it('"send them first" sends the current team’s; the other teams’ are still named before removal', async () => {
    const { flow: f } = flow();
    await f.load();
    f.removeCopy = true;
    expect(f.canSendFirst).toBe(true);
    expect(await f.sendFirst()).toBe(false);
    expect(f.step).toBe('confirm-removal');
    expect(f.unsent).toBe(0);
    expect(f.loss).toMatch(
      /sign-in\. 2 changes for Harbor Wealth Partners and 1 change for team 9 are not sent\. They will be lost for good\.$/,
    );
  });

  it('with one other team only: named alone, and when it sends them', async () => {
    const { flow: f } = flow();
    await f.load();
    const harbor = f.elsewhere.filter((w) => w.team.id === HARBOR.id);
    expect(elsewhereNote(harbor)).toBe('2 changes for Harbor Wealth Partners are not sent.');
    expect(elsewhereWay(harbor)).toBe(
      'They are kept here and sent when Harbor Wealth Partners is your current team.',
    );
  });
});
