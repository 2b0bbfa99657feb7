// The app's one local database. Screens and stores ask for it here; tests open their own.

import { AdvisorDb } from './db.ts';

let current: AdvisorDb | null = null;

/** The app's database, created on first use (Dexie opens it on the first query). */
export function localDb(): AdvisorDb {
  current ??= new AdvisorDb();
  return current;
}

/** For tests and tools: use this database from now on. */
export function useLocalDb(db: AdvisorDb): void {
  current = db;
}
