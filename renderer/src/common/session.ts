// The signed-in session as the screens see it: sign-in state per interface, the platform user and
// their team, the sign-in flow in progress, and what went wrong. State only, with the session's own
// sign-out of the tokens: the order of signing in, opening the store, syncing, switching team and
// signing out is lifecycle.ts's.

import { defineStore } from 'pinia';
import { computed, ref, watch } from 'vue';
import type { ApiFailure } from '@shared/api/request.ts';
import type { AuthStatus } from '@shared/auth.ts';
import type { SignOutResult } from '@shared/bridge.ts';
import { forgetPins } from '../sync/pins.ts';
import { bridge } from './bridge/index.ts';
import { useConnectivityStore } from './connectivity.ts';
import type { PlatformUser } from './platform.ts';

export type SignInPhase = 'idle' | 'waiting' | 'finishing';

/** An exception's message as a sentence, to go on with more. */
function sentenceOf(cause: unknown): string {
  const text = cause instanceof Error ? cause.message.trim() : '';
  if (text === '') return 'Advisor Desk did not answer.';
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

const UNREACHABLE = new Set<ApiFailure['kind']>(['network', 'timeout']);

/** The platform could not be reached (no network, no answer in time): nothing it said. */
export const isUnreachable = (failure: ApiFailure): boolean => UNREACHABLE.has(failure.kind);

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
    errorIsUnreachable.value = failure !== null && isUnreachable(failure);
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

  /** The user to show: the platform's (`kept` false) or the copy kept on this computer. */
  function showUser(next: PlatformUser, kept: boolean): void {
    user.value = next;
    userIsKept.value = kept;
  }

  function describe(failure: ApiFailure): string {
    if (failure.kind === 'auth')
      return 'Your sign-in has expired. Sign in again; nothing you entered is lost.';
    if (failure.kind === 'network' || failure.kind === 'timeout')
      return 'The platform cannot be reached right now. Check the connection and try again.';
    return failure.message;
  }

  /**
   * Signs out of both interfaces (the main process forgets the tokens); false when it did not
   * answer and the user is still signed in. What went wrong is kept in `error`, in plain words.
   * The app's sign-out (syncing stopped, the store closed) is lifecycle.ts's `signOut`.
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
    // Signed out either way; a saved sign-in left in the secret store is worth saying.
    error.value = result.ok ? null : result.message;
    user.value = null;
    userIsKept.value = false;
    return true;
  }

  return {
    status,
    flowId,
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
    setError,
    showUser,
    refreshStatus,
    signOut,
  };
});
