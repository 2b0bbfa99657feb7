// This computer's copy of the advisor's data, removed when they ask at sign-out. The one place that
// removes it: every store of the signed-out user (one per team of theirs, identity/index.ts) and the
// documents the main process keeps for them for offline viewing.

import { removeUserStores } from './current-store.ts';

/**
 * Deletes every store of `user` (a user key): every account, section, queued change and setting
 * kept here for any of their teams, then their downloaded documents. Called once signed out, when
 * the screens that read the open store are closed; another user's data is never touched. Throws,
 * saying what is left, when the documents could not be removed.
 */
export async function removeLocalCopy(
  user: string,
  /** The main process's side (`bridge().files.forgetUser`): the documents are on its disk. */
  forgetDocuments: (user: string) => Promise<{ ok: true } | { ok: false; message: string }>,
): Promise<void> {
  await removeUserStores(user);
  const documents = await forgetDocuments(user);
  if (!documents.ok) throw new Error(documents.message);
}
