// Home's and Activity's pull of the advisor's records when shown (only when older than a few
// minutes: sync/coordinator/freshness.ts) and their Refresh (whatever their age).

import { ref, type Ref } from 'vue';
import { refreshAdvisorRecords } from './pulls.ts';

export function useAdvisorRefresh(what: () => { feed?: boolean; stats?: { start: string; end: string } }): {
  refreshing: Ref<boolean>;
  refresh: (force: boolean) => Promise<void>;
} {
  const refreshing = ref(false);
  async function refresh(force: boolean) {
    refreshing.value = true;
    await refreshAdvisorRecords({ ...what(), force })
      .catch(() => undefined)
      .finally(() => (refreshing.value = false));
  }
  void refresh(false);
  return { refreshing, refresh };
}
