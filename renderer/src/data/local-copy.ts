// This computer's copy of the advisor's data, removed when they ask at sign-out. The one place that
// removes it: every store of the signed-out user (one per team of theirs, data/identity.ts).

import { removeUserStores } from './instance.ts';

/**
 * Deletes every store of `user` (a user key): every account, section, queued change and setting
 * kept here for any of their teams. Called once signed out, when the screens that read the open
 * store are closed; another user's stores are never touched.
 */
export async function removeLocalCopy(user: string): Promise<void> {
  await removeUserStores(user);
}
