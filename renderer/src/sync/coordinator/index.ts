// The sync state of the app (DESIGN.md §3, Sync state): one coordinator per window owns a push
// engine and a pull engine over the local store and the `Send` port, and tells the screens what
// is going on through a framework-free `subscribe`.
//
// One sync worker across windows (worker.ts, windows.ts): the window that holds the Web Lock runs
// the push loop and the background pulls (schedule.ts); the others observe. What lives
// in IndexedDB (pending count, refused changes, conflicts, last synced time, each record's badge)
// every window reads itself, again whenever the outbox or the push says it moved (and the worker
// tells the others so); what only the worker knows it shares (state.ts composes the
// two). Not Dexie's liveQuery: it needs a global IndexedDB, and this must run unchanged in Node
// (tests, the headless chaos runner), where the database is handed in.
//
// Interactive pulls (an account opened, an account made available offline: on-demand.ts) run in
// the window that asks: the user waits there, and the transport behind `Send` orders requests by priority for
// every window (interactive, then the push's uploads, then background pulls).

import { onOutbox, whenSynced } from '../../data/changes/index.ts';
import type { AdvisorDb } from '../../data/db.ts';
import { sameIdentity } from '../../data/identity/index.ts';
import { recordedIdentity, syncingIdentity } from '../../data/identity/recorded.ts';
import type { SyncStatus, SyncedTable } from '../../data/model.ts';
import { storageProblem, type StorageProblem } from '../../data/storage.ts';
import { reportingPulls, reportPushes, type ReportedPulls } from '../diagnostics.ts';
import { PullEngine, type PullReport } from '../pull/index.ts';
import { PushEngine, type PushEvent } from '../push/index.ts';
import { untilAborted, type Send } from '../send.ts';
import { TeamWatch } from '../team.ts';
import { PlatformAnswers } from './answers.ts';
import type { AdvisorRecords } from './freshness.ts';
import { OnDemandPulls, type OlderActivity } from './on-demand.ts';
import { OfflineQueue } from './offline-queue.ts';
import { syncName, type SyncCoordinatorOptions } from './options.ts';
import { MeetingPreparation } from './preparation.ts';
import { PullRuns } from './pull-runs.ts';
import { BackgroundPulls } from './schedule.ts';
import { LAST_SYNCED_KEY, composeState, type Activity, type SyncState } from './state.ts';
import { StoreReader } from './store-reader.ts';
import { WindowLink, windowPorts } from './windows.ts';
import { WorkerElection } from './worker.ts';

export { LAST_SYNCED_KEY } from './state.ts';
export { SYNC_NAME, syncName, type SyncCoordinatorOptions } from './options.ts';
export type { OlderActivity } from './on-demand.ts';
export type {
  ConflictEntry,
  HouseholdStep,
  RejectedChange,
  SyncPhase,
  SyncProgress,
  SyncState,
} from './state.ts';
export type { SyncChannel, SyncEvents, SyncLocks } from './windows.ts';

const DEFAULT_INTERVAL_MS = 5 * 60_000;

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
  private readonly onDemand: OnDemandPulls;
  private readonly election: WorkerElection;

  private readonly listeners = new Set<(state: SyncState) => void>();
  private readonly pulls: PullRuns;
  private pushing = false;
  private error: string | null = null;
  private storage: StorageProblem | null = null;
  private current: SyncState;
  private currentKey = '';

  private running = false;
  private teardown: (() => void)[] = [];
  /** This run's session, from `start` to `stop`: its abort ends every pull and push request at once. */
  private session = new AbortController();

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
    this.onDemand = new OnDemandPulls({
      db: this.db,
      pull: this.pull,
      pulls: this.pulls,
      answers: this.answers,
      now: this.now,
      online: this.online,
      signedInHere: () => this.signedInHere(),
    });
    this.offlineQueue = new OfflineQueue(this.answers, () => this.changed());
    this.preparation = new MeetingPreparation({
      db: this.db,
      now: this.now,
      canPull: async () =>
        this.running && this.online() && !this.answers.signInNeeded && (await this.signedInHere()),
      pull: (localId, onProgress) =>
        this.pulls.run(null, () => this.onDemand.preparedPull(localId, onProgress)),
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
    this.election = new WorkerElection({
      windows: this.windows,
      push: this.push,
      background: this.background,
      running: () => this.running,
      session: () => this.session.signal,
      activity: () => this.activity(),
      changed: () => this.changed(),
      fail: (error) => this.fail(error),
      pushEnded: () => (this.pushing = false),
      resumePreparation: () => void this.preparation.resume(),
      rearm: () => this.rearm(),
      signedIn: () => this.signedIn(),
      readStore: () => this.store.read(),
    });
    this.current = this.compose();
  }

  /** This window holds the lock and runs the sync (worker.ts). */
  private get worker(): boolean {
    return this.election.worker;
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

  // ---- The pulls a screen asks for and waits on (on-demand.ts: what each pulls, and when not) ----

  openAccount(localId: string): Promise<PullReport> {
    return this.onDemand.openAccount(localId);
  }

  setAvailableOffline(localId: string, on: boolean): Promise<PullReport | null> {
    return this.onDemand.setAvailableOffline(localId, on);
  }

  refreshAdvisorRecords(what: AdvisorRecords & { force?: boolean }): Promise<void> {
    return this.onDemand.refreshAdvisorRecords(what);
  }

  olderActivity(what: { type?: string; accountId?: string }): Promise<OlderActivity> {
    return this.onDemand.olderActivity(what);
  }

  pullEngagementsOf(localId: string): Promise<PullReport> {
    return this.onDemand.pullEngagementsOf(localId);
  }

  pullTeamEngagements(options: { full?: boolean; sweepAfterMs?: number } = {}): Promise<PullReport> {
    return this.onDemand.pullTeamEngagements(options);
  }

  openEngagement(id: string): Promise<PullReport> {
    return this.onDemand.openEngagement(id);
  }

  pullFormsOf(localId?: string): Promise<PullReport> {
    return this.onDemand.pullFormsOf(localId);
  }

  pullReportList(): Promise<PullReport> {
    return this.onDemand.pullReportList();
  }

  // ---- Households prepared for a meeting: kept offline and pulled whole (preparation.ts) ----

  prepareForMeeting(localIds: readonly string[]): Promise<void> {
    return this.preparation.prepare(localIds);
  }

  retryPreparation(localId: string): Promise<void> {
    return this.preparation.retry(localId);
  }

  clearPrepared(): Promise<void> {
    return this.preparation.clearFinished();
  }

  // ---- Resuming: the network back, focus, "send now", a sign-in ----

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
    else await this.election.askWorkerToSend();
    this.store.read();
    await this.store.idle();
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
    const disconnect = this.windows.connect((message) => this.election.receive(message));
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
    this.election.stand();
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
    await this.election.letGo();
    await this.pulls.ended();
    await this.store.idle();
    for (const undo of this.teardown.splice(0).reverse()) undo();
    this.election.reset();
  }

  /** Whether the user and team signed in are this store's: another's answers are not for it. */
  private async signedInHere(): Promise<boolean> {
    const signedIn = await syncingIdentity(this.db, this.options.identity);
    return sameIdentity(signedIn, await recordedIdentity(this.db));
  }

  // ---- What the push tells ----

  private onPush(event: PushEvent): void {
    // A closed questionnaire wrote its answers into the account: its sections and profile come again.
    if (event.type === 'synced' && event.kind === 'closeEngagement')
      void this.onDemand
        .pullClosedAnswers(event.recordId, event.engagement ?? '')
        .catch((error: unknown) => this.fail(error));
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
    const all = this.election.remote && !this.worker ? [local, this.election.remote] : [local];
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
