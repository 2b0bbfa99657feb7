// Which local stores exist on this computer, read from the IndexedDB's list of databases without
// opening (or creating) any: the one check of whether a store is there, for the earlier versions'
// store (legacy-store.ts) and a user's team stores (current-store.ts, other-teams.ts).

import Dexie from 'dexie';
import type { AdvisorDb } from '../db.ts';
import { userStorePrefix } from './index.ts';

export type DexieOptions = ConstructorParameters<typeof AdvisorDb>[1];

/** The part of the IndexedDB factory that lists its databases. */
interface DatabaseList {
  databases(): Promise<{ name?: string }[]>;
}

/** The names of every database: in the IndexedDB given (tests), else Dexie's (the browser's). */
export async function storeNames(options: DexieOptions): Promise<string[]> {
  const factory = (options?.indexedDB ?? Dexie.dependencies.indexedDB) as unknown as DatabaseList;
  return (await factory.databases()).map((db) => db.name ?? '');
}

/** Whether a database of this name exists, without creating or opening it. */
export async function storeExists(name: string, options: DexieOptions): Promise<boolean> {
  return (await storeNames(options)).includes(name);
}

/** A store of one user's: its database name and the team it is for. */
export interface TeamStore {
  name: string;
  team: number;
}

/** Every store of `user` (a user key) on this computer, one per team they used here. */
export async function userStores(user: string, options: DexieOptions): Promise<TeamStore[]> {
  const prefix = userStorePrefix(user);
  return (await storeNames(options))
    .filter((name) => name.startsWith(prefix))
    .map((name) => ({ name, team: Number(name.slice(prefix.length)) }))
    .filter((store) => Number.isSafeInteger(store.team));
}
