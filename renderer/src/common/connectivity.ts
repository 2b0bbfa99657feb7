// Whether the app can reach the platform: the system's network state, and what the last request
// to the platform showed (a network may be up while the platform is not, and the system may think
// it is up when it is not).

import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { ApiResult } from '@shared/api/request.ts';

export type Connection = 'online' | 'offline' | 'unreachable';

export const useConnectivityStore = defineStore('connectivity', () => {
  /** What the system says (navigator.onLine and its events). */
  const networkUp = ref(typeof navigator === 'undefined' ? true : navigator.onLine);
  const platformAnswered = ref(true);
  /**
   * The last request failed for want of a network (no route out, no name server: the transport's
   * `network: 'down'`). The system's word is not enough: it says "online" on a network with no way
   * out, and a browser's offline emulation may not reach a page loaded while offline.
   */
  const noWayOut = ref(false);

  const state = computed<Connection>(() =>
    !networkUp.value || noWayOut.value ? 'offline' : platformAnswered.value ? 'online' : 'unreachable',
  );

  function listen(target: Window = window): void {
    target.addEventListener('online', () => {
      networkUp.value = true;
      // The system found a network since: what the last failure showed no longer holds.
      noWayOut.value = false;
    });
    target.addEventListener('offline', () => (networkUp.value = false));
  }

  /** Every platform answer tells whether the platform is reachable, and a failure sometimes why not. */
  function observe(result: ApiResult): void {
    platformAnswered.value = result.ok || (result.kind !== 'network' && result.kind !== 'timeout');
    noWayOut.value = !result.ok && result.kind === 'network' && result.network === 'down';
  }

  return { networkUp, platformAnswered, noWayOut, state, listen, observe };
});
