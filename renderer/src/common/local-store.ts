// Which identity's local store is open (data/identity.ts), following the session: at start-up the
// identity the main process keeps with the tokens (offline too), else the one the platform's user
// names once it is read; after a team switch the new team's. Never a store of another identity.
// Screens read `localDb()` when they are made: the frame re-makes them when `generation` moves.

import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { StoreIdentity } from '@shared/auth.ts';
import { platformUserId, sameIdentity, userKey } from '../data/identity.ts';
import { closeLocalDb, hasLocalDb, useIdentityStore } from '../data/instance.ts';
import { storageProblem } from '../data/storage.ts';
import { bridge } from './bridge.ts';
import type { PlatformUser } from './platform.ts';
// eslint-disable-next-line import-x/no-cycle -- removed by the lifecycle work
import { useSessionStore } from './session.ts';
import { useSettingsStore } from './settings.ts';
import { useSyncStore } from './sync.ts';

/** How entering the app went: a store is open, nobody is signed in, or the platform is needed first. */
export type Entry = 'open' | 'signed-out' | 'needs-platform' | 'failed';

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
  let opening: Promise<unknown> = Promise.resolve();

  /** The identity the platform's user names: this platform (the v2 base address), user and team. */
  async function identityOf(user: PlatformUser): Promise<StoreIdentity | null> {
    const team = user.team?.id;
    const id = platformUserId(user);
    if (typeof team !== 'number' || id === null) return null;
    const settings = useSettingsStore();
    const view = settings.view ?? (await settings.load());
    return { user: await userKey(view.profile.v2.baseUrl, id), team };
  }

  /**
   * Opens the store of `next` and syncs it: the coordinator stops on the store open before and
   * starts on this one. False when it cannot be opened (`problem` says why).
   */
  function open(next: StoreIdentity, userId?: number | string): Promise<boolean> {
    // One at a time: two answers of /user arriving together must not open a store twice.
    const run = opening.then(() => openNow(next, userId));
    opening = run.catch(() => undefined);
    return run;
  }

  async function openNow(next: StoreIdentity, userId?: number | string): Promise<boolean> {
    if (isOpen(next)) return true;
    const sync = useSyncStore();
    await sync.stop();
    try {
      await useIdentityStore(next, userId === undefined ? {} : { userId });
    } catch (error) {
      problem.value =
        storageProblem(error)?.message ?? (error instanceof Error ? error.message : String(error));
      closed();
      return false;
    }
    identity.value = next;
    problem.value = null;
    needsPlatform.value = false;
    generation.value++;
    return sync.start();
  }

  const isOpen = (which: StoreIdentity) => sameIdentity(identity.value, which) && hasLocalDb();

  /**
   * The platform's user, just read online: when it names another identity than the one bound
   * (first sign-in, another team or user chosen on another device), that one is bound and opened.
   */
  async function follow(user: PlatformUser): Promise<boolean> {
    const next = await identityOf(user);
    if (!next) return false;
    const session = useSessionStore();
    if (!sameIdentity(session.status?.identity, next)) {
      const bound = await bridge().auth.bindIdentity(next);
      session.status = bound.status;
      if (!bound.ok) return false;
    }
    return open(next, platformUserId(user) ?? undefined);
  }

  /**
   * The frame appears: signed in with an identity, its store opens at once (offline too); without
   * one, the platform's user is read first, and offline the app waits for it (`needsPlatform`).
   */
  async function enter(): Promise<Entry> {
    const session = useSessionStore();
    const status = await session.refreshStatus();
    if (!session.signedIn) return 'signed-out';
    if (status.identity) {
      // Back from signing in again to the same store: its syncing resumes (and catches up).
      const resumed = isOpen(status.identity);
      if (!(await open(status.identity))) return 'failed';
      if (resumed) await useSyncStore().start();
      // The kept user fills the frame; online, the platform's user may name another identity.
      if (!session.user || session.userIsKept) void session.loadUser();
      await session.showKeptUser();
      return 'open';
    }
    if (await session.loadUser()) return hasLocalDb() ? 'open' : 'failed';
    if (!session.signedIn) return 'signed-out';
    needsPlatform.value = session.errorIsUnreachable;
    return needsPlatform.value ? 'needs-platform' : 'failed';
  }

  function closed(): void {
    closeLocalDb();
    if (identity.value) generation.value++;
    identity.value = null;
  }

  /** Signed out: syncing stops and the store closes; nothing opens until the next identity. */
  async function close(): Promise<void> {
    await useSyncStore().stop();
    closed();
    needsPlatform.value = false;
    problem.value = null;
  }

  return { identity, generation, needsPlatform, problem, identityOf, open, follow, enter, close };
});
