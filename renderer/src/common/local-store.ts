// Which identity's local store is open (data/identity.ts), as the frame sees it: the identity, a
// generation that moves whenever another store opens or the open one closes (screens read
// `localDb()` when they are made: the frame re-makes them when it moves), and why none is open.
// State only: lifecycle.ts opens and closes the store, in its order with the session and the sync.

import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { StoreIdentity } from '@shared/auth.ts';
import { sameIdentity } from '../data/identity/index.ts';
import { hasLocalDb } from '../data/identity/current-store.ts';

export const NEEDS_PLATFORM_NOTE =
  'Advisor Desk needs the platform once to finish signing you in: it learns who you are and which team you work in, and opens your data on this computer. It goes on by itself when the connection is back.';

export const useLocalStore = defineStore('localStore', () => {
  /** The identity whose store is open; null when none is. */
  const identity = ref<StoreIdentity | null>(null);
  /** Moves whenever another store opens (or the open one closes): the screens are made anew. */
  const generation = ref(0);
  /** Signed in, but the identity is not known yet and the platform cannot be reached. */
  const needsPlatform = ref(false);
  /** Why the store could not be opened, in plain words. */
  const problem = ref<string | null>(null);

  /** Whether the store of `which` is the one open now. */
  const isOpen = (which: StoreIdentity) => sameIdentity(identity.value, which) && hasLocalDb();

  /** The store of `next` opened: the screens are made anew over it. */
  function opened(next: StoreIdentity): void {
    identity.value = next;
    problem.value = null;
    needsPlatform.value = false;
    generation.value++;
  }

  /** No store is open any more (closed, or one failed to open). */
  function closed(): void {
    if (identity.value) generation.value++;
    identity.value = null;
  }

  return { identity, generation, needsPlatform, problem, isOpen, opened, closed };
});
