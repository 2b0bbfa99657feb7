// The sync state of the app (DESIGN.md §3, Sync state): one coordinator per window owns a push
// engine and a pull engine over the local store and the `Send` port, and tells the screens what
// is going on through a framework-free `subscribe`.
//
// One sync worker across windows (coordinator/windows.ts): the window that holds the Web Lock runs
// the push loop and the background pulls (coordinator/schedule.ts); the others observe. What lives
// in IndexedDB (pending count, refused changes, conflicts, last synced time, each record's badge)
// every window reads itself, again whenever the outbox or the push says it moved (and the worker
// tells the others so); what only the worker knows it shares (coordinator/state.ts composes the
// two). Not Dexie's liveQuery: it needs a global IndexedDB, and this must run unchanged in Node
// (tests, the headless chaos runner), where the database is handed in.
//
// Interactive pulls (an account opened, an account made available offline) run in the window that
// asks: the user waits there, and the transport behind `Send` orders requests by priority for
// every window (interactive, then the push's uploads, then background pulls).

import type { ApiResult } from '@shared/api/request.ts';
import { onOutbox, whenSynced } from '../data/changes/index.ts';
import type { AdvisorDb } from '../data/db.ts';
import { sameIdentity, type StoreIdentity } from '../data/identity/index.ts';
import { recordedIdentity, syncingIdentity } from '../data/identity/recorded.ts';
import { accountLabel } from '../data/labels.ts';
import type { SyncStatus, SyncedTable } from '../data/model.ts';
import { storageProblem, type StorageProblem } from '../data/storage.ts';
import { PlatformAnswers } from './coordinator/answers.ts';
import { answerDigest, changedParts, recordClosedAnswers } from './coordinator/closed-answers.ts';
import { advisorRecordsDue, type AdvisorRecords } from './coordinator/freshness.ts';
import { pullMeetingEngagements } from './coordinator/meeting-engagements.ts';
import { OfflineQueue } from './coordinator/offline-queue.ts';
import { MeetingPreparation, type PreparationHost } from './coordinator/preparation.ts';
import { PullRuns } from './coordinator/pull-runs.ts';
import { BackgroundPulls } from './coordinator/schedule.ts';
import { LAST_SYNCED_KEY, composeState, type Activity, type SyncState } from './coordinator/state.ts';
import { StoreReader } from './coordinator/store-reader.ts';
import {
  WindowLink,
  windowPorts,
  type SyncChannel,
  type SyncEvents,
  type SyncLocks,
  type PeerMessage,
} from './coordinator/windows.ts';
import {
  emptyReport,
  PullEngine,
  type PullEngineOptions,
  type PullProgress,
  type PullReport,
} from './pull/index.ts';
import { addReport } from './pull/report.ts';
import { PushEngine, type PushEvent, type PushOptions } from './push/index.ts';
import { untilAborted, type Send } from './send.ts';
import { TeamWatch } from './team.ts';
import { reportingPulls, reportPushes, type ReportedPulls, type SyncDiagnostics } from './diagnostics.ts';

export { LAST_SYNCED_KEY } from './coordinator/state.ts';
export type {
  ConflictEntry,
  HouseholdStep,
  RejectedChange,
  SyncPhase,
  SyncProgress,
  SyncState,
} from './coordinator/state.ts';
export type { SyncChannel, SyncEvents, SyncLocks } from './coordinator/windows.ts';

export interface SyncCoordinatorOptions {
  db: AdvisorDb;
  send: Send;
  /** The Web Lock and the BroadcastChannel of the sync. Default: the store's own (`syncName`). */
  name?: string;
  /** How often the worker pulls in the background (account list, offline accounts). Default 5 min. */
  backgroundIntervalMs?: number;
  now?: () => number;
  push?: Omit<PushOptions, 'db' | 'send' | 'now' | 'online'>;
  pull?: Omit<PullEngineOptions, 'db' | 'send' | 'now'>;
  /** `navigator.locks`; null: this coordinator is the only worker. */
  locks?: SyncLocks | null;
  /** Opens the channel shared with the other windows; null: no other windows. */
  channel?: ((name: string) => SyncChannel) | null;
  /** The window's events; null: none. */
  events?: SyncEvents | null;
  /**
   * Whether the system says there is a network: `navigator.onLine` (always where there is no
   * navigator). While it says no, nothing is pushed or pulled and the phase is offline.
   */
  online?: () => boolean;
  /** Sees every answer of the platform (the connectivity indicator). */
  observe?: (result: ApiResult) => void;
  /** Where the pull and push reports go (the diagnostics log); none: not reported. */
  diagnostics?: SyncDiagnostics;
  /**
   * The user and team signed in now (null: nobody). Only operations stamped with it are sent;
   * the others are held as they are. Default: the store's own identity (Node tests, chaos).
   */
  identity?: () => StoreIdentity | null;
  /** Keeps a prepared household's stored files offline (`bridge().files.keep`); none: not kept. */
  keepFiles?: PreparationHost['keepFiles'];
}

export const SYNC_NAME = 'advisor-desk-sync';

/**
 * The lock and channel of one store's windows: windows of other identities (another team, another
 * user in another window) each have their own worker and never hear each other's outbox.
 */
export function syncName(storeName: string): string {
  return `${SYNC_NAME}:${storeName}`;
}

const DEFAULT_INTERVAL_MS = 5 * 60_000;

/** What asking for older activity found (`olderActivity`). */
export type OlderActivity = 'offline' | 'end' | 'more' | 'failed';

const words = (error: unknown) => (error instanceof Error ? error.message : String(error));

export class SyncCoordinator {
  /** The store it syncs. */
  readonly db: AdvisorDb;
  private readonly push: PushEngine;
  private readonly pull: ReportedPulls;
  private readonly now: () => number;
  private readonly online: () => boolean;
  private readonly windows: WindowLink;
  private readonly background: BackgroundPulls;
  private readonly answers: PlatformAnswers;
  private readonly store: StoreReader;
  private readonly team: TeamWatch;
  private readonly offlineQueue: OfflineQueue;
  private readonly preparation: MeetingPreparation;

  private readonly listeners = new Set<(state: SyncState) => void>();
  private readonly pulls: PullRuns;
  /** The worker's activity, in an observing window. */
  private remote: Activity | null = null;
  private pushing = false;
  private error: string | null = null;
  private storage: StorageProblem | null = null;
  private current: SyncState;
  private currentKey = '';

  private running = false;
  private worker = false;
  private held: Promise<void> | null = null;
  private release: (() => void) | null = null;
  private teardown: (() => void)[] = [];
  /** This run's session, from `start` to `stop`: its abort ends every pull and push request at once. */
  private session = new AbortController();
  /** This observing window's "send now" requests, waiting for the worker's `sent`, by id. */
  private readonly sendNowAsked = new Map<string, () => void>();

  constructor(private readonly options: SyncCoordinatorOptions) {
    const ports = windowPorts(options);
    this.db = options.db;
    this.now = options.now ?? Date.now;
    this.online = ports.online;
    this.windows = new WindowLink(this.db, options.name ?? syncName(this.db.name), ports);
    // Whatever the port, a request of an ended session answers at once; its cancellation says
    // nothing of the platform, so nothing hears it.
    const port: Send = async (req, signal) => {
      const result = await untilAborted(options.send(req, signal), signal);
      if (!signal?.aborted) options.observe?.(result);
      return result;
    };
    this.answers = new PlatformAnswers(port, () => this.changed());
    this.team = new TeamWatch(
      this.db,
      // Asked within this run's session: a sign-out ends the question at once, like every request.
      (req) => this.answers.send(req, this.session.signal),
      () => this.changed(),
    );
    this.store = new StoreReader(this.db, {
      running: () => this.running,
      changed: () => this.changed(),
      fail: (error) => this.fail(error),
    });
    this.push = new PushEngine({
      ...options.push,
      db: this.db,
      now: this.now,
      online: this.online,
      team: this.team,
      ...(options.identity ? { identity: options.identity } : {}),
      send: (req, signal) => {
        this.setPushing(true);
        return this.answers.send(req, signal);
      },
    });
    this.pull = reportingPulls(
      new PullEngine({
        ...options.pull,
        db: this.db,
        now: this.now,
        team: this.team,
        send: (req, signal) => this.answers.send(req, signal),
        session: () => this.session.signal,
      }),
      options.diagnostics,
    );
    this.pulls = new PullRuns({
      answers: this.answers,
      changed: () => this.changed(),
      fail: (error) => this.fail(error),
      succeeded: async (asked) => {
        this.error = this.storage = null;
        if (asked) await this.markSynced();
      },
      recovered: () => void this.rearm(),
    });
    this.offlineQueue = new OfflineQueue(this.answers, () => this.changed());
    this.preparation = new MeetingPreparation({
      db: this.db,
      now: this.now,
      canPull: async () =>
        this.running && this.online() && !this.answers.signInNeeded && (await this.signedInHere()),
      pull: (localId, onProgress) => this.pulls.run(null, () => this.preparedPull(localId, onProgress)),
      changed: () => this.changed(),
      ...(options.keepFiles ? { keepFiles: options.keepFiles } : {}),
    });
    this.background = new BackgroundPulls({
      pull: this.pull,
      queue: this.offlineQueue,
      intervalMs: options.backgroundIntervalMs ?? DEFAULT_INTERVAL_MS,
      worker: () => this.worker,
      online: this.online,
      pulling: (shown, work) => this.pulls.run(shown, work),
      stuck: () => this.answers.unreachable || this.answers.signInNeeded || this.team.moved !== null,
      changed: () => this.changed(),
      teamHere: async () =>
        (await this.signedInHere()) &&
        (this.team.moved === null || (await this.team.confirm()).kind === 'same'),
    });
    this.current = this.compose();
  }

  // ---- What the screens use ----

  get state(): SyncState {
    return this.current;
  }

  /** Calls `listener` with the state now and on every change; returns the unsubscribe. */
  subscribe(listener: (state: SyncState) => void): () => void {
    this.listeners.add(listener);
    listener(this.current);
    return () => this.listeners.delete(listener);
  }

  /** Resolves when the change reached the server; rejects with `OperationRejected` when refused. */
  whenSynced(opId: string): Promise<void> {
    return whenSynced(this.db, opId);
  }

  /**
   * A record's badge (pending, synced, rejected, conflict; null when the record is gone): now, and
   * whenever it changes while the coordinator runs. Returns the unsubscribe.
   */
  watchStatus(
    table: SyncedTable,
    recordId: string,
    listener: (status: SyncStatus | null) => void,
  ): () => void {
    return this.store.watch(table, recordId, listener);
  }

  /** The user opens an account: it counts as recently opened, and is pulled before anything else. */
  async openAccount(localId: string): Promise<PullReport> {
    await this.db.accounts.update(localId, { openedAt: this.now() });
    return this.pullAccount(localId, 'Opening');
  }

  /** Keeps an account's details and sections on this computer (pulled now, then in the background). */
  async setAvailableOffline(localId: string, on: boolean): Promise<PullReport | null> {
    await this.db.accounts.update(localId, { availableOffline: on ? 1 : 0 });
    return on ? this.pullAccount(localId, 'Keeping offline:') : null;
  }

  /**
   * Home and Activity are shown: the advisor's feed (incremental, a sweep when due) and the
   * statistics for `range` are pulled now at interactive priority, each only when its last
   * successful pull is older than a few minutes (freshness.ts) unless `force` (a Refresh); skipped
   * offline, where the screens show what the store holds and since when.
   */
  async refreshAdvisorRecords(what: AdvisorRecords & { force?: boolean }): Promise<void> {
    if (!this.online() || !(await this.signedInHere())) return;
    const due = what.force ? what : await advisorRecordsDue(this.db, what, this.now());
    const priority = 'interactive' as const;
    if (due.stats) await this.pulls.run(null, () => this.pull.pullStats({ ...due.stats, priority }));
    if (due.feed) await this.pulls.run(null, () => this.pull.pullUserActivity({ priority }));
  }

  /**
   * The advisor reached the end of the activity stored here, the feed's or an account's
   * (`accountId`): one older page (of `type`, when the screen filters by it) at interactive
   * priority. `offline`: not asked (no network, or not signed in here); `end`: the platform has
   * nothing older; `more`: a page arrived, and more may follow; `failed`: asked, and it did not
   * come (the report's failures say why).
   */
  async olderActivity(what: { type?: string; accountId?: string }): Promise<OlderActivity> {
    if (!this.online() || !(await this.signedInHere())) return 'offline';
    const options = { ...(what.type ? { type: what.type } : {}), priority: 'interactive' as const };
    const { accountId } = what;
    const report = await this.pulls.run(null, () =>
      accountId === undefined
        ? this.pull.pullOlderUserActivity(options)
        : this.pull.pullOlderAccountActivity(accountId, options),
    );
    if (report.failures.length > 0 || report.teamMoved !== undefined || report.stopped) return 'failed';
    return report.olderEnd ? 'end' : 'more';
  }

  /**
   * Prepares households for a meeting: each is kept offline and pulled whole, one
   * after another ahead of the background, its progress in `households`. Resolves when the
   * preparation has gone as far as it can now (offline: they wait, and go when the platform answers).
   */
  prepareForMeeting(localIds: readonly string[]): Promise<void> {
    return this.preparation.prepare(localIds);
  }

  /** A household whose preparation failed is tried again. */
  retryPreparation(localId: string): Promise<void> {
    return this.preparation.retry(localId);
  }

  /** The households prepared (ready or failed) leave the list, here and in the store: the preparation ends. */
  clearPrepared(): Promise<void> {
    return this.preparation.clearFinished();
  }

  /**
   * Back on a network after the platform could not be reached: one light question at interactive
   * priority (GET v2 /user, which also says which team is current) tells at once whether the
   * platform answers. The background's requests may wait minutes behind the request budget, and
   * until an answer arrives the app would go on saying the platform is unreachable.
   */
  private async probe(): Promise<void> {
    if (!this.worker) return;
    const result = await this.answers
      .send({ api: 'v2', method: 'GET', path: '/user', priority: 'interactive' }, this.session.signal)
      .catch(() => null);
    if (result?.ok) await this.team.read(result.data);
  }

  /** Window focus, reconnect, "try again": every retry is due now and a paused queue resumes. */
  async rearm(): Promise<void> {
    void this.preparation.resume();
    if (this.worker) await this.push.rearm();
    else this.windows.post({ type: 'rearm', signedIn: false });
  }

  /**
   * "Send now" (sign-out's "send them first"): every retry is due at once, and this resolves once
   * the push pass that sends them has ended and the store has been read again (the state's counts
   * are then what is left). In an observing window the worker's pass is waited for: it answers
   * through the channel.
   */
  async sendNow(): Promise<void> {
    if (this.worker) await this.push.sendNow();
    else await this.askWorkerToSend();
    this.store.read();
    await this.store.idle();
  }

  private askWorkerToSend(): Promise<void> {
    if (!this.running || !this.windows.connected) return Promise.resolve();
    const id = crypto.randomUUID();
    return new Promise((resolve) => {
      this.sendNowAsked.set(id, resolve);
      this.windows.post({ type: 'send-now', id });
    });
  }

  /** No worker will answer them now (this window works or stops): they are answered here. */
  private answerSendNow(send: () => Promise<unknown>): void {
    for (const [id, resolve] of [...this.sendNowAsked]) {
      this.sendNowAsked.delete(id);
      void send().finally(resolve);
    }
  }

  /** After a sign-in: forget the refused token, resume the queue, and catch up with a pull. */
  async signedIn(): Promise<void> {
    this.answers.signedIn();
    this.changed();
    void this.preparation.resume();
    if (!this.worker) return this.windows.post({ type: 'rearm', signedIn: true });
    await this.push.rearm();
    void this.background.run();
  }

  // ---- Starting and stopping ----

  /** Starts observing, and syncing once this window holds the lock (at once where there are no locks). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.session = new AbortController();
    // Every change, settled operation and relayed event of another window moves the outbox.
    this.teardown.push(onOutbox(this.db, () => this.store.read()));
    this.teardown.push(this.push.onEvent((event) => this.onPush(event)));
    this.teardown.push(reportPushes(this.push, this.options.diagnostics));
    this.store.read();
    const disconnect = this.windows.connect((message) => this.receive(message));
    if (disconnect) this.teardown.push(disconnect);
    this.teardown.push(
      ...this.windows.listen({
        online: () => {
          const lost = this.answers.unreachable || this.answers.noWayOut;
          this.answers.networkFound();
          this.changed();
          if (lost) void this.probe();
          void this.preparation.resume();
          void this.rearm();
          void this.background.run();
        },
        offline: () => this.changed(),
        focus: () => void this.rearm(),
      }),
    );
    this.windows.post({ type: 'hello' });
    this.held = this.windows.hold(
      () => this.work(),
      (error) => this.fail(error),
    );
  }

  /**
   * Stops syncing and observing: every pull and push request under way answers at once (the
   * session's signal), the pulls stop without writing more, the push ends its pass, then the lock
   * passes on. Unsent changes stay queued.
   */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.session.abort();
    this.windows.letGo();
    this.release?.();
    await this.held;
    await this.pulls.ended();
    await this.store.idle();
    for (const undo of this.teardown.splice(0).reverse()) undo();
    this.held = this.release = null;
    this.remote = null;
    this.answerSendNow(() => Promise.resolve());
  }

  /** Runs while this window holds the lock: the push loop and the background pulls, until `stop`. */
  private async work(): Promise<void> {
    if (!this.running) return;
    const released = new Promise<void>((resolve) => (this.release = resolve));
    this.worker = true;
    this.remote = null;
    this.push.start(this.session.signal);
    // Asked of the worker before this window became it: the pass is this window's now.
    this.answerSendNow(() => this.push.sendNow());
    this.background.every();
    this.changed();
    // The preparation kept in the store (a restart): listed again, and what waited goes on first.
    void this.preparation.resume();
    void this.background.run();
    await released;
    this.background.stop();
    // The next worker must find no operation of ours in flight: the push ends its pass first.
    await this.push.stop();
    this.worker = false;
    this.pushing = false;
    this.windows.post({ type: 'activity', activity: null });
    this.changed();
  }

  private receive(message: PeerMessage): void {
    switch (message.type) {
      case 'hello':
        if (this.worker) this.windows.post({ type: 'activity', activity: this.activity() });
        return;
      case 'activity':
        if (this.worker) return;
        this.remote = message.activity;
        this.changed();
        return;
      case 'rearm':
        if (this.worker) void (message.signedIn ? this.signedIn() : this.rearm());
        return;
      case 'send-now':
        if (this.worker)
          void this.push.sendNow().then(() => this.windows.post({ type: 'sent', id: message.id }));
        return;
      case 'sent':
        this.sendNowAsked.get(message.id)?.();
        this.sendNowAsked.delete(message.id);
        return;
      case 'stored':
        this.store.read();
    }
  }

  // ---- Pulls ----

  /** Whether the user and team signed in are this store's: another's answers are not for it. */
  private async signedInHere(): Promise<boolean> {
    const signedIn = await syncingIdentity(this.db, this.options.identity);
    return sameIdentity(signedIn, await recordedIdentity(this.db));
  }

  private async pullAccount(localId: string, verb: string): Promise<PullReport> {
    if (!this.online() || !(await this.signedInHere())) return { ...emptyReport(), skipped: true };
    const account = await this.db.accounts.get(localId);
    const label = `${verb} ${accountLabel(account)}`;
    return this.pulls.run({ label, accountId: localId }, (onProgress) =>
      this.countedPull(localId, onProgress),
    );
  }

  /** One account pulled whole at interactive priority, its requests answered of sent as its progress. */
  private async countedPull(localId: string, onProgress: (p: PullProgress) => void): Promise<PullReport> {
    const serverId = (await this.db.accounts.get(localId))?.serverId;
    const stop =
      typeof serverId === 'number' ? this.answers.countAccount(serverId, 'interactive', onProgress) : null;
    return this.pull.pullAccount(localId, { priority: 'interactive' }).finally(() => stop?.());
  }

  /** A household for a meeting: pulled whole, then its questionnaires (meeting-engagements.ts). */
  private async preparedPull(localId: string, onProgress: (p: PullProgress) => void): Promise<PullReport> {
    const report = await this.countedPull(localId, onProgress);
    if (report.failures.length === 0 && !report.stopped)
      addReport(report, await pullMeetingEngagements(this.db, this.pull, localId));
    return report;
  }

  /**
   * The account pulled again after a close, and which of its parts the answers changed kept for
   * its workspace (coordinator/closed-answers.ts); nothing is kept when the pull did not arrive whole.
   */
  private async pullClosedAnswers(localId: string, engagementId: string): Promise<void> {
    const before = await answerDigest(this.db, localId);
    const report = await this.pullAccount(localId, 'Answers of a closed questionnaire:');
    if (report.skipped || report.stopped || report.failures.length > 0) return;
    const parts = changedParts(before, await answerDigest(this.db, localId));
    await recordClosedAnswers(this.db, localId, engagementId, parts, this.now());
  }

  // ---- Engagements, on demand (the team's list also in the background; never every one's outputs) ----

  /** A household's engagements: its list, one request (the largest page the platform takes). */
  async pullEngagementsOf(localId: string): Promise<PullReport> {
    if (!this.online() || !(await this.signedInHere())) return { ...emptyReport(), skipped: true };
    return this.pull.pullEngagements({ accountId: localId, priority: 'interactive' });
  }

  /**
   * The team's engagements, when the Engagements area opens: what was sent or completed since
   * the last pull (two requests), every page when a sweep is due or `full` asks for one
   * (pull/engagement-list.ts).
   */
  async pullTeamEngagements(options: { full?: boolean; sweepAfterMs?: number } = {}): Promise<PullReport> {
    if (!this.online() || !(await this.signedInHere())) return { ...emptyReport(), skipped: true };
    return this.pull.pullEngagements({ ...options, priority: 'interactive' });
  }

  /**
   * One engagement opened: it, its documents, signatures and history, and its answers once
   * completed (4 requests, 5 when completed).
   */
  async openEngagement(id: string): Promise<PullReport> {
    if (!this.online() || !(await this.signedInHere())) return { ...emptyReport(), skipped: true };
    return this.pull.pullEngagement(id, { priority: 'interactive' });
  }

  /** Forms (0.0.1): every one of the user (`/user/forms`), or one household's; one request. */
  async pullFormsOf(localId?: string): Promise<PullReport> {
    if (!this.online() || !(await this.signedInHere())) return { ...emptyReport(), skipped: true };
    return this.pull.pullForms({ ...(localId ? { accountId: localId } : {}), priority: 'interactive' });
  }

  /** The team's report list (the Reports area, opened online), one request; skipped offline. */
  async pullReportList(): Promise<PullReport> {
    if (!this.online() || !(await this.signedInHere())) return { ...emptyReport(), skipped: true };
    return this.pull.pullReports({ priority: 'interactive' });
  }

  // ---- What the push tells ----

  private onPush(event: PushEvent): void {
    // A closed questionnaire wrote its answers into the account: its sections and profile come again.
    if (event.type === 'synced' && event.kind === 'closeEngagement')
      void this.pullClosedAnswers(event.recordId, event.engagement ?? '').catch((error: unknown) =>
        this.fail(error),
      );
    // Retries and conflicts move operations without an outbox event; the other windows hear it here.
    if (event.type !== 'error' && event.type !== 'needs-sign-in') {
      this.store.read();
      this.windows.post({ type: 'stored' });
    }
    if (event.type === 'error') {
      this.setPushing(false);
      this.fail(event.cause);
    } else if (event.type === 'pass') {
      this.setPushing(false);
      this.error = this.storage = null;
      const { requests, retried, needsSignIn } = event.report;
      if (requests > 0 && retried === 0 && !needsSignIn) void this.markSynced();
      this.changed();
    }
  }

  private setPushing(on: boolean): void {
    if (this.pushing === on) return;
    this.pushing = on;
    this.changed();
  }

  private async markSynced(): Promise<void> {
    try {
      const at = this.now();
      await this.db.meta.put({ key: LAST_SYNCED_KEY, value: at });
      // Known at once, so that "idle" after a pull already carries it.
      this.store.synced(at);
      this.store.read();
      this.windows.post({ type: 'stored' });
    } catch (error) {
      this.fail(error);
    }
  }

  private fail(error: unknown): void {
    const problem = storageProblem(error);
    this.storage = problem;
    this.error = problem
      ? `${problem.message} ${problem.whatToDo}`
      : `Syncing stopped on an unexpected problem (${words(error)}). Your changes are kept on this computer.`;
    this.changed();
  }

  // ---- The state ----

  private activity(): Activity {
    return {
      // The background run counts as a whole: no "idle" between its steps.
      syncing: this.pushing || this.pulls.busy || this.background.running,
      unreachable: this.answers.unreachable,
      noWayOut: this.answers.noWayOut,
      signIn: this.answers.signInNeeded,
      error: this.error,
      storage: this.storage,
      progress: this.pulls.shown,
      households: [...this.preparation.households, ...this.offlineQueue.households],
      teamMoved: this.team.moved,
    };
  }

  private compose(local = this.activity()): SyncState {
    const all = this.remote && !this.worker ? [local, this.remote] : [local];
    return composeState(all, { networkDown: !this.online(), worker: this.worker, stored: this.store.stored });
  }

  private changed(): void {
    const local = this.activity();
    if (this.worker) this.windows.postActivity(local);
    const next = this.compose(local);
    const key = JSON.stringify(next);
    if (key === this.currentKey) return;
    this.current = next;
    this.currentKey = key;
    for (const listener of [...this.listeners]) listener(next);
  }
}
