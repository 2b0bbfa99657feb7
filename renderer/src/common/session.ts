// The signed-in session as the screens see it: sign-in state per interface, the platform user and
// their team, the sign-in flow in progress, and sign-out.

import { defineStore } from 'pinia';
import { computed, ref, watch } from 'vue';
import type { ApiFailure } from '@shared/api/request.ts';
import type { AuthStatus, SignInTarget } from '@shared/auth.ts';
import type { SignOutResult } from '@shared/bridge.ts';
import { readWire } from '@shared/wire/parse.ts';
import { User } from '@shared/wire/v2/user.ts';
import { localDb } from '../data/instance.ts';
import { CONFIG_KEYS, configEntry } from '../data/queries.ts';
import { forgetPins } from '../sync/pins.ts';
import { bridge } from './bridge.ts';
// eslint-disable-next-line import-x/no-cycle -- removed by the lifecycle work
import { useLocalStore } from './local-store.ts';
// eslint-disable-next-line import-x/no-cycle -- removed by the lifecycle work
import { useSyncStore } from './sync.ts';
import { fetchUser, switchTeam as requestSwitch, type PlatformUser } from './platform.ts';
import { useConnectivityStore } from './connectivity.ts';

export type SignInPhase = 'idle' | 'waiting' | 'finishing';

/** An exception's message as a sentence, to go on with more. */
function sentenceOf(cause: unknown): string {
  const text = cause instanceof Error ? cause.message.trim() : '';
  if (text === '') return 'Advisor Desk did not answer.';
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

const UNREACHABLE = new Set<ApiFailure['kind']>(['network', 'timeout']);

/** A bridge call that threw (the preview host gone, say) counts as no answer from the platform. */
function unreachable(cause: unknown): ApiFailure {
  return {
    ok: false,
    kind: 'network',
    status: null,
    message: cause instanceof Error ? cause.message : String(cause),
    fields: {},
    retryAfterMs: null,
  };
}

export const useSessionStore = defineStore('session', () => {
  const status = ref<AuthStatus | null>(null);
  const user = ref<PlatformUser | null>(null);
  const phase = ref<SignInPhase>('idle');
  const flowId = ref<string | null>(null);
  const signInUrl = ref<string | null>(null);
  const error = ref<string | null>(null);
  /** The error says the platform could not be reached: it goes once the platform answers again. */
  const errorIsUnreachable = ref(false);
  /** The user shown is the copy kept on this computer (the platform was not reached this run). */
  const userIsKept = ref(false);
  const switching = ref(false);
  const connectivity = useConnectivityStore();
  /** Why the team cannot be switched now, or null. */
  const switchReason = computed(() =>
    connectivity.state === 'online'
      ? null
      : 'Switching teams needs the platform; it is possible again once the connection is back.',
  );

  function setError(failure: ApiFailure | null): void {
    error.value = failure ? describe(failure) : null;
    errorIsUnreachable.value = failure !== null && UNREACHABLE.has(failure.kind);
  }

  // Any answer of the platform (a later request, the connection back) ends "cannot be reached".
  watch(
    () => connectivity.state,
    (state) => {
      if (state === 'online' && errorIsUnreachable.value) setError(null);
    },
  );

  // PINs are kept for one user in one team: another user or team (however it came) forgets them.
  watch(
    () => [user.value?.id ?? null, user.value?.team?.id ?? null] as const,
    ([id, team], [wasId, wasTeam]) => {
      if (id !== wasId || team !== wasTeam) forgetPins();
    },
  );

  const signedIn = computed(() => Boolean(status.value?.v2.signedIn && status.value.v0.signedIn));
  const displayName = computed(() =>
    user.value ? `${user.value.first_name} ${user.value.last_name}`.trim() : '',
  );

  async function refreshStatus(): Promise<AuthStatus> {
    status.value = await bridge().auth.status();
    return status.value;
  }

  function describe(failure: ApiFailure): string {
    if (failure.kind === 'auth')
      return 'Your sign-in has expired. Sign in again; nothing you entered is lost.';
    if (failure.kind === 'network' || failure.kind === 'timeout')
      return 'The platform cannot be reached right now. Check the connection and try again.';
    return failure.message;
  }

  async function loadUser(): Promise<boolean> {
    const result = await fetchUser().catch((e: unknown) => unreachable(e));
    connectivity.observe(result);
    if (result.ok) {
      user.value = result.data;
      userIsKept.value = false;
      setError(null);
      // The platform says who is signed in and in which team: that identity's store is the one open.
      await useLocalStore().follow(result.data);
      return true;
    }
    if (UNREACHABLE.has(result.kind)) {
      // Offline: the user as last pulled keeps the frame whole (name, avatar, teams); the platform
      // is asked again once it answers (see `whenReachable`).
      if (await showKeptUser()) {
        setError(null);
        return true;
      }
    }
    setError(result);
    if (result.kind === 'auth') await refreshStatus();
    return false;
  }

  /**
   * Shows the user the last configuration pull kept on this computer, when no fresher one is
   * loaded. True when there is one to show. The app frame calls it again once the local store is
   * open, should the first read have failed.
   */
  async function showKeptUser(): Promise<boolean> {
    if (user.value) return true;
    const kept = await keptUser();
    if (!kept || user.value) return Boolean(user.value);
    user.value = kept;
    userIsKept.value = true;
    return true;
  }

  /** The user resource the last configuration pull kept on this computer, if any. */
  async function keptUser(): Promise<PlatformUser | null> {
    try {
      const user = readWire(User, (await configEntry(localDb(), CONFIG_KEYS.user))?.data);
      return user?.first_name ? user : null;
    } catch (e) {
      console.warn('The user kept on this computer could not be read.', e);
      return null;
    }
  }

  /** Back online: the user is loaded again, so the team and a kept (possibly old) user are fresh. */
  async function whenReachable(): Promise<void> {
    if (connectivity.networkUp) await loadUser();
  }

  /** Starts a sign-in: the platform's page opens in the browser; resolves when it redirects back. */
  async function signIn(
    target: SignInTarget,
    open: (url: string) => void = (url) => window.open(url, '_blank', 'noopener'),
  ): Promise<boolean> {
    setError(null);
    phase.value = 'waiting';
    try {
      const start = await bridge().auth.beginSignIn(target);
      // A sign-in that cannot start says why (an address to correct, two sign-in servers …).
      if (!start.ok) {
        error.value = start.message;
        return false;
      }
      flowId.value = start.flowId;
      signInUrl.value = start.url;
      if (!start.openedExternally) open(start.url);
      const outcome = await bridge().auth.finishSignIn(start.flowId);
      status.value = outcome.status;
      if (!outcome.ok) {
        error.value = outcome.reason === 'cancelled' ? null : outcome.message;
        return false;
      }
      phase.value = 'finishing';
      return status.value.v2.signedIn && status.value.v0.signedIn ? await loadUser() : true;
    } catch (e) {
      error.value = (e as Error).message;
      return false;
    } finally {
      phase.value = 'idle';
      flowId.value = null;
      signInUrl.value = null;
    }
  }

  async function cancelSignIn(): Promise<void> {
    if (flowId.value) await bridge().auth.cancelSignIn(flowId.value);
  }

  /**
   * Signs out of both interfaces; false when the main process did not answer and the user is
   * still signed in. What went wrong is kept in `error`, in plain words.
   */
  async function signOut(): Promise<boolean> {
    let result: SignOutResult;
    try {
      result = await bridge().auth.signOut();
    } catch (e) {
      error.value = `Advisor Desk could not sign you out. ${sentenceOf(e)} Try signing out again.`;
      return false;
    }
    forgetPins();
    status.value = result.status;
    // The store closes with the session: nothing of this user's opens until the next identity.
    await useLocalStore().close();
    // Signed out either way; a saved sign-in left in the secret store is worth saying.
    error.value = result.ok ? null : result.message;
    user.value = null;
    userIsKept.value = false;
    return true;
  }

  /**
   * Switches team: syncing stops on this team's store first (nothing of it is sent once the
   * platform's team has changed), then the platform switches, the new team is bound to the
   * sign-in and its store opens and syncs (its list pulled at once). Refused, this team syncs on.
   */
  async function switchTeam(id: number): Promise<boolean> {
    if (user.value?.team?.id === id) return true;
    switching.value = true;
    const sync = useSyncStore();
    try {
      await sync.stop();
      const result = await requestSwitch(id).catch((e: unknown) => unreachable(e));
      connectivity.observe(result);
      if (!result.ok) {
        setError(result);
        await sync.start();
        return false;
      }
      forgetPins();
      user.value = result.data;
      userIsKept.value = false;
      return await useLocalStore().follow(result.data);
    } finally {
      switching.value = false;
    }
  }

  return {
    status,
    user,
    phase,
    signInUrl,
    error,
    errorIsUnreachable,
    userIsKept,
    switching,
    switchReason,
    signedIn,
    displayName,
    refreshStatus,
    whenReachable,
    loadUser,
    showKeptUser,
    signIn,
    cancelSignIn,
    signOut,
    switchTeam,
  };
});
