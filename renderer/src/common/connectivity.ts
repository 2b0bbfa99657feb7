// Whether the app can reach the platform: the system's network state, and what the last request
// to the platform showed (a network may be up while the platform is not).

import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { ApiResult } from '@shared/api/request.ts';

export type Connection = 'online' | 'offline' | 'unreachable';

export const useConnectivityStore = defineStore('connectivity', () => {
  const networkUp = ref(typeof navigator === 'undefined' ? true : navigator.onLine);
  const platformAnswered = ref(true);

  const state = computed<Connection>(() =>
    !networkUp.value ? 'offline' : platformAnswered.value ? 'online' : 'unreachable',
  );

  function listen(target: Window = window): void {
    target.addEventListener('online', () => (networkUp.value = true));
    target.addEventListener('offline', () => (networkUp.value = false));
  }

  /** Every platform answer tells whether the platform is reachable. */
  function observe(result: ApiResult): void {
    platformAnswered.value = result.ok || (result.kind !== 'network' && result.kind !== 'timeout');
  }

  return { networkUp, platformAnswered, state, listen, observe };
});
