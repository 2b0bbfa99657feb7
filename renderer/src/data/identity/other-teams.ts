// Changes queued under the user's other teams (issue 12). Each team has a store of its own, and a
// change made in one waits there until that team is current again: the sync panel counts them, so
// that the advisor knows they wait and can switch to send them, and sign-out names them before
// this computer's copy (every team's store) is removed.

import Dexie from 'dexie';
import type { AdvisorDb } from '../db.ts';
import { userStores } from './store-names.ts';
import { platformPlain } from '@shared/platform-text.ts';

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
 * The user's other teams whose store holds unsent changes, in the order of `teams`: those the
 * advisor can switch to, to send them. `like` is the store open now: the others are looked for in
 * the same IndexedDB. A team without a store (never opened on this computer) is not created by looking.
 */
export async function changesWaitingElsewhere(
  like: AdvisorDb,
  user: string,
  current: number | null,
  teams: readonly TeamRef[],
): Promise<WaitingTeam[]> {
  const waiting = await changesInOtherStores(like, user, current, teams);
  return waiting.filter((w) => teams.some((t) => t.id === w.team.id));
}

/**
 * Every store of the user's but the current team's that holds unsent changes: what removing this
 * computer's copy (local-copy.ts) loses besides the current team's. The teams `teams` lists come
 * first, in its order, then any other (a team the user has left), named by its id.
 */
export async function changesInOtherStores(
  like: AdvisorDb,
  user: string,
  current: number | null,
  teams: readonly TeamRef[],
): Promise<WaitingTeam[]> {
  const waiting: WaitingTeam[] = [];
  for (const store of await userStores(user, like._options)) {
    if (store.team === current) continue;
    const count = await unsentIn(like, store.name);
    const team = teams.find((t) => t.id === store.team) ?? { id: store.team, name: `team ${store.team}` };
    if (count > 0) waiting.push({ team, count });
  }
  const order = (w: WaitingTeam) => {
    const i = teams.findIndex((t) => t.id === w.team.id);
    return i === -1 ? teams.length + w.team.id : i;
  };
  return waiting.sort((a, b) => order(a) - order(b));
}

/** The operations in a store's outbox (every one of them is unsent). */
async function unsentIn(like: AdvisorDb, name: string): Promise<number> {
  const { indexedDB, IDBKeyRange } = like._options;
  // Opened as it is (no schema declared): not upgraded by being counted.
  const store = new Dexie(name, { indexedDB, IDBKeyRange, addons: [] });
  try {
    await store.open();
    return store.tables.some((t) => t.name === 'outbox') ? await store.table('outbox').count() : 0;
  } finally {
    store.close();
  }
}

/** "3 changes wait for Harbor Wealth Partners". */
export function waitingSentence({ team, count }: WaitingTeam): string {
  const name = platformPlain(team.name);
  return count === 1 ? `1 change waits for ${name}` : `${count} changes wait for ${name}`;
}

/** The way to send them: "Switch to Harbor Wealth Partners and send them". */
export function switchToSend({ team, count }: WaitingTeam): string {
  return `Switch to ${platformPlain(team.name)} and send ${count === 1 ? 'it' : 'them'}`;
}
