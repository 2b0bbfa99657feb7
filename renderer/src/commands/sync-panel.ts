// Whether the sync panel is open: the sync status in the frame opens it, and so may any screen
// that points at what waits to be sent or fixed (Home).

import { ref } from 'vue';

export const syncPanelOpen = ref(false);

export function openSyncPanel(): void {
  syncPanelOpen.value = true;
}
