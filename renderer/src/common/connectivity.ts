// Whether the app can reach the platform: the system's network state, and what the last request
// to the platform showed (a network may be up while the platform is not, and the system may think
// it is up when it is not).

import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { connectionOf, reachShownBy, type Connection } from '@shared/api/connection.ts';
import type { ApiResult } from '@shared/api/request.ts';

export type { Connection };

export const useConnectivityStore = defineStore('connectivity', () => {
  /**
   * What the system says (navigator.onLine and its events); where it says nothing (Node 21+ has a
   * navigator without onLine: the tests' runtime) the network counts as up, as in the coordinator.
   */
  const networkUp = ref(typeof navigator === 'undefined' ? true : (navigator.onLine ?? true));
  const platformAnswered = ref(true);
  /** The last request failed for want of a network (Reach.noWayOut in @shared/api/connection.ts). */
  const noWayOut = ref(false);

  const state = computed<Connection>(() =>
    connectionOf({
      systemOnline: networkUp.value,
      noWayOut: noWayOut.value,
      platformSilent: !platformAnswered.value,
    }),
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
    const shown = reachShownBy(result);
    platformAnswered.value = !shown.platformSilent;
    noWayOut.value = shown.noWayOut;
  }

  return { networkUp, platformAnswered, noWayOut, state, listen, observe };
});
