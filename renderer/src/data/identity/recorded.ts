// The identity a store recorded when it was first opened (identity/index.ts), read once per open
// database: a store's identity never changes (its name is made from it), so the change module and
// the sync ask here instead of reading the meta row for every change.

import type { AdvisorDb } from '../db.ts';
import { readStoreIdentity, type StoreIdentity } from './index.ts';

const recorded = new WeakMap<AdvisorDb, StoreIdentity>();

/**
 * The store's identity, or null while it has none recorded (a store of an earlier version not
 * adopted yet). Inside a transaction it reads `meta`, which must then be in the transaction.
 */
export async function recordedIdentity(db: AdvisorDb): Promise<StoreIdentity | null> {
  const known = recorded.get(db);
  if (known) return known;
  const identity = await readStoreIdentity(db);
  // Not remembered while absent: the store may be adopted (its identity written) later.
  if (identity) recorded.set(db, identity);
  return identity;
}

/**
 * The identity the sync works under: the signed-in one where the app says who that is
 * (`signedIn`: null while nobody is), else the store's own (one user in one team: Node tests, the
 * chaos runner). The push sends only operations stamped with it; the pulls write only when it is
 * the store's.
 */
export async function syncingIdentity(
  db: AdvisorDb,
  signedIn?: () => StoreIdentity | null,
): Promise<StoreIdentity | null> {
  return signedIn ? signedIn() : recordedIdentity(db);
}
