// Asking the platform for activity older than what is stored (the feed's or an account's): one
// page at a time, what the last ask found (the end of the list, a failure), reset when the list
// asked for changes (another type or account).

import { ref, watch, type Ref, type WatchSource } from 'vue';
import { olderActivity } from '../common/pulls.ts';

export type OlderState = 'idle' | 'asking' | 'end' | 'failed';

/**
 * `ask()` names the list (its type, its account); `arrived` runs when a page came, so that the
 * screen reads further into the store.
 */
export function useOlderActivity(
  ask: () => { type?: string; accountId?: string },
  arrived: () => void,
  resetOn: WatchSource[],
): { older: Ref<OlderState>; fetchOlder: () => Promise<void> } {
  const older = ref<OlderState>('idle');
  watch(resetOn, () => (older.value = 'idle'));
  async function fetchOlder() {
    if (older.value === 'asking') return;
    older.value = 'asking';
    const asked = ask();
    const found = await olderActivity(asked).catch(() => 'failed' as const);
    const now = ask();
    // Another list by now: what came is in the store, the screen shows the new one.
    if (now.type !== asked.type || now.accountId !== asked.accountId) return;
    older.value = found === 'end' || found === 'failed' ? found : 'idle';
    if (found === 'more') arrived();
  }
  return { older, fetchOlder };
}
