// The push side of the sync engine (DESIGN.md §3, Push): sends the outbox to the platform, one
// operation per record at a time, records independently a few at a time, parents before children.
// Plain TypeScript over Dexie and a `Send` port, so it runs in the renderer, in Node tests and in
// the headless chaos runner. The engine runs the loop and its passes; the ideas are the modules beside it:
// what goes next and when (schedule.ts), sending one operation (writes.ts, files.ts; an uncertain
// create is looked for first, ../reconcile.ts), comparing with the server's version (compare.ts),
// classifying every answer in ONE table (outcome.ts), and recording the outcome (settle.ts).
// An operation goes only under the user and team it was made under (its stamp), and a 404 is
// taken for a deletion only once the platform confirms the store's team is current (../team.ts).

import type { ApiRequest, ApiResult } from '@shared/api/request.ts';
import { onOutbox, rowsOf } from '../../data/changes/index.ts';
import type { AdvisorDb } from '../../data/db.ts';
import { sameIdentity, type StoreIdentity } from '../../data/identity/index.ts';
import type { Operation } from '../../data/model.ts';
import { syncingIdentity } from '../../data/identity/recorded.ts';
import { failure, goneFromServer, refuse, type Outcome } from './outcome.ts';
import { Pass, type PushContext, type PushEvent, type PushReport } from './pass.ts';
import { MAX_TRIES_PER_PASS, due, pool, readyOps, retryDelay } from './schedule.ts';
import { settle, type SettleContext } from './settle.ts';
import { HANDLERS, targetOf } from './writes.ts';
import type { Send } from '../send.ts';
import { TeamWatch } from '../team.ts';

export type { PushEvent, PushReport } from './pass.ts';

export interface PushOptions {
  db: AdvisorDb;
  send: Send;
  now?: () => number;
  /** 0..1, for the jitter of retries. */
  random?: () => number;
  /** Records sent at the same time. */
  concurrency?: number;
  /** Exponential backoff of retries: the first delay and the cap (ms). */
  backoff?: { baseMs?: number; maxMs?: number };
  /** The longest the loop sleeps when nothing wakes it (changes made in another window). */
  idleMs?: number;
  /**
   * Whether the system says there is a network (the coordinator's `online` port). While it says
   * no, a request could only fail and write retry bookkeeping onto the operation: nothing is sent
   * and no operation is touched, until `rearm` on reconnect. Default: always online (Node tests,
   * the chaos runner).
   */
  online?: () => boolean;
  /**
   * The user and team signed in now (null: nobody, nothing is sent). An operation is sent only
   * when its stamp is this identity; the others are held as they are, neither failed nor retried.
   * Default: the store's own identity (one user in one team: Node tests, the chaos runner).
   */
  identity?: () => StoreIdentity | null;
  /** Which team the platform has current (shared with the pull); default: the engine's own. */
  team?: TeamWatch;
}

export class PushEngine {
  private readonly db: AdvisorDb;
  private readonly now: () => number;
  private readonly concurrency: number;
  private readonly idleMs: number;
  private readonly online: () => boolean;
  private readonly team: TeamWatch;
  private readonly listeners = new Set<(event: PushEvent) => void>();
  /** Operations this engine is sending now; an `inflight` operation not in here is uncertain. */
  private readonly sending = new Set<string>();
  /** What sending and settling an operation are given. */
  private readonly ctx: SettleContext;
  private paused = false;
  private passes: Promise<unknown> = Promise.resolve();
  private loop: Promise<void> | null = null;
  private stopping = false;
  private dirty = false;
  private wakeUp: (() => void) | null = null;
  private pass: Pass | null = null;
  /** Those waiting for the next pass to end (`sendNow`): the next pass to start takes them. */
  private awaitingPass: ((report: PushReport | null) => void)[] = [];
  /** The session the loop sends for (`start`): aborted on sign-out, nothing more is sent. */
  private signal: AbortSignal | undefined;
  /**
   * Counts the rearms that made the retries due (the network back, focus, "send now"). An
   * operation sent before one and failing after it has its retry made due as well: the rearm
   * could not touch it while it was in flight.
   */
  private rearms = 0;

  constructor(private readonly options: PushOptions) {
    this.db = options.db;
    this.now = options.now ?? Date.now;
    this.concurrency = options.concurrency ?? 3;
    this.idleMs = options.idleMs ?? 30_000;
    this.online = options.online ?? (() => true);
    this.team = options.team ?? new TeamWatch(this.db, options.send);
    const backoff = {
      baseMs: options.backoff?.baseMs ?? 1_000,
      maxMs: options.backoff?.maxMs ?? 5 * 60_000,
      random: options.random ?? Math.random,
    };
    this.ctx = {
      db: this.db,
      now: this.now,
      send: (req) => this.send(req),
      emit: (event) => this.emit(event),
      pause: () => (this.paused = true),
      team: this.team,
      retryDelay: (attempts, failure) => retryDelay(backoff, attempts, failure),
    };
  }

  onEvent(listener: (event: PushEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** One pass: sends until nothing is ready (waiting for a retry time, a parent, the user, or sign-in). */
  run(): Promise<PushReport> {
    const pass = this.passes.then(() => this.runPass());
    this.passes = pass.catch(() => undefined);
    return pass;
  }

  /**
   * Sends in the background until `stop()`: after every change, and when retries fall due. With
   * the session's `signal`, its abort (sign-out) answers the requests in flight at once (their
   * changes stay queued, as after a lost connection) and ends the pass without sending more.
   */
  start(signal?: AbortSignal): void {
    if (this.loop) return;
    this.signal = signal;
    this.stopping = false;
    const off = onOutbox(this.db, (event) => {
      if (event.type === 'changed') this.wake();
    });
    this.loop = this.cycle().finally(off);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.loop;
    this.loop = null;
    // No pass comes any more: whoever waits for one hears so.
    for (const resolve of this.awaitingPass.splice(0)) resolve(null);
  }

  /**
   * On reconnect, focus or a new sign-in: every retry is due now and a paused queue resumes.
   * Offline (focus, a sign-in), the retries keep their times: the reconnect rearms them.
   */
  async rearm(): Promise<void> {
    await this.makeDue();
    this.wake();
  }

  /**
   * "Send now": every retry is due at once, as `rearm` makes it, and this resolves with the report
   * of the pass that then sends them, when it ends (the next pass to start: one under way may have
   * chosen its operations already). Null when the loop is not running or stops first.
   */
  async sendNow(): Promise<PushReport | null> {
    if (this.loop === null || this.stopping) return null;
    await this.makeDue();
    if (this.loop === null || this.stopping) return null;
    const ended = new Promise<PushReport | null>((resolve) => this.awaitingPass.push(resolve));
    this.wake();
    return ended;
  }

  private async makeDue(): Promise<void> {
    this.paused = false;
    if (!this.online()) return;
    this.rearms++;
    await this.db.outbox
      .where('state')
      .anyOf('retry', 'inflight')
      .filter((op) => !this.sending.has(op.id))
      .modify({ nextAttemptAt: 0 });
  }

  private emit(event: PushEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }

  private wake(): void {
    this.dirty = true;
    this.wakeUp?.();
  }

  private async cycle(): Promise<void> {
    while (!this.stopping) {
      this.dirty = false;
      try {
        await this.run();
      } catch (error) {
        this.emit({
          type: 'error',
          message: error instanceof Error ? error.message : String(error),
          cause: error,
        });
      }
      if (!this.stopping && !this.dirty) await this.sleep(await this.nextDue());
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      // Woken (a change, `stop`) while the wait was being worked out: no sleep at all.
      if (this.stopping || this.dirty) return resolve();
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = done;
    });
  }

  /**
   * How long until the next retry falls due. A paused queue waits for `rearm`, an offline one for
   * the reconnect's, both polled at `idleMs` (due retries would otherwise wake it at once, again and again).
   */
  private async nextDue(): Promise<number> {
    if (this.paused || !this.online() || this.team.moved !== null) return this.idleMs;
    const signedIn = await this.signedIn();
    const waiting = await this.db.outbox.where('state').anyOf('retry', 'inflight').toArray();
    const next = Math.min(
      ...waiting
        .filter((op) => !this.sending.has(op.id) && sameIdentity(op.identity, signedIn))
        .map((op) => op.nextAttemptAt),
    );
    return Math.max(0, Math.min(this.idleMs, next - this.now()));
  }

  /** The identity whose operations may be sent now. */
  private signedIn(): Promise<StoreIdentity | null> {
    return syncingIdentity(this.db, this.options.identity);
  }

  /**
   * While the platform's team was last found elsewhere, nothing goes until it is the store's
   * again: asked once a pass has something to send (a create would land in the other team).
   */
  private async teamHeld(): Promise<boolean> {
    if (this.team.moved === null) return false;
    return (await this.team.confirm('upload')).kind !== 'same';
  }

  /**
   * A new account is the one write that meets no 404 under another team: it would simply be made
   * there. So before the first of a pass, the platform confirms its current team is the store's;
   * under another the create waits as it is (the other writes learn it from a 404: settle.ts), and
   * a failure to ask is the create's own (a retry, a sign-in). Null: it may go. A create whose
   * earlier sending went unanswered stays `uncertain` through that failure: nothing was sent this
   * time, so it may still have landed, and it must be looked for before it goes again.
   */
  private async teamBeforeCreate(op: Operation, uncertain: boolean, pass: Pass): Promise<Outcome | null> {
    // A questionnaire sent under another team would meet a refusal (the account is not there), not a 404.
    if (op.table !== 'accounts' || !['create', 'sendEngagement', 'sendForm'].includes(op.kind)) return null;
    pass.team ??= this.team.confirm('upload');
    const team = await pass.team;
    if (team.kind === 'same') return null;
    if (team.kind === 'unknown' && team.failure)
      return { type: 'failed', failure: team.failure, uncertain, teamAsked: true };
    return { type: 'wait' };
  }

  private async runPass(): Promise<PushReport> {
    const pass = new Pass((req) => this.send(req));
    this.pass = pass;
    const waiting = this.awaitingPass.splice(0);
    try {
      while (!this.paused && this.online() && !this.signal?.aborted) {
        const signedIn = await this.signedIn();
        const ready = await readyOps(
          this.db,
          (op) =>
            sameIdentity(op.identity, signedIn) &&
            !this.sending.has(op.id) &&
            !pass.blocked.has(op.id) &&
            (pass.tries.get(op.id) ?? 0) < MAX_TRIES_PER_PASS &&
            due(op, this.now()),
        );
        if (ready.length === 0 || (await this.teamHeld())) break;
        await pool(ready, this.concurrency, (op) => this.process(op, pass));
      }
      pass.report.needsSignIn = this.paused;
      pass.report.remaining = await this.db.outbox.count();
      this.emit({ type: 'pass', report: pass.report });
      return pass.report;
    } finally {
      this.pass = null;
      // Ended, or thrown (the loop reports the error): either way this pass is over.
      for (const resolve of waiting) resolve(pass.report);
    }
  }

  private send(req: ApiRequest): Promise<ApiResult> {
    if (this.pass) this.pass.report.requests++;
    // Pushing local changes comes after what the user waits for, before background pulls.
    return this.options.send({ priority: 'upload', ...req }, this.signal);
  }

  private async process(candidate: Operation, pass: Pass): Promise<void> {
    // Gone offline, signed out, or the platform's team moved during the pass: what is not claimed
    // yet stays as it is.
    if (this.paused || !this.online() || this.signal?.aborted || this.team.moved !== null) return;
    // Signed in as someone else, or in another team, meanwhile: held as it is.
    if (!sameIdentity(candidate.identity, await this.signedIn())) return;
    const claimed = await this.claim(candidate);
    if (!claimed) return;
    const { op, uncertain } = claimed;
    pass.tries.set(op.id, (pass.tries.get(op.id) ?? 0) + 1);
    this.sending.add(op.id);
    const rearms = this.rearms;
    try {
      let outcome: Outcome;
      try {
        outcome = await this.execute(op, uncertain, pass);
      } catch (error) {
        // The port threw or an answer could not be stored: whether the write landed is unknown.
        const message = error instanceof Error ? error.message : String(error);
        outcome = { type: 'failed', uncertain: true, failure: failure('network', message) };
      }
      await settle(this.ctx, op, uncertain, outcome, pass);
      // Sent while offline or unreachable, failed once the network was back: the failure was of
      // before, so its retry is due now rather than after the backoff it chose.
      if (this.rearms !== rearms)
        await this.db.outbox
          .where('state')
          .anyOf('retry', 'inflight')
          .filter((o) => o.id === op.id)
          .modify({ nextAttemptAt: 0 });
    } finally {
      this.sending.delete(op.id);
    }
  }

  /**
   * Marks the operation in flight (persisted) before anything is read or sent for it, so that no
   * edit merges into it meanwhile and a crash leaves it recognisably uncertain. Re-read here: the
   * user may have changed it since it was chosen.
   */
  private claim(candidate: Operation): Promise<{ op: Operation; uncertain: boolean } | null> {
    return this.db.transaction('rw', this.db.outbox, async () => {
      const op = candidate.seq === undefined ? undefined : await this.db.outbox.get(candidate.seq);
      if (!op || !due(op, this.now()) || this.sending.has(op.id)) return null;
      const claimed: Operation = {
        ...op,
        state: 'inflight',
        attempts: op.attempts + 1,
        updatedAt: this.now(),
      };
      await this.db.outbox.put(claimed);
      return { op: claimed, uncertain: op.state === 'inflight' };
    });
  }

  private async execute(op: Operation, uncertain: boolean, pass: Pass): Promise<Outcome> {
    const ctx: PushContext = this.ctx;
    const row = await rowsOf(this.db, op.table).get(op.recordId);
    if (!row) return { type: 'gone' };
    // A pull already saw the record gone: the answer to an update or delete is known without asking.
    if (row.deletedOnServer && op.kind !== 'create')
      return { type: 'failed', failure: goneFromServer(), uncertain: false, teamAsked: true };
    const team = await this.teamBeforeCreate(op, uncertain, pass);
    if (team) return team;
    const target = await targetOf(ctx, row);
    if (!target) return { type: 'wait' };
    const handler = HANDLERS[op.kind];
    if (!handler) return refuse(`Changes of the kind "${op.kind}" cannot be sent yet.`);
    return handler(ctx, op, target, uncertain, pass);
  }
}
