// The app's lifecycle, in one place: entering the frame, signing in, learning who is signed in and
// in which team, opening that identity's store and syncing it, switching team, and signing out.
// The stores hold the state (session.ts, local-store.ts, sync.ts); this module says in which order
// the steps go. A lock (issue 26) belongs here too: it stops the sync and closes the store as
// sign-out does (`closeStore`) while the session stays, and unlocking opens it again (`openStore`).

import type { ApiFailure } from '@shared/api/request.ts';
import type { SignInTarget, StoreIdentity } from '@shared/auth.ts';
import { readWire } from '@shared/wire/parse.ts';
import { User } from '@shared/wire/v2/user.ts';
import { platformUserId, sameIdentity, userKey } from '../data/identity/index.ts';
import { closeLocalDb, hasLocalDb, localDb, useIdentityStore } from '../data/identity/current-store.ts';
import { CONFIG_KEYS, configEntry } from '../data/queries/index.ts';
import { storageProblem } from '../data/storage.ts';
import { forgetPins } from '../sync/pins.ts';
import { bridge } from './bridge/index.ts';
import { useConnectivityStore } from './connectivity.ts';
import { useLocalStore } from './local-store.ts';
import { fetchUser, switchTeam as requestSwitch, type PlatformUser } from './platform.ts';
import { isUnreachable, useSessionStore } from './session.ts';
import { useSettingsStore } from './settings.ts';
import { useSyncStore } from './sync.ts';

/** How entering the app went: a store is open, nobody is signed in, or the platform is needed first. */
export type Entry = 'open' | 'signed-out' | 'needs-platform' | 'failed';

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

// ---- The store of the identity signed in ----

let opening: Promise<unknown> = Promise.resolve();

/**
 * Opens the store of `next` and syncs it: the coordinator stops on the store open before and
 * starts on this one. False when it cannot be opened (the local store's `problem` says why).
 */
export function openStore(next: StoreIdentity, userId?: number | string): Promise<boolean> {
  // One at a time: two answers of /user arriving together must not open a store twice.
  const run = opening.then(() => openNow(next, userId));
  opening = run.catch(() => undefined);
  return run;
}

async function openNow(next: StoreIdentity, userId?: number | string): Promise<boolean> {
  const local = useLocalStore();
  if (local.isOpen(next)) return true;
  const sync = useSyncStore();
  await sync.stop();
  try {
    await useIdentityStore(next, userId === undefined ? {} : { userId });
  } catch (error) {
    local.problem =
      storageProblem(error)?.message ?? (error instanceof Error ? error.message : String(error));
    closeLocalDb();
    local.closed();
    return false;
  }
  local.opened(next);
  return sync.start();
}

/** Syncing stops and the store closes; nothing opens until the next identity. */
export async function closeStore(): Promise<void> {
  const local = useLocalStore();
  await useSyncStore().stop();
  closeLocalDb();
  local.closed();
  local.needsPlatform = false;
  local.problem = null;
}

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
  return openStore(next, platformUserId(user) ?? undefined);
}

// ---- Who is signed in ----

/**
 * Reads the platform's user; the identity it names is the store open. Offline, the user the last
 * configuration pull kept fills the frame instead. False when neither is there (`error` says why).
 */
export async function loadUser(): Promise<boolean> {
  const session = useSessionStore();
  const connectivity = useConnectivityStore();
  const result = await fetchUser().catch((e: unknown) => unreachable(e));
  connectivity.observe(result);
  if (result.ok) {
    session.showUser(result.data, false);
    session.setError(null);
    // The platform says who is signed in and in which team: that identity's store is the one open.
    await follow(result.data);
    return true;
  }
  if (isUnreachable(result)) {
    // Offline: the user as last pulled keeps the frame whole (name, avatar, teams); the platform
    // is asked again once it answers (see `whenReachable`).
    if (await showKeptUser()) {
      session.setError(null);
      return true;
    }
  }
  session.setError(result);
  if (result.kind === 'auth') await session.refreshStatus();
  return false;
}

/**
 * Shows the user the last configuration pull kept on this computer, when no fresher one is
 * loaded. True when there is one to show.
 */
async function showKeptUser(): Promise<boolean> {
  const session = useSessionStore();
  if (session.user) return true;
  const kept = await keptUser();
  if (!kept || session.user) return Boolean(session.user);
  session.showUser(kept, true);
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
export async function whenReachable(): Promise<void> {
  if (useConnectivityStore().networkUp) await loadUser();
}

// ---- Entering, signing in, switching team, signing out ----

/**
 * The frame appears: signed in with an identity, its store opens at once (offline too); without
 * one, the platform's user is read first, and offline the app waits for it (`needsPlatform`).
 */
export async function enterApp(): Promise<Entry> {
  const session = useSessionStore();
  const local = useLocalStore();
  const status = await session.refreshStatus();
  if (!session.signedIn) return 'signed-out';
  if (status.identity) {
    // Back from signing in again to the same store: its syncing resumes (and catches up).
    const resumed = local.isOpen(status.identity);
    if (!(await openStore(status.identity))) return 'failed';
    if (resumed) await useSyncStore().start();
    // The kept user fills the frame; online, the platform's user may name another identity.
    if (!session.user || session.userIsKept) void loadUser();
    await showKeptUser();
    return 'open';
  }
  if (await loadUser()) return hasLocalDb() ? 'open' : 'failed';
  if (!session.signedIn) return 'signed-out';
  local.needsPlatform = session.errorIsUnreachable;
  return local.needsPlatform ? 'needs-platform' : 'failed';
}

/** Starts a sign-in: the platform's page opens in the browser; resolves when it redirects back. */
export async function signIn(
  target: SignInTarget,
  open: (url: string) => void = (url) => window.open(url, '_blank', 'noopener'),
): Promise<boolean> {
  const session = useSessionStore();
  session.setError(null);
  session.phase = 'waiting';
  try {
    const start = await bridge().auth.beginSignIn(target);
    // A sign-in that cannot start says why (an address to correct, two sign-in servers …).
    if (!start.ok) {
      session.error = start.message;
      return false;
    }
    session.flowId = start.flowId;
    session.signInUrl = start.url;
    if (!start.openedExternally) open(start.url);
    const outcome = await bridge().auth.finishSignIn(start.flowId);
    session.status = outcome.status;
    if (!outcome.ok) {
      session.error = outcome.reason === 'cancelled' ? null : outcome.message;
      return false;
    }
    session.phase = 'finishing';
    return session.signedIn ? await loadUser() : true;
  } catch (e) {
    session.error = (e as Error).message;
    return false;
  } finally {
    session.phase = 'idle';
    session.flowId = null;
    session.signInUrl = null;
  }
}

export async function cancelSignIn(): Promise<void> {
  const { flowId } = useSessionStore();
  if (flowId) await bridge().auth.cancelSignIn(flowId);
}

/**
 * Switches team: syncing stops on this team's store first (nothing of it is sent once the
 * platform's team has changed), then the platform switches, the new team is bound to the
 * sign-in and its store opens and syncs (its list pulled at once). Refused, this team syncs on.
 */
export async function switchTeam(id: number): Promise<boolean> {
  const session = useSessionStore();
  if (session.user?.team?.id === id) return true;
  session.switching = true;
  const sync = useSyncStore();
  try {
    await sync.stop();
    const result = await requestSwitch(id).catch((e: unknown) => unreachable(e));
    useConnectivityStore().observe(result);
    if (!result.ok) {
      session.setError(result);
      await sync.start();
      return false;
    }
    forgetPins();
    session.showUser(result.data, false);
    return await follow(result.data);
  } finally {
    session.switching = false;
  }
}

/**
 * Signs out: syncing stops at once (its requests end) while the main process forgets the tokens,
 * then the store closes with the session. False when still signed in: syncing goes on, nothing
 * queued was lost, and the session's `error` says why.
 */
export async function signOut(): Promise<boolean> {
  const session = useSessionStore();
  const sync = useSyncStore();
  const stopped = sync.stop().catch(() => undefined);
  const out = await session.signOut();
  await stopped;
  if (!out) {
    void sync.start();
    return false;
  }
  // Nothing of this user's opens until the next identity.
  await closeStore();
  return true;
}
