// The sync state as the screens see it (DESIGN.md §3, Sync state and Storage): phase and its
// message, pending count, refused changes and conflicts, last synced time, progress of long
// pulls, and storage problems in plain words; and the actions on them. It wraps the window's
// SyncCoordinator over the app's database and the bridge.

import { defineStore } from 'pinia';
import { computed, ref, shallowRef, watch } from 'vue';
import { resolveConflict as resolveChange, retryRejected, type ConflictChoice } from '../data/changes.ts';
import { localDb } from '../data/instance.ts';
import type { SyncStatus, SyncedTable } from '../data/model.ts';
import { openStorage, StorageError, withStorage, type StorageProblem } from '../data/storage.ts';
import { bridge } from './bridge.ts';
// eslint-disable-next-line import-x/no-cycle -- removed by the lifecycle work
import { signedInIdentity } from './signed-in-identity.ts';
import {
  SyncCoordinator,
  type HouseholdStep,
  type OlderActivity,
  type SyncProgress,
  type SyncState,
} from '../sync/coordinator.ts';
import { householdsTimeLeft } from '../sync/estimate.ts';
import { PUBLISHED_REQUESTS_PER_MINUTE, requestBudget } from '@shared/settings.ts';
import { useSettingsStore } from './settings.ts';
import type { PullReport } from '../sync/pull.ts';
import { useConnectivityStore } from './connectivity.ts';

/**
 * What the sync is doing, in an advisor's words, for the status control and the panel alike:
 * sending their changes, or updating this computer from the platform with its progress summed
 * over every pull under way (so it moves whichever pull moves).
 */
export interface SyncActivity {
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
    short: 'Updating…',
    calm: false,
    announced: 'Checking the platform for updates.',
    sentence: 'Checking the platform for updates.',
    done: 0,
    total: null,
  };
}

export const useSyncStore = defineStore('sync', () => {
  let coordinator: SyncCoordinator | null = null;
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
  function sync(): SyncCoordinator {
    const db = localDb();
    if (coordinator?.db === db) return coordinator;
    void coordinator?.stop();
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
      if (coordinator === made) state.value = next;
    });
    coordinator = made;
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
   * Called once a store is open (common/local-store.ts), that is after a sign-in: the first call
   * opens the database and starts syncing; a later one (back from signing in again) resumes the
   * queue.
   * False when the database cannot be opened (`storageProblem` says why).
   */
  function start(): Promise<boolean> {
    if (started.value)
      return sync()
        .signedIn()
        .then(() => true);
    starting ??= (async () => {
      const opened = await openStorage(localDb());
      openProblem.value = opened.ok ? null : opened.problem;
      if (opened.ok) sync().start();
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
    const stopping = coordinator;
    // The next start syncs whichever store is open then (another team's, another user's).
    coordinator = null;
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
      await sync().sendNow();
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

  function resolveConflict(opId: string, choice: ConflictChoice): Promise<void> {
    return save(() => resolveChange(localDb(), opId, choice));
  }

  /** "Try again": a refused change is sent again as it is; without one, every waiting retry is due now. */
  async function retry(opId?: string): Promise<void> {
    if (opId) await save(() => retryRejected(localDb(), opId));
    await sync().rearm();
  }

  function openAccount(localId: string): Promise<PullReport> {
    return save(() => sync().openAccount(localId));
  }

  /** The forms (0.0.1) of the team, or of one household, from the platform (one request; online only). */
  function pullForms(localId?: string): Promise<PullReport> {
    return save(() => sync().pullFormsOf(localId));
  }

  /** A household's questionnaires, one request; skipped offline. */
  function pullEngagementsOf(localId: string): Promise<PullReport> {
    return save(() => sync().pullEngagementsOf(localId));
  }

  /** The platform's report list (the Reports area), one request; skipped offline. */
  function pullReportList(): Promise<PullReport> {
    return save(() => sync().pullReportList());
  }

  /**
   * The team's questionnaires (the Engagements area): what is new since the last pull, every page
   * when a sweep is due (`sweepAfterMs`, else the sync's interval) or `full` asks for one; skipped
   * offline.
   */
  function pullTeamEngagements(options: { full?: boolean; sweepAfterMs?: number } = {}): Promise<PullReport> {
    return save(() => sync().pullTeamEngagements(options));
  }

  /** One questionnaire opened: its answers, documents, signatures and history; skipped offline. */
  function openEngagement(id: string): Promise<PullReport> {
    return save(() => sync().openEngagement(id));
  }

  function setAvailableOffline(localId: string, on: boolean): Promise<PullReport | null> {
    return save(() => sync().setAvailableOffline(localId, on));
  }

  /**
   * The feed and the statistics in `range` pulled now (Home, Activity) when older than a few
   * minutes, or whatever their age with `force` (a Refresh); nothing offline.
   */
  function refreshAdvisorRecords(what: {
    feed?: boolean;
    stats?: { start: string; end: string };
    force?: boolean;
  }): Promise<void> {
    return save(() => sync().refreshAdvisorRecords(what));
  }

  /** One page of the feed's or an account's activity older than what is stored ("Load older"). */
  function olderActivity(what: { type?: string; accountId?: string }): Promise<OlderActivity> {
    return save(() => sync().olderActivity(what));
  }

  /** Prepares households for a meeting: kept offline, pulled whole one after another, with progress. */
  function prepare(localIds: readonly string[]): Promise<void> {
    return save(() => sync().prepareForMeeting(localIds));
  }

  function retryPreparation(localId: string): Promise<void> {
    return save(() => sync().retryPreparation(localId));
  }

  function clearPrepared(): Promise<void> {
    return save(() => sync().clearPrepared());
  }

  function whenSynced(opId: string): Promise<void> {
    return sync().whenSynced(opId);
  }

  function watchStatus(
    table: SyncedTable,
    recordId: string,
    listener: (status: SyncStatus | null) => void,
  ): () => void {
    return sync().watchStatus(table, recordId, listener);
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
    resolveConflict,
    retry,
    openAccount,
    pullForms,
    pullReportList,
    pullEngagementsOf,
    pullTeamEngagements,
    openEngagement,
    setAvailableOffline,
    refreshAdvisorRecords,
    prepare,
    retryPreparation,
    olderActivity,
    clearPrepared,
    whenSynced,
    watchStatus,
  };
});
