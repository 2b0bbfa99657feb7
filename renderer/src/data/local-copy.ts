// This computer's copy of the advisor's data, removed when they ask at sign-out. The one place that
// removes it, whatever the copy is made of: one database today, one per (platform, user, team)
// once the stores are per identity.

import { localDb } from './instance.ts';

/**
 * Closes and deletes the local database: every account, section, queued change and setting kept
 * here. Called once the screens that read it are closed; the next sign-in starts an empty one
 * (Dexie opens it again on the first query).
 */
export async function removeLocalCopy(): Promise<void> {
  await localDb().delete({ disableAutoOpen: false });
}
