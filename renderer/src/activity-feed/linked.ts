// A page of the feed as a screen shows it: read live from the store, then each entry given the
// account it names (read again when a sync ends, as a pull may have brought the account).

import { shallowRef, watch, type ShallowRef } from 'vue';
import { useSyncStore } from '../common/sync.ts';
import type { AdvisorDb } from '../data/db.ts';
import { withAccounts, type EntryPage } from './feed.ts';

export function useLinkedPage(
  db: AdvisorDb,
  page: ShallowRef<EntryPage | undefined>,
): ShallowRef<EntryPage | undefined> {
  const sync = useSyncStore();
  const linked = shallowRef<EntryPage | undefined>(undefined);
  let asked = 0;
  watch(
    [page, () => sync.phase, () => sync.lastSyncedAt],
    async () => {
      const read = page.value;
      const mine = ++asked;
      if (!read) return;
      // Shown at once without links; the links follow.
      if (!linked.value) linked.value = read;
      const done = await withAccounts(db, read).catch(() => read);
      if (mine === asked) linked.value = done;
    },
    { immediate: true },
  );
  return linked;
}
