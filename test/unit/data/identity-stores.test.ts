// One local store per identity (platform, user, team): two users never see each other's rows, a
// store that recorded another identity is refused, the single database of earlier versions is
// adopted only by the user and team it kept, and removing a user's data removes every team's store.

import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { STORES_V1, STORES_V2, STORES_V3, STORES_V4 } from '../../../renderer/src/data/migrations/index.ts';
import {
  IDENTITY_META_KEY,
  platformUserId,
  readStoreIdentity,
  storeName,
  userKey,
  type StoreIdentity,
} from '../../../renderer/src/data/identity/index.ts';
import {
  StoreOfAnotherIdentity,
  closeLocalDb,
  hasLocalDb,
  localDb,
  openStore,
  removeUserStores,
  useIdentityStore,
} from '../../../renderer/src/data/identity/current-store.ts';
import { LEGACY_STORE } from '../../../renderer/src/data/identity/legacy-store.ts';
import { storeNames } from '../../../renderer/src/data/identity/store-names.ts';
import type { Operation } from '../../../renderer/src/data/model.ts';
import { clientFields, fakeIdb, queuedOperation, syncedAccount } from '../../support/store.ts';

const PLATFORM = 'http://127.0.0.1:4010/api/v2';
const ADVISOR = 'advisor@sandbox.test';
const ASSISTANT = 'assistant@sandbox.test';
const opts = (userId?: number | string) => ({ dexie: fakeIdb, ...(userId === undefined ? {} : { userId }) });

afterEach(async () => {
  closeLocalDb();
  for (const name of await storeNames(fakeIdb)) await new Dexie(name, fakeIdb).delete();
});

async function identity(userId: number | string, team: number): Promise<StoreIdentity> {
  return { user: await userKey(PLATFORM, userId), team };
}

describe('a store per identity', () => {
  it('names a store from a hash: no email, another platform or user or team gives another store', async () => {
    const advisor = await identity(1, 2);
    expect(storeName(advisor)).toMatch(/^advisor-desk-[0-9a-f]{32}-t2$/);
    expect(storeName(await identity(1, 1))).not.toBe(storeName(advisor));
    expect(storeName(await identity(2, 2))).not.toBe(storeName(advisor));
    expect(storeName({ user: await userKey('https://platform.example.com/api/v2', 1), team: 2 })).not.toBe(
      storeName(advisor),
    );
    // A trailing slash on the address is the same platform.
    expect(await userKey(`${PLATFORM}/`, 1)).toBe(advisor.user);
    // Where the platform gives no id, the email stands in (in any case), hashed: never in the name.
    const byEmail = storeName(await identity('Advisor@Sandbox.test', 2));
    expect(byEmail).toBe(storeName(await identity(ADVISOR, 2)));
    expect(byEmail).not.toContain('sandbox');
    expect(platformUserId({ email: ' Advisor@Sandbox.test ', first_name: 'Alex' })).toBe(ADVISOR);
    expect(platformUserId({ id: 7, email: ADVISOR })).toBe(7);
    expect(platformUserId({ first_name: 'Alex' })).toBeNull();
  });

  it('two users on one computer never see each other’s rows', async () => {
    const advisor = await identity(1, 2);
    const assistant = await identity(3, 1);
    const first = await useIdentityStore(advisor, opts(1));
    await syncedAccount(first, 501, clientFields('Harbor'));
    await first.outbox.add(queuedOperation('op-advisor'));
    closeLocalDb();
    expect(hasLocalDb()).toBe(false);
    expect(() => localDb()).toThrow(/No local store is open/);

    const second = await useIdentityStore(assistant, opts(3));
    expect(localDb()).toBe(second);
    expect(await second.accounts.count()).toBe(0);
    expect(await second.outbox.count()).toBe(0);
    expect(await readStoreIdentity(second)).toEqual(assistant);

    // The advisor's store is still there, as they left it.
    const again = await useIdentityStore(advisor, opts(1));
    expect(await again.accounts.count()).toBe(1);
    expect((await again.outbox.toArray()).map((op) => op.id)).toEqual(['op-advisor']);
    expect(second.isOpen()).toBe(false);
  });

  it('records the identity when first opened and refuses a store that recorded another one', async () => {
    const advisor = await identity(1, 2);
    const db = await openStore(advisor, opts());
    expect(await db.meta.get(IDENTITY_META_KEY)).toEqual({ key: IDENTITY_META_KEY, value: advisor });
    db.close();

    // A database under the advisor's name that says it is someone else's (copied, tampered with).
    const other = await identity(9, 2);
    const forged = new Dexie(storeName(advisor), fakeIdb);
    forged.version(1).stores({ meta: 'key' });
    await forged.open();
    await forged.table('meta').put({ key: IDENTITY_META_KEY, value: other });
    forged.close();
    await expect(openStore(advisor, opts())).rejects.toBeInstanceOf(StoreOfAnotherIdentity);
    await expect(useIdentityStore(advisor, opts())).rejects.toThrow(/belongs to another user or team/);
    expect(hasLocalDb()).toBe(false);
  });

  it('removes every store of one user, each team’s, and nobody else’s', async () => {
    const inMainStreet = await identity(1, 1);
    const inHarbor = await identity(1, 2);
    const assistant = await identity(3, 1);
    (await openStore(inMainStreet, opts())).close();
    (await openStore(assistant, opts())).close();
    await useIdentityStore(inHarbor, opts());
    const removed = await removeUserStores(inHarbor.user, fakeIdb);
    expect(removed.sort()).toEqual([storeName(inMainStreet), storeName(inHarbor)].sort());
    expect(hasLocalDb()).toBe(false);
    expect(await storeNames(fakeIdb)).toEqual([storeName(assistant)]);
  });
});

describe('the single database of earlier versions', () => {
  /** The database of version 4, as the advisor left it: their user, a synced account, an unsent change. */
  async function legacyOf(email: string, team: number): Promise<void> {
    const old = new Dexie(LEGACY_STORE, fakeIdb);
    old.version(1).stores(STORES_V1);
    old.version(2).stores(STORES_V2);
    old.version(3).stores(STORES_V3);
    old.version(4).stores(STORES_V4);
    await old.open();
    await old.table('user').put({
      api: 'v2',
      pulledAt: 1,
      // As the platform gives it: no id (neither document lists one), the email the user signs in with.
      data: { email, first_name: 'Alex', team: { id: team, name: 'Harbor Wealth Partners' } },
      lists: [],
    });
    await old
      .table('accounts')
      .put({ id: 'acc-1', serverId: 501, fields: { type: 'CLIENT' }, status: 'synced' });
    await old.table('outbox').add(queuedOperation('op-old'));
    await old.table('meta').put({ key: 'watermark.accounts', value: '2026-01-01T00:00:00Z' });
    old.close();
  }

  it('is adopted by the user and team it kept: every row copied, queued changes stamped, then deleted', async () => {
    await legacyOf('Advisor@Sandbox.test', 2);
    const advisor = await identity(ADVISOR, 2);
    const db = await useIdentityStore(advisor, opts(ADVISOR));
    expect((await db.accounts.toArray()).map((a) => a.serverId)).toEqual([501]);
    const [op] = await db.outbox.toArray();
    expect(op).toMatchObject({ id: 'op-old', state: 'queued', identity: advisor });
    expect(await db.meta.get('watermark.accounts')).toMatchObject({ value: '2026-01-01T00:00:00Z' });
    expect(await readStoreIdentity(db)).toEqual(advisor);
    expect(await storeNames(fakeIdb)).not.toContain(LEGACY_STORE);
  });

  it('is left untouched (never opened as a store) for another user, or the same user in another team', async () => {
    await legacyOf(ADVISOR, 2);
    const before = await rawVersion();
    for (const [who, userId] of [
      [await identity(ASSISTANT, 2), ASSISTANT],
      [await identity(ADVISOR, 1), ADVISOR],
    ] as const) {
      const db = await useIdentityStore(who, opts(userId));
      expect(await db.accounts.count()).toBe(0);
      expect(await db.outbox.count()).toBe(0);
    }
    expect(await storeNames(fakeIdb)).toContain(LEGACY_STORE);
    // Not upgraded either: still the schema the earlier version wrote, its change still queued.
    expect(await rawVersion()).toBe(before);
    const raw = new Dexie(LEGACY_STORE, fakeIdb);
    await raw.open();
    expect((await raw.table('outbox').toArray()).map((op: Operation) => op.identity)).toEqual([undefined]);
    raw.close();
  });

  async function rawVersion(): Promise<number> {
    const raw = new Dexie(LEGACY_STORE, fakeIdb);
    await raw.open();
    const version = raw.verno;
    raw.close();
    return version;
  }
});
