// The signed-in session as the screens see it: sign-in state per interface, the platform user and
// their team, the sign-in flow in progress, and sign-out.

import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { ApiFailure } from '../../../shared/api/request.ts';
import type { AuthStatus, SignInTarget } from '../../../shared/auth.ts';
import { localDb } from '../data/instance.ts';
import { CONFIG_KEYS, configEntry } from '../data/queries.ts';
import { bridge } from '../services/bridge.ts';
import { fetchUser, switchTeam as requestSwitch, type PlatformUser } from '../services/platform.ts';
import { useConnectivityStore } from './connectivity.ts';

export type SignInPhase = 'idle' | 'waiting' | 'finishing';

export const useSessionStore = defineStore('session', () => {
  const status = ref<AuthStatus | null>(null);
  const user = ref<PlatformUser | null>(null);
  const phase = ref<SignInPhase>('idle');
  const flowId = ref<string | null>(null);
  const signInUrl = ref<string | null>(null);
  const error = ref<string | null>(null);
  const switching = ref(false);

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
    const result = await fetchUser();
    useConnectivityStore().observe(result);
    if (result.ok) {
      user.value = result.data;
      error.value = null;
      return true;
    }
    if (result.kind === 'network' || result.kind === 'timeout') {
      // Offline: the user as last pulled keeps the frame whole; the platform is asked again once
      // it answers (see `whenReachable`).
      const kept = await keptUser();
      if (kept) {
        user.value ??= kept;
        error.value = null;
        return true;
      }
    }
    error.value = describe(result);
    if (result.kind === 'auth') await refreshStatus();
    return false;
  }

  /** The user resource the last configuration pull kept on this computer, if any. */
  async function keptUser(): Promise<PlatformUser | null> {
    try {
      return (await configEntry<PlatformUser>(localDb(), CONFIG_KEYS.user))?.data ?? null;
    } catch {
      return null;
    }
  }

  /** Back online: the user is loaded again, so the team and a kept (possibly old) user are fresh. */
  async function whenReachable(): Promise<void> {
    if (useConnectivityStore().networkUp) await loadUser();
  }

  /** Starts a sign-in: the platform's page opens in the browser; resolves when it redirects back. */
  async function signIn(
    target: SignInTarget,
    open: (url: string) => void = (url) => window.open(url, '_blank', 'noopener'),
  ): Promise<boolean> {
    error.value = null;
    phase.value = 'waiting';
    try {
      const start = await bridge().auth.beginSignIn(target);
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

  async function signOut(): Promise<void> {
    status.value = await bridge().auth.signOut();
    user.value = null;
  }

  async function switchTeam(id: number): Promise<boolean> {
    if (user.value?.team?.id === id) return true;
    switching.value = true;
    try {
      const result = await requestSwitch(id);
      useConnectivityStore().observe(result);
      if (!result.ok) {
        error.value = describe(result);
        return false;
      }
      user.value = result.data;
      return true;
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
    switching,
    signedIn,
    displayName,
    refreshStatus,
    whenReachable,
    loadUser,
    signIn,
    cancelSignIn,
    signOut,
    switchTeam,
  };
});
