// The sync state of the app (DESIGN.md §3, Sync state): one coordinator per window owns a push
// engine and a pull engine over the local store and the `Send` port, and tells the screens what
// is going on through a framework-free `subscribe`.
//
// One sync worker across windows: the window that holds the Web Lock runs the push loop and the
// background pulls; the others observe. Windows share, over a BroadcastChannel, what only the
// worker knows (syncing, offline, sign-in needed, errors, progress), relay outbox events (a
// change made in an observer wakes the worker's push at once; `whenSynced` in an observer hears
// the worker's answer), and ask the worker to rearm. What lives in IndexedDB (pending count,
// refused changes, conflicts, last synced time, each record's badge) every window reads itself,
// again whenever the outbox or the push says it moved (and the worker tells the others so).
// Not Dexie's liveQuery: it needs a global IndexedDB, and this must run unchanged in Node (tests,
// the headless chaos runner), where the database is handed in.
//
// Interactive pulls (an account opened, an account made available offline) run in the window that
// asks: the user waits there, and the transport behind `Send` orders requests by priority for
// every window (interactive, then the push's uploads, then background pulls).

import type { ApiName, ApiRequest, ApiResult, Priority } from '../../../shared/api/request.ts';
import {
  DELETED_ON_SERVER,
  onOutbox,
  rowsOf,
  signalOutbox,
  whenSynced,
  type OutboxEvent,
} from '../data/changes.ts';
import type { AdvisorDb } from '../data/db.ts';
import { accountLabel, recordLabel } from '../data/labels.ts';
import type { ConflictRow, OperationKind, OperationState, SyncStatus, SyncedTable } from '../data/model.ts';
import { storageProblem, type StorageProblem } from '../data/storage.ts';
import {
  emptyReport,
  PullEngine,
  type PullEngineOptions,
  type PullProgress,
  type PullReport,
} from './pull.ts';
import { PushEngine, type PushEvent, type PushOptions } from './push.ts';
import type { Send } from './send.ts';

export type SyncPhase = 'offline' | 'syncing' | 'idle' | 'needs-sign-in' | 'error';

/** A change the platform refused (403, 422): shown with its record until the user fixes or retries it. */
export interface RejectedChange {
  opId: string;
  table: SyncedTable;
  recordId: string;
  /** The record, named for the user. */
  label: string;
  change: OperationKind;
  message: string;
  status: number | null;
  /** The platform's messages by field, for the record's form. */
  fields: Record<string, string[]>;
}

/** A conflict waiting for the user, with its record named. */
export interface ConflictEntry extends ConflictRow {
  label: string;
  /** The record is gone from the server: recreate or discard, rather than field by field. */
  deletedOnServer: boolean;
}

/** A long pull under way: `done` of `total` (null while the total is unknown). */
export interface SyncProgress {
  id: string;
  label: string;
  /** The account a pull of one account is about (opened, or made available offline). */
  accountId: string | null;
  done: number;
  total: number | null;
}

export interface SyncState {
  phase: SyncPhase;
  /** The phase in plain words (null when idle). */
  message: string | null;
  /** True in the window that runs the sync; the other windows observe it. */
  worker: boolean;
  /** Changes waiting to be sent (refused ones and conflicts are listed apart). */
  pendingCount: number;
  rejected: RejectedChange[];
  conflicts: ConflictEntry[];
  /** When the platform last took our changes or gave us its data without a failure (ms). */
  lastSyncedAt: number | null;
  progress: SyncProgress[];
  /** The last storage failure met while syncing, in plain words (cleared by the next success). */
  storage: StorageProblem | null;
}

// ---- Ports: each defaults to the browser's, and is null where there is none (Node tests) ----

/** The part of the Web Locks API used here (`navigator.locks`). */
export interface SyncLocks {
  request(
    name: string,
    options: { signal?: AbortSignal },
    callback: (lock: unknown) => Promise<void>,
  ): Promise<unknown>;
}

/** The part of BroadcastChannel used here. */
export interface SyncChannel {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  close(): void;
}

/** Where `online`, `offline` and `focus` arrive (the window). */
export interface SyncEvents {
  addEventListener(type: string, listener: () => void): void;
  removeEventListener(type: string, listener: () => void): void;
}

export interface SyncCoordinatorOptions {
  db: AdvisorDb;
  send: Send;
  /** The Web Lock and the BroadcastChannel of the sync. Default `advisor-desk-sync`. */
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
}

export const SYNC_NAME = 'advisor-desk-sync';
/** Meta key of `lastSyncedAt`. */
export const LAST_SYNCED_KEY = 'sync.lastSyncedAt';

const DEFAULT_INTERVAL_MS = 5 * 60_000;
const WAITING: OperationState[] = ['queued', 'inflight', 'retry'];
const UNREACHABLE = new Set<string>(['network', 'timeout']);

interface HostGlobals {
  navigator?: { onLine?: boolean; locks?: SyncLocks };
  window?: SyncEvents;
  BroadcastChannel?: new (name: string) => SyncChannel;
}

/** What one window knows that the store does not hold: shared by the worker with the others. */
interface Activity {
  syncing: boolean;
  /** The last request found no platform (network or timeout). */
  unreachable: boolean;
  /** The platform refused our token and it could not be renewed. */
  signIn: boolean;
  error: string | null;
  storage: StorageProblem | null;
  progress: SyncProgress[];
}

type Message =
  /** A window starts: the worker answers with its activity. */
  | { type: 'hello' }
  /** The worker's activity; null when it stops being the worker. */
  | { type: 'activity'; activity: Activity | null }
  /** To the worker: rearm the push (after a sign-in: and catch up with a pull). */
  | { type: 'rearm'; signedIn: boolean }
  /** From the worker: the push moved operations; read the store again. */
  | { type: 'stored' }
  | { type: 'outbox'; event: OutboxEvent };

/** How a pull's progress is shown. */
type Shown = Pick<SyncProgress, 'label' | 'accountId'>;

/** What every window reads from the store itself. */
type Stored = Pick<SyncState, 'pendingCount' | 'rejected' | 'conflicts' | 'lastSyncedAt'>;

const NOTHING_STORED: Stored = { pendingCount: 0, rejected: [], conflicts: [], lastSyncedAt: null };

/** One read transaction: the count and the lists must describe the same moment. */
function readStored(db: AdvisorDb): Promise<Stored> {
  const tables = [db.outbox, db.conflicts, db.meta, db.accounts, db.sectionItems, db.singles];
  return db.transaction('r', tables, () => readStoredNow(db));
}

async function readStoredNow(db: AdvisorDb): Promise<Stored> {
  const pendingCount = await db.outbox.where('state').anyOf(WAITING).count();
  const refused = await db.outbox.where('state').equals('rejected').sortBy('seq');
  const conflictRows = await db.conflicts.toArray();
  const last = (await db.meta.get(LAST_SYNCED_KEY))?.value;
  const rejected: RejectedChange[] = [];
  for (const op of refused)
    rejected.push({
      opId: op.id,
      table: op.table,
      recordId: op.recordId,
      label: await recordLabel(db, op.table, op.recordId),
      change: op.kind,
      message: op.lastError?.message ?? 'The platform refused this change.',
      status: op.lastError?.status ?? null,
      fields: op.lastError?.fields ?? {},
    });
  const conflicts: ConflictEntry[] = [];
  for (const row of conflictRows.sort((a, b) => a.detectedAt - b.detectedAt))
    conflicts.push({
      ...row,
      label: await recordLabel(db, row.table, row.recordId),
      deletedOnServer: DELETED_ON_SERVER in row.fields,
    });
  return { pendingCount, rejected, conflicts, lastSyncedAt: typeof last === 'number' ? last : null };
}

/** Outbox events that came from another window: signalled here, never sent back. */
const relayed = new WeakSet<OutboxEvent>();

/**
 * Counts the requests of one account pull: after the account itself, all its parts go out at
 * once, so "answered of sent" is its progress (the pull engine reports none within an account).
 */
class AccountRequests {
  sent = 0;
  answered = 0;
  private readonly path: RegExp;

  constructor(
    serverId: number,
    private readonly priority: Priority,
    private readonly onProgress: (p: PullProgress) => void,
  ) {
    this.path = new RegExp(`^/accounts/${serverId}(/|$)`);
  }

  counts(req: ApiRequest): boolean {
    return req.method === 'GET' && req.priority === this.priority && this.path.test(req.path);
  }

  report(): void {
    this.onProgress({ done: this.answered, total: this.sent });
  }
}

/** Someone watching a record's badge. */
interface StatusWatch {
  table: SyncedTable;
  recordId: string;
  listener: (status: SyncStatus | null) => void;
  last: SyncStatus | null | undefined;
}

const words = (error: unknown) => (error instanceof Error ? error.message : String(error));

export class SyncCoordinator {
  private readonly db: AdvisorDb;
  private readonly push: PushEngine;
  private readonly pull: PullEngine;
  private readonly name: string;
  private readonly intervalMs: number;
  private readonly now: () => number;
  private readonly locks: SyncLocks | null;
  private readonly openChannel: ((name: string) => SyncChannel) | null;
  private readonly events: SyncEvents | null;
  private readonly online: () => boolean;

  private readonly listeners = new Set<(state: SyncState) => void>();
  private readonly counters = new Set<AccountRequests>();
  private readonly pulls = new Set<Promise<PullReport>>();
  private readonly progress = new Map<string, SyncProgress>();
  private readonly authFailed = new Set<ApiName>();
  private readonly watches = new Set<StatusWatch>();
  private stored: Stored = NOTHING_STORED;
  private reading: Promise<void> | null = null;
  private readAgain = false;
  /** The worker's activity, in an observing window. */
  private remote: Activity | null = null;
  private pushing = false;
  private unreachable = false;
  private error: string | null = null;
  private storage: StorageProblem | null = null;
  private current: SyncState;
  private currentKey = '';
  private postedKey = '';

  private running = false;
  private worker = false;
  private held: Promise<void> | null = null;
  private release: (() => void) | null = null;
  private abort: AbortController | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private backgroundRun: Promise<void> | null = null;
  private channel: SyncChannel | null = null;
  private teardown: (() => void)[] = [];

  constructor(private readonly options: SyncCoordinatorOptions) {
    const host = globalThis as unknown as HostGlobals;
    const Channel = host.BroadcastChannel;
    this.db = options.db;
    this.name = options.name ?? SYNC_NAME;
    this.intervalMs = options.backgroundIntervalMs ?? DEFAULT_INTERVAL_MS;
    this.now = options.now ?? Date.now;
    this.locks = options.locks !== undefined ? options.locks : (host.navigator?.locks ?? null);
    this.openChannel =
      options.channel !== undefined ? options.channel : Channel ? (name) => new Channel(name) : null;
    this.events = options.events !== undefined ? options.events : (host.window ?? null);
    this.online = options.online ?? (() => host.navigator?.onLine ?? true);
    this.push = new PushEngine({
      ...options.push,
      db: this.db,
      now: this.now,
      online: this.online,
      send: (req) => {
        this.setPushing(true);
        return this.send(req);
      },
    });
    this.pull = new PullEngine({
      ...options.pull,
      db: this.db,
      now: this.now,
      send: (req) => this.send(req),
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
    const watch: StatusWatch = { table, recordId, listener, last: undefined };
    this.watches.add(watch);
    void this.readStatus(watch).catch((error: unknown) => this.fail(error));
    return () => this.watches.delete(watch);
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

  /** Window focus, reconnect, "try again": every retry is due now and a paused queue resumes. */
  async rearm(): Promise<void> {
    if (this.worker) await this.push.rearm();
    else this.post({ type: 'rearm', signedIn: false });
  }

  /** After a sign-in: forget the refused token, resume the queue, and catch up with a pull. */
  async signedIn(): Promise<void> {
    this.authFailed.clear();
    this.changed();
    if (!this.worker) return this.post({ type: 'rearm', signedIn: true });
    await this.push.rearm();
    void this.background();
  }

  // ---- Starting and stopping ----

  /** Starts observing, and syncing once this window holds the lock (at once where there are no locks). */
  start(): void {
    if (this.running) return;
    this.running = true;
    // Every change, settled operation and relayed event of another window moves the outbox.
    this.teardown.push(onOutbox(this.db, () => this.read()));
    this.teardown.push(this.push.onEvent((event) => this.onPush(event)));
    this.read();
    this.connect();
    this.listen();
    this.post({ type: 'hello' });
    this.held = this.acquire();
  }

  /** Stops syncing (the push ends its pass first, then the lock passes on) and observing. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.abort?.abort();
    this.release?.();
    await this.held;
    await Promise.allSettled([...this.pulls]);
    await this.reading;
    for (const undo of this.teardown.splice(0).reverse()) undo();
    this.held = this.release = this.abort = null;
    this.remote = null;
  }

  private acquire(): Promise<void> {
    if (!this.locks) return this.work();
    const abort = new AbortController();
    this.abort = abort;
    return this.locks
      .request(this.name, { signal: abort.signal }, () => this.work())
      .then(
        () => undefined,
        (error: unknown) => {
          // Stopped while waiting for the lock: nothing went wrong.
          if (!abort.signal.aborted) this.fail(error);
        },
      );
  }

  /** Runs while this window holds the lock: the push loop and the background pulls, until `stop`. */
  private async work(): Promise<void> {
    if (!this.running) return;
    const released = new Promise<void>((resolve) => (this.release = resolve));
    this.worker = true;
    this.remote = null;
    this.push.start();
    this.timer = setInterval(() => void this.background(), this.intervalMs);
    this.changed();
    void this.background();
    await released;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    // The next worker must find no operation of ours in flight: the push ends its pass first.
    await this.push.stop();
    this.worker = false;
    this.pushing = false;
    this.post({ type: 'activity', activity: null });
    this.changed();
  }

  // ---- Pulls ----

  /** Configuration (daily), the account list (incremental), then the accounts kept offline. */
  private background(): Promise<void> {
    if (!this.worker || !this.online()) return Promise.resolve();
    this.backgroundRun ??= this.runBackground().finally(() => {
      this.backgroundRun = null;
      this.changed();
    });
    return this.backgroundRun;
  }

  private async runBackground(): Promise<void> {
    const steps: [Shown | null, (onProgress: (p: PullProgress) => void) => Promise<PullReport>][] = [
      [null, () => this.pull.pullConfig({ priority: 'background' })],
      [
        { label: 'Updating the account list', accountId: null },
        (onProgress) => this.pull.pullAccountList({ priority: 'background', onProgress }),
      ],
      [
        { label: 'Updating the accounts kept offline', accountId: null },
        (onProgress) => this.pull.pullOfflineAccounts({ onProgress }),
      ],
    ];
    for (const [label, step] of steps) {
      if (!this.worker) return;
      const report = await this.pulling(label, step).catch(() => null);
      // Without the platform, or without a valid sign-in, the next steps would fail the same way.
      if (!report || this.unreachable || this.authFailed.size > 0) return;
    }
  }

  private async pullAccount(localId: string, verb: string): Promise<PullReport> {
    if (!this.online()) return { ...emptyReport(), skipped: true };
    const account = await this.db.accounts.get(localId);
    const serverId = account?.serverId;
    const label = `${verb} ${accountLabel(account)}`;
    return this.pulling({ label, accountId: localId }, (onProgress) => {
      const counter =
        typeof serverId === 'number' ? new AccountRequests(serverId, 'interactive', onProgress) : null;
      if (counter) this.counters.add(counter);
      return this.pull
        .pullAccount(localId, { priority: 'interactive' })
        .finally(() => counter && this.counters.delete(counter));
    });
  }

  /** Runs one pull as part of the state: syncing meanwhile, its progress (if `shown`), its outcome. */
  private async pulling(
    shown: Shown | null,
    work: (onProgress: (p: PullProgress) => void) => Promise<PullReport>,
  ): Promise<PullReport> {
    const id = crypto.randomUUID();
    const wasUnreachable = this.unreachable;
    const wasSignIn = this.authFailed.size > 0;
    const run = work((p) => {
      if (shown === null) return;
      this.progress.set(id, { id, ...shown, done: p.done, total: p.total });
      this.changed();
    });
    this.pulls.add(run);
    this.changed();
    try {
      const report = await run;
      if (report.failures.length === 0) {
        this.error = this.storage = null;
        if (report.requests > 0) await this.markSynced();
      }
      // The platform answers again, or takes our token again: retries need not wait out their backoff.
      if ((wasUnreachable && !this.unreachable) || (wasSignIn && this.authFailed.size === 0))
        void this.rearm();
      return report;
    } catch (error) {
      this.fail(error);
      throw error;
    } finally {
      this.pulls.delete(run);
      this.progress.delete(id);
      this.changed();
    }
  }

  // ---- What the requests and the push tell ----

  /** Every request of both engines: counted for progress, and read for the connection and the sign-in. */
  private async send(req: ApiRequest): Promise<ApiResult> {
    const counters = [...this.counters].filter((c) => c.counts(req));
    for (const counter of counters) {
      counter.sent++;
      counter.report();
    }
    let result: ApiResult | null = null;
    try {
      result = await this.options.send(req);
      this.options.observe?.(result);
      return result;
    } finally {
      // A port that throws is taken for a lost connection, as the engines take it.
      this.noteAnswer(req.api, result);
      for (const counter of counters) {
        counter.answered++;
        counter.report();
      }
    }
  }

  private noteAnswer(api: ApiName, result: ApiResult | null): void {
    // Any answer, even a refusal, shows the platform is reachable.
    this.unreachable = result === null || (!result.ok && UNREACHABLE.has(result.kind));
    if (result && !result.ok && result.kind === 'auth') this.authFailed.add(api);
    else if (result?.ok) this.authFailed.delete(api);
    this.changed();
  }

  private onPush(event: PushEvent): void {
    // Retries and conflicts move operations without an outbox event; the other windows hear it here.
    if (event.type !== 'error' && event.type !== 'needs-sign-in') {
      this.read();
      this.post({ type: 'stored' });
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
      this.stored = { ...this.stored, lastSyncedAt: at };
      this.read();
      this.post({ type: 'stored' });
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

  // ---- Windows ----

  private connect(): void {
    const channel = this.openChannel?.(this.name) ?? null;
    if (!channel) return;
    // Node keeps a process alive for an open channel; a window does not need that either.
    (channel as { unref?: () => void }).unref?.();
    channel.addEventListener('message', (event) => this.receive(event.data as Message));
    this.channel = channel;
    const off = onOutbox(this.db, (event) => {
      if (!relayed.has(event)) this.post({ type: 'outbox', event });
    });
    this.teardown.push(() => {
      off();
      channel.close();
      this.channel = null;
    });
  }

  private receive(message: Message): void {
    switch (message.type) {
      case 'hello':
        if (this.worker) this.post({ type: 'activity', activity: this.activity() });
        return;
      case 'activity':
        if (this.worker) return;
        this.remote = message.activity;
        this.changed();
        return;
      case 'rearm':
        if (this.worker) void (message.signedIn ? this.signedIn() : this.rearm());
        return;
      case 'stored':
        this.read();
        return;
      case 'outbox':
        relayed.add(message.event);
        signalOutbox(this.db, message.event);
    }
  }

  private post(message: Message): void {
    if (message.type === 'activity') this.postedKey = JSON.stringify(message.activity);
    this.channel?.postMessage(message);
  }

  private listen(): void {
    const target = this.events;
    if (!target) return;
    const on = (type: string, handler: () => void) => {
      target.addEventListener(type, handler);
      this.teardown.push(() => target.removeEventListener(type, handler));
    };
    on('online', () => {
      this.changed();
      void this.rearm();
      void this.background();
    });
    on('offline', () => this.changed());
    on('focus', () => void this.rearm());
  }

  // ---- The state ----

  /** Reads the store again (one read at a time; changes meanwhile ask for one more). */
  private read(): void {
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = (async () => {
      do {
        this.readAgain = false;
        try {
          this.stored = await readStored(this.db);
          for (const watch of [...this.watches]) await this.readStatus(watch);
        } catch (error) {
          this.fail(error);
        }
        this.changed();
      } while (this.readAgain && this.running);
    })().finally(() => (this.reading = null));
  }

  private async readStatus(watch: StatusWatch): Promise<void> {
    const status = (await rowsOf(this.db, watch.table).get(watch.recordId))?.status ?? null;
    if (status !== watch.last && this.watches.has(watch)) watch.listener((watch.last = status));
  }

  private activity(): Activity {
    return {
      // The background run counts as a whole: no "idle" between its steps.
      syncing: this.pushing || this.pulls.size > 0 || this.backgroundRun !== null,
      unreachable: this.unreachable,
      signIn: this.authFailed.size > 0,
      error: this.error,
      storage: this.storage,
      progress: [...this.progress.values()],
    };
  }

  private compose(local = this.activity()): SyncState {
    const all = this.remote && !this.worker ? [local, this.remote] : [local];
    const networkDown = !this.online();
    const unreachable = all.some((a) => a.unreachable);
    const signIn = all.some((a) => a.signIn);
    const error = all.find((a) => a.error)?.error ?? null;
    const phase: SyncPhase =
      networkDown || unreachable
        ? 'offline'
        : signIn
          ? 'needs-sign-in'
          : error
            ? 'error'
            : all.some((a) => a.syncing)
              ? 'syncing'
              : 'idle';
    return {
      phase,
      message: describe(phase, networkDown, error),
      worker: this.worker,
      ...this.stored,
      progress: all.flatMap((a) => a.progress),
      storage: all.find((a) => a.storage)?.storage ?? null,
    };
  }

  private changed(): void {
    const local = this.activity();
    if (this.worker && JSON.stringify(local) !== this.postedKey)
      this.post({ type: 'activity', activity: local });
    const next = this.compose(local);
    const key = JSON.stringify(next);
    if (key === this.currentKey) return;
    this.current = next;
    this.currentKey = key;
    for (const listener of [...this.listeners]) listener(next);
  }
}

function describe(phase: SyncPhase, networkDown: boolean, error: string | null): string | null {
  switch (phase) {
    case 'offline':
      return networkDown
        ? 'You are offline. Your changes are saved on this computer and will be sent when the connection is back.'
        : 'The platform cannot be reached. Your changes are saved on this computer and will be sent when it answers again.';
    case 'needs-sign-in':
      return 'Your sign-in has expired. Sign in again to send your changes; nothing you entered is lost.';
    case 'error':
      return error;
    case 'syncing':
      return 'Syncing with the platform…';
    default:
      return null;
  }
}
