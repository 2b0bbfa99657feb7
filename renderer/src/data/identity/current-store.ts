// The local database of the signed-in identity (identity/index.ts): one open at a time, opened for the
// identity the main process keeps with the tokens and closed at sign-out. Screens and stores ask
// for it here (`localDb`); between a sign-out and the next identity there is none. Tests open their
// own and hand it in (`useLocalDb`).

import { accountIndex } from '../account-index/index.ts';
import Dexie from 'dexie';
import { AdvisorDb } from '../db.ts';
import {
  IDENTITY_META_KEY,
  readStoreIdentity,
  sameIdentity,
  storeName,
  userStorePrefix,
  type StoreIdentity,
} from './index.ts';
import { pruneJournal } from '../journal.ts';
import { adoptLegacyStore, dropAdoptedLegacyStore } from './legacy-store.ts';
import { userStores, type DexieOptions } from './store-names.ts';

/** No store is open: nobody is signed in, or the identity is not known yet. */
export class NoStoreOpen extends Error {
  constructor() {
    super('No local store is open: the data on this computer opens once you are signed in.');
  }
}

/** The store of this name recorded another identity: it is never opened for this one. */
export class StoreOfAnotherIdentity extends Error {
  constructor(name: string) {
    super(`The local store ${name} belongs to another user or team; Advisor Desk did not open it.`);
  }
}

let current: AdvisorDb | null = null;

/** An app left open for days prunes the change journal once a day too, not only when a store opens. */
const PRUNE_EVERY_MS = 24 * 60 * 60 * 1000;
let pruning: ReturnType<typeof setInterval> | null = null;

function pruneDaily(): void {
  if (pruning !== null) return;
  pruning = setInterval(() => {
    if (current?.isOpen()) void pruneJournal(current, Date.now()).catch(() => undefined);
  }, PRUNE_EVERY_MS);
}

/** The open identity's database; throws NoStoreOpen when there is none. */
export function localDb(): AdvisorDb {
  if (!current) throw new NoStoreOpen();
  return current;
}

/** Whether a store is open now. */
export function hasLocalDb(): boolean {
  return current !== null;
}

/** For tests and tools: use this database from now on. */
export function useLocalDb(db: AdvisorDb): void {
  current = db;
}

export interface OpenStoreOptions {
  /**
   * The signed-in user on the platform (index.ts, `platformUserId`): the single database of
   * earlier versions is adopted only when it kept this user with the identity's team
   * (legacy-store.ts). Without it, never.
   */
  userId?: number | string;
  /** Another IndexedDB (fake-indexeddb in Node tests). */
  dexie?: DexieOptions;
}

/**
 * Opens the store of `identity`: a new one records the identity (after adopting the earlier
 * version's database when it is this identity's); one that recorded another identity is refused
 * with StoreOfAnotherIdentity and stays closed.
 */
export async function openStore(identity: StoreIdentity, options: OpenStoreOptions = {}): Promise<AdvisorDb> {
  const name = storeName(identity);
  const db = new AdvisorDb(name, options.dexie);
  try {
    await db.open();
    const recorded = await readStoreIdentity(db);
    if (recorded && !sameIdentity(recorded, identity)) throw new StoreOfAnotherIdentity(name);
    if (!recorded) await claim(db, identity, options);
    else await dropAdoptedLegacyStore(db, options.dexie);
    // The change journal keeps 90 days: what is older goes each time the store opens.
    await pruneJournal(db, Date.now());
    // The account list's index is read from the store now, while the screens mount.
    accountIndex(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/** A store opened for the first time: the earlier version's rows if they are its, and its identity. */
async function claim(db: AdvisorDb, identity: StoreIdentity, options: OpenStoreOptions): Promise<void> {
  const adopted =
    options.userId !== undefined && (await db.accounts.count()) === 0 && (await db.outbox.count()) === 0
      ? await adoptLegacyStore(db, identity, options.userId, options.dexie)
      : false;
  if (!adopted)
    await db.meta.put({ key: IDENTITY_META_KEY, value: { user: identity.user, team: identity.team } });
}

/**
 * Opens the store of `identity` and makes it the app's, closing the one open before (if it was
 * another). Until it resolves, `localDb` still answers the previous store.
 */
export async function useIdentityStore(
  identity: StoreIdentity,
  options: OpenStoreOptions = {},
): Promise<AdvisorDb> {
  if (current && current.name === storeName(identity) && current.isOpen()) return current;
  const db = await openStore(identity, options);
  const previous = current;
  current = db;
  previous?.close();
  pruneDaily();
  return db;
}

/** At sign-out: the open store is closed; `localDb` answers nothing until an identity opens one. */
export function closeLocalDb(): void {
  current?.close();
  current = null;
  if (pruning !== null) clearInterval(pruning);
  pruning = null;
}

/**
 * Deletes every store of one user (each of their teams), closing the open one first when it is
 * theirs: "remove this computer's copy of my data".
 */
export async function removeUserStores(user: string, dexie?: DexieOptions): Promise<string[]> {
  if (current?.name.startsWith(userStorePrefix(user))) closeLocalDb();
  const names = (await userStores(user, dexie)).map((store) => store.name);
  for (const name of names) await new Dexie(name, dexie).delete();
  return names;
}
