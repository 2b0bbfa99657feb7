// The changes waiting under the user's other teams (data/identity/other-teams.ts), read for the status
// control and its panel: the control never says "All changes sent" while some wait for another team.

import { ref, watch, type Ref } from 'vue';
import { changesWaitingElsewhere, type WaitingTeam } from '../data/identity/other-teams.ts';
import type { AdvisorDb } from '../data/db.ts';
import { useSessionStore } from '../common/session.ts';
import { signedInIdentity } from '../common/signed-in-identity.ts';
import { useSyncStore } from '../common/sync.ts';

/** Read again when the team, the user's teams or what waits here change, and when `again` changes. */
export function useWaitingElsewhere(db: AdvisorDb, again: () => unknown): Ref<WaitingTeam[]> {
  const session = useSessionStore();
  const sync = useSyncStore();
  const elsewhere = ref<WaitingTeam[]>([]);
  let counting = 0;
  async function read() {
    const mine = ++counting;
    const user = signedInIdentity()?.user;
    const teams = session.user?.teams ?? [];
    const found = user
      ? await changesWaitingElsewhere(db, user, session.user?.team?.id ?? null, teams).catch(() => [])
      : [];
    if (mine === counting) elsewhere.value = found;
  }
  watch(
    () => [again(), session.user?.team?.id, session.user?.teams.length, sync.pendingCount] as const,
    () => void read(),
    { immediate: true },
  );
  return elsewhere;
}
