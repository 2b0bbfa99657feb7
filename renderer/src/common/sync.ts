// The sync state as the screens see it (DESIGN.md §3, Sync state and Storage): phase and its
// message, pending count, refused changes and conflicts, last synced time, progress of long
// pulls, and storage problems in plain words; and the actions on them. It holds the window's
// SyncCoordinator over the app's database and the bridge; the pulls a screen asks for are
// pulls.ts's, the order of starting and stopping is lifecycle.ts's.

import { defineStore } from 'pinia';
import { computed, ref, shallowRef, watch } from 'vue';
import { retryRejected } from '../data/changes/index.ts';
import { localDb } from '../data/identity/current-store.ts';
import { openStorage, StorageError, withStorage, type StorageProblem } from '../data/storage.ts';
import { bridge } from './bridge/index.ts';
import { signedInIdentity } from './signed-in-identity.ts';
import {
  SyncCoordinator,
  type HouseholdStep,
  type SyncProgress,
  type SyncState,
} from '../sync/coordinator/index.ts';
import { householdsTimeLeft } from '../sync/estimate.ts';
import { PUBLISHED_REQUESTS_PER_MINUTE, requestBudget } from '@shared/settings.ts';
import { useSettingsStore } from './settings.ts';
import { useConnectivityStore } from './connectivity.ts';

/**
 * What the sync is doing, in an advisor's words, for the status control and the panel alike:
 * sending their changes, or updating this computer from the platform with its progress summed
 * over every pull under way (so it moves whichever pull moves).
 */
export interface SyncActivity {
  /**
   * Sending the changes made here, or bringing the platform's data here (preparing households for
   * a meeting, a pull, the background's refresh, a check for updates): the status control says
   * the changes' state apart from the second.
   */
  kind: 'sending' | 'updating';
  /** Short, for the status control: "Sending 3 changes", "Updating 2 of 5". */
  short: string;
  /**
   * Only the background's refresh of the households kept offline: minutes at the budget's pace,
   * nothing the advisor waits for, so the control stays still (its queue is in the sync panel).
   */
  calm: boolean;
  /** A sentence, for the panel and screen readers. */
  sentence: string;
  /** What is announced: the sentence without the counts that move at each step. */
  announced: string;
  done: number;
  /** Null while no pull knows its total yet. */
  total: number | null;
}

const changes = (n: number) => `${n} ${n === 1 ? 'change' : 'changes'}`;
const households = (n: number) => `${n} ${n === 1 ? 'household' : 'households'}`;

export function describeActivity(
  pendingCount: number,
  progress: readonly SyncProgress[],
  steps: readonly HouseholdStep[] = [],
  perMinute = PUBLISHED_REQUESTS_PER_MINUTE,
): SyncActivity {
  const counted = progress.filter((p) => p.total);
  const meeting = steps.filter((h) => h.purpose === 'meeting');
  const preparing = meeting.filter((h) => h.state === 'waiting' || h.state === 'getting');
  if (preparing.length > 0) {
    const at = meeting.length - preparing.length + 1;
    const left = householdsTimeLeft(steps, perMinute);
    return {
      kind: 'updating',
      short: `Preparing ${at} of ${meeting.length}`,
      calm: false,
      announced: 'Preparing households for a meeting.',
      sentence: `Preparing ${households(meeting.length)} for a meeting: ${at - 1} done${left ? `, ${left}` : ''}.`,
      done: at - 1,
      total: meeting.length,
    };
  }
  if (progress.length > 0) {
    const total = counted.length ? counted.reduce((n, p) => n + (p.total ?? 0), 0) : null;
    const done = counted.reduce((n, p) => n + Math.min(p.done, p.total ?? 0), 0);
    const count = total ? ` ${done} of ${total}` : '';
    return {
      kind: 'updating',
      short: total && done > 0 ? `Updating${count}` : 'Updating…',
      calm: false,
      announced: 'Updating this computer from the platform.',
      sentence: `Updating this computer from the platform${total ? `: ${done} of ${total} done` : ''}.`,
      done,
      total,
    };
  }
  if (pendingCount > 0)
    return {
      kind: 'sending',
      short: `Sending ${changes(pendingCount)}`,
      calm: false,
      announced: 'Sending your changes to the platform.',
      sentence: `Sending ${changes(pendingCount)} to the platform.`,
      done: 0,
      total: null,
    };
  const queued = steps.filter((h) => h.purpose === 'background').length;
  if (queued > 0) {
    const left = householdsTimeLeft(steps, perMinute);
    return {
      kind: 'updating',
      // Not "offline": that word is the connection's, shown beside it.
      short: `Refreshing ${queued} ${queued === 1 ? 'household' : 'households'}`,
      calm: true,
      announced: 'Updating the households kept offline in the background.',
      sentence: `Updating the households kept offline in the background: ${queued} to go${left ? `, ${left}` : ''}.`,
      done: 0,
      total: null,
    };
  }
  return {
    kind: 'updating',
    short: 'Updating…',
    calm: false,
    announced: 'Checking the platform for updates.',
    sentence: 'Checking the platform for updates.',
    done: 0,
    total: null,
  };
}

export const useSyncStore = defineStore('sync', () => {
  /** The coordinator of the store open now (`coordinator()`), once made. */
  let current: SyncCoordinator | null = null;
  let starting: Promise<boolean> | null = null;
  /** The last stop of a coordinator, ended or under way. */
  let stopped: Promise<void> = Promise.resolve();
  const started = ref(false);
  const state = shallowRef<SyncState | null>(null);
  /** The database could not be opened: nothing can be shown or saved until the user acts. */
  const openProblem = ref<StorageProblem | null>(null);
  /** The last change could not be saved. */
  const writeProblem = ref<StorageProblem | null>(null);

  /**
   * The window's coordinator of the store open now, made on first use: screens may ask before the
   * frame has started syncing. One made for a store that is no longer open (a screen asked while
   * the team switched) is never used again: its counts and sends belong to the other store.
   */
  function coordinator(): SyncCoordinator {
    const db = localDb();
    if (current?.db === db) return current;
    void current?.stop();
    const connectivity = useConnectivityStore();
    const made = new SyncCoordinator({
      db,
      send: (req) => bridge().api.request(req),
      observe: (result) => connectivity.observe(result),
      diagnostics: (entry) => bridge().diagnostics.report(entry),
      // Changes go only under the user and team they were made under.
      identity: signedInIdentity,
      // A household prepared for a meeting brings its photos and documents along.
      keepFiles: (files) => bridge().files.keep(files),
    });
    made.subscribe((next) => {
      if (current === made) state.value = next;
    });
    current = made;
    return made;
  }

  const phase = computed(() => state.value?.phase ?? 'idle');
  const message = computed(() => state.value?.message ?? null);
  const worker = computed(() => state.value?.worker ?? false);
  const pendingCount = computed(() => state.value?.pendingCount ?? 0);
  const rejected = computed(() => state.value?.rejected ?? []);
  const conflicts = computed(() => state.value?.conflicts ?? []);
  const lastSyncedAt = computed(() => state.value?.lastSyncedAt ?? null);
  /** Until when (ms) the platform last asked us to wait before sending what waits here; may be past. */
  const platformWaitUntil = computed(() => state.value?.platformWaitUntil ?? null);
  const progress = computed(() => state.value?.progress ?? []);
  /** Households pulled whole: prepared for a meeting first, then the background's queue. */
  const households = computed(() => state.value?.households ?? []);
  const settings = useSettingsStore();
  /** The request budget the transport keeps to: what every time estimate divides by. */
  const requestsPerMinute = computed(() => requestBudget(settings.view?.profile));
  /** The platform's current team is not this store's (switched on another device): nothing goes meanwhile. */
  const teamMoved = computed(() => state.value?.teamMoved ?? null);
  const storageProblem = computed(
    () => openProblem.value ?? writeProblem.value ?? state.value?.storage ?? null,
  );
  /** While syncing: what it is doing, in words (null in any other phase). */
  const activity = computed(() =>
    phase.value === 'syncing'
      ? describeActivity(pendingCount.value, progress.value, households.value, requestsPerMinute.value)
      : null,
  );

  /**
   * Called once a store is open (lifecycle.ts), that is after a sign-in: the first call
   * opens the database and starts syncing; a later one (back from signing in again) resumes the
   * queue.
   * False when the database cannot be opened (`storageProblem` says why).
   */
  function start(): Promise<boolean> {
    if (started.value)
      return coordinator()
        .signedIn()
        .then(() => true);
    starting ??= (async () => {
      const opened = await openStorage(localDb());
      openProblem.value = opened.ok ? null : opened.problem;
      if (opened.ok) coordinator().start();
      started.value = opened.ok;
      return opened.ok;
    })().finally(() => (starting = null));
    return starting;
  }

  /**
   * On sign-out: every pull and push request under way ends at once (the coordinator's session is
   * aborted as this is called), the push ends its pass and the lock passes on; unsent changes stay.
   */
  async function stop(): Promise<void> {
    await starting;
    const stopping = current;
    // The next start syncs whichever store is open then (another team's, another user's).
    current = null;
    started.value = false;
    // A second call while the first is under way (sign-out's, then the store closing) waits for
    // the same stop: the store must not close while the coordinator still reads it.
    if (stopping) stopped = stopping.stop();
    await stopped;
    state.value = null;
  }

  /** Changes made here that have not reached the platform: queued, refused or in conflict. */
  const unsentCount = computed(() => pendingCount.value + rejected.value.length + conflicts.value.length);

  /**
   * Sends the queue now (every retry due at once) and resolves with the changes left once the push
   * pass that sends them has ended: none, or those that wait for the user or the platform. `left`
   * hears the count as it goes down.
   */
  async function sendNow(left: (count: number) => void = () => undefined): Promise<number> {
    const stopWatching = watch(unsentCount, (count) => left(count), { immediate: true });
    try {
      await coordinator().sendNow();
      return unsentCount.value;
    } finally {
      stopWatching();
    }
  }

  /**
   * Runs a change, or any write to the local store: a storage failure (a full disk …) is kept in
   * `storageProblem` in plain words and thrown as a StorageError. Nothing is half written.
   */
  async function save<T>(work: () => Promise<T>): Promise<T> {
    try {
      const result = await withStorage(work);
      writeProblem.value = null;
      return result;
    } catch (error) {
      if (error instanceof StorageError) writeProblem.value = error.problem;
      throw error;
    }
  }

  /** "Try again": a refused change is sent again as it is; without one, every waiting retry is due now. */
  async function retry(opId?: string): Promise<void> {
    if (opId) await save(() => retryRejected(localDb(), opId));
    await coordinator().rearm();
  }

  return {
    started,
    phase,
    message,
    worker,
    pendingCount,
    rejected,
    conflicts,
    lastSyncedAt,
    platformWaitUntil,
    progress,
    households,
    requestsPerMinute,
    teamMoved,
    storageProblem,
    activity,
    start,
    stop,
    unsentCount,
    sendNow,
    save,
    retry,
    coordinator,
  };
});
