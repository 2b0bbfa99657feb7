// Changes queued under the user's other teams (issue 12). Each team has a store of its own, and a
// change made in one waits there until that team is current again: the sync panel counts them, so
// that the advisor knows they wait and can switch to send them.

import Dexie from 'dexie';
import type { AdvisorDb } from './db.ts';
import { storeName } from './identity.ts';

export interface TeamRef {
  id: number;
  name: string;
}

/** A team other than the current one, and how many changes wait in its store. */
export interface WaitingTeam {
  team: TeamRef;
  count: number;
}

/**
 * The user's other teams whose store holds unsent changes, in the order of `teams`. `like` is the
 * store open now: the others are looked for in the same IndexedDB. A team without a store (never
 * opened on this computer) is not created by looking.
 */
export async function changesWaitingElsewhere(
  like: AdvisorDb,
  user: string,
  current: number | null,
  teams: readonly TeamRef[],
): Promise<WaitingTeam[]> {
  const waiting: WaitingTeam[] = [];
  for (const team of teams) {
    if (team.id === current) continue;
    const count = await unsentIn(like, storeName({ user, team: team.id }));
    if (count > 0) waiting.push({ team, count });
  }
  return waiting;
}

/** The operations in a store's outbox (every one of them is unsent); 0 when there is no such store. */
async function unsentIn(like: AdvisorDb, name: string): Promise<number> {
  const { indexedDB, IDBKeyRange } = like._options;
  // Opened as it is (no schema declared): neither created nor upgraded by being counted.
  const store = new Dexie(name, { indexedDB, IDBKeyRange, addons: [] });
  try {
    await store.open();
  } catch (error) {
    if (error instanceof Dexie.NoSuchDatabaseError) return 0;
    throw error;
  }
  try {
    return store.tables.some((t) => t.name === 'outbox') ? await store.table('outbox').count() : 0;
  } finally {
    store.close();
  }
}

/** "3 changes wait for Harbor Wealth Partners". */
export function waitingSentence({ team, count }: WaitingTeam): string {
  return count === 1 ? `1 change waits for ${team.name}` : `${count} changes wait for ${team.name}`;
}

/** The way to send them: "Switch to Harbor Wealth Partners and send them". */
export function switchToSend({ team, count }: WaitingTeam): string {
  return `Switch to ${team.name} and send ${count === 1 ? 'it' : 'them'}`;
}
