// The push side of the sync engine (DESIGN.md §3, Push): sends the outbox to the platform, one
// operation per record at a time, records independently a few at a time, parents before children.
// Every failure is classified in ONE table (VERDICTS). Plain TypeScript over Dexie and a `Send`
// port, so it runs in the renderer, in Node tests and in the headless chaos runner.

import type {
  ApiErrorKind,
  ApiFailure,
  ApiRequest,
  ApiResult,
  UploadFile,
} from '../../../shared/api/request.ts';
import {
  SYNC_TABLES,
  absorbBehindRefused,
  onOutbox,
  recordOps,
  refreshRow,
  releaseFiles,
  rowsOf,
  signalOutbox,
  DELETED_ON_SERVER,
  type AnyRow,
} from '../data/changes.ts';
import type { AdvisorDb } from '../data/db.ts';
import { isPendingFile, type PendingFile } from '../data/files.ts';
import { keepLocalIds } from '../data/mappers.ts';
import { memberSecurityRow } from '../data/records.ts';
import type {
  AccountRow,
  ConflictRow,
  Fields,
  Operation,
  OperationError,
  SectionItemRow,
  SyncedTable,
} from '../data/model.ts';
import { relationTargetIds, relationsToLocal, relationsToServer } from './ids.ts';
import { findCreated } from './reconcile.ts';
import type { Send } from './send.ts';
import {
  DESCRIPTORS,
  fileInRecord,
  pinResetRequest,
  removeFileRequest,
  securityRequest,
  uploadRequest,
  uploadTimeout,
  type Snapshot,
  type Target,
  type TableDescriptor,
} from './requests.ts';

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
}

export interface PushReport {
  /** Requests sent to the platform in this pass, reads included. */
  requests: number;
  synced: number;
  adopted: number;
  retried: number;
  rejected: number;
  conflicts: number;
  needsSignIn: boolean;
  /** Operations still in the outbox after the pass. */
  remaining: number;
}

interface RecordRef {
  opId: string;
  table: SyncedTable;
  recordId: string;
}

export type PushEvent =
  | ({ type: 'synced'; adopted: boolean } & RecordRef)
  | ({ type: 'retry'; at: number; error: OperationError } & RecordRef)
  | ({ type: 'rejected'; error: OperationError } & RecordRef)
  | ({ type: 'conflict'; deletedOnServer: boolean } & RecordRef)
  | { type: 'needs-sign-in'; error: OperationError }
  /** `cause` is what was thrown (a storage failure, for one), for the sync state to classify. */
  | { type: 'error'; message: string; cause: unknown }
  /** A pass has ended (the sync state's "syncing" ends with it); not sent when the pass threw. */
  | { type: 'pass'; report: PushReport };

type Verdict = 'retry' | 'sign-in' | 'rejected' | 'deleted-on-server' | 'gone';

/** What the engine does with each kind of failure (DESIGN.md §3, the table under Push). */
const VERDICTS: Record<ApiErrorKind, Verdict | ((op: Operation) => Verdict)> = {
  network: 'retry',
  timeout: 'retry',
  'rate-limited': 'retry',
  server: 'retry',
  unavailable: 'retry',
  // The transport has already tried a refresh: only signing in again helps, for every operation.
  auth: 'sign-in',
  forbidden: 'rejected',
  validation: 'rejected',
  // A delete that finds nothing has what the user wanted: "recreate or discard?" would offer no
  // real choice about a record they chose to delete. A create, an upload, a file removal or a PIN
  // reset meets 404 only when its account, member or item is gone, which sending again cannot
  // cure, and they hold nothing to recreate the record from.
  'not-found': (op) =>
    op.kind === 'delete' ? 'gone' : op.kind === 'update' ? 'deleted-on-server' : 'rejected',
};

/**
 * Failures after which a write may have been applied: no answer, or a 5xx the server may have
 * given after committing. An operation that met one stays `inflight` (uncertain): nothing is
 * merged into it, and a create is looked for on the server before it is sent again. 429 and 503
 * are refusals before any work, so they leave the operation certain.
 */
const UNCERTAIN: ReadonlySet<ApiErrorKind> = new Set(['network', 'timeout', 'server']);

type Outcome =
  /** `effects`: fields the write changed on the server besides those it sent (a conversion moves the stage). */
  | { type: 'done'; raw: Snapshot; adopted: boolean; effects?: readonly string[] }
  | { type: 'gone' }
  | { type: 'conflict'; raw: Snapshot; fields: ConflictRow['fields'] }
  | { type: 'failed'; failure: ApiFailure; uncertain: boolean }
  | { type: 'wait' };

/** With no backoff (tests), an operation failing every time must not hold a pass forever. */
const MAX_TRIES_PER_PASS = 10;

/** A failure found here rather than answered by the platform. */
const failure = (kind: ApiErrorKind, message: string, status: number | null = null): ApiFailure => ({
  ok: false,
  kind,
  status,
  message,
  fields: {},
  retryAfterMs: null,
});

const goneFromServer = () => failure('not-found', 'The record was deleted on the server.', 404);

const errorOf = (f: ApiFailure): OperationError => ({
  kind: f.kind,
  status: f.status,
  message: f.message,
  fields: f.fields,
});

/** One pass: its counts, and the server versions it has read (a section's collection is read once). */
class Pass {
  readonly report: PushReport = {
    requests: 0,
    synced: 0,
    adopted: 0,
    retried: 0,
    rejected: 0,
    conflicts: 0,
    needsSignIn: false,
    remaining: 0,
  };
  readonly tries = new Map<string, number>();
  readonly blocked = new Set<string>();
  private readonly versions = new Map<string, Promise<ApiResult>>();

  constructor(private readonly send: Send) {}

  read(req: ApiRequest): Promise<ApiResult> {
    const key = `${req.api} ${req.path}`;
    let version = this.versions.get(key);
    if (!version) {
      version = this.send(req).then((res) => {
        // A failed read is not shared: the next operation may meet a server that answers again.
        if (!res.ok) this.versions.delete(key);
        return res;
      });
      this.versions.set(key, version);
    }
    return version;
  }

  /**
   * Keeps a collection read in this pass true to what this pass wrote, so that its other items
   * are still compared against one read; a single record is simply read again.
   */
  wrote(req: ApiRequest, collection: boolean, serverId: unknown, fields: Fields | null): void {
    const key = `${req.api} ${req.path}`;
    const version = this.versions.get(key);
    if (!version) return;
    if (!collection) this.versions.delete(key);
    else
      this.versions.set(
        key,
        version.then((res) =>
          res.ok && Array.isArray(res.data) ? { ...res, data: patched(res.data, serverId, fields) } : res,
        ),
      );
  }

  forget(req: ApiRequest): void {
    this.versions.delete(`${req.api} ${req.path}`);
  }
}

function patched(items: unknown[], serverId: unknown, fields: Fields | null): unknown[] {
  const others = items.filter((item) => (item as { id?: unknown } | null)?.id !== serverId);
  return fields === null ? others : [...others, { ...fields, id: serverId }];
}

/** The rows `waitsFor` looks at, read at once for all candidates of a pass loop. */
interface ReadyView {
  /** The candidates' records, by `${table}:${id}`. */
  rows: Map<string, AnyRow>;
  /** Their accounts, by local id. */
  accounts: Map<string, AccountRow>;
  /** The items their relations name, by local id. */
  targets: Map<string, SectionItemRow>;
  /** Every queued operation, by `${table}:${recordId}`, in order. */
  byRecord: Map<string, Operation[]>;
}

async function byId<R extends { id: string }>(rows: Promise<(R | undefined)[]>): Promise<Map<string, R>> {
  return new Map((await rows).filter((r): r is R => r !== undefined).map((r) => [r.id, r]));
}

async function pool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}

export class PushEngine {
  private readonly db: AdvisorDb;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly concurrency: number;
  private readonly baseMs: number;
  private readonly maxMs: number;
  private readonly idleMs: number;
  private readonly online: () => boolean;
  private readonly listeners = new Set<(event: PushEvent) => void>();
  /** Operations this engine is sending now; an `inflight` operation not in here is uncertain. */
  private readonly sending = new Set<string>();
  private paused = false;
  private passes: Promise<unknown> = Promise.resolve();
  private loop: Promise<void> | null = null;
  private stopping = false;
  private dirty = false;
  private wakeUp: (() => void) | null = null;
  private pass: Pass | null = null;

  constructor(private readonly options: PushOptions) {
    this.db = options.db;
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.concurrency = options.concurrency ?? 3;
    this.baseMs = options.backoff?.baseMs ?? 1_000;
    this.maxMs = options.backoff?.maxMs ?? 5 * 60_000;
    this.idleMs = options.idleMs ?? 30_000;
    this.online = options.online ?? (() => true);
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

  /** Sends in the background until `stop()`: after every change, and when retries fall due. */
  start(): void {
    if (this.loop) return;
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
  }

  /**
   * On reconnect, focus or a new sign-in: every retry is due now and a paused queue resumes.
   * Offline (focus, a sign-in), the retries keep their times: the reconnect rearms them.
   */
  async rearm(): Promise<void> {
    this.paused = false;
    if (!this.online()) return this.wake();
    await this.db.outbox
      .where('state')
      .anyOf('retry', 'inflight')
      .filter((op) => !this.sending.has(op.id))
      .modify({ nextAttemptAt: 0 });
    this.wake();
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
    if (this.paused || !this.online()) return this.idleMs;
    const waiting = await this.db.outbox.where('state').anyOf('retry', 'inflight').toArray();
    const due = Math.min(...waiting.filter((op) => !this.sending.has(op.id)).map((op) => op.nextAttemptAt));
    return Math.max(0, Math.min(this.idleMs, due - this.now()));
  }

  private async runPass(): Promise<PushReport> {
    const pass = new Pass((req) => this.send(req));
    this.pass = pass;
    try {
      while (!this.paused && this.online()) {
        const ready = await this.readyOps(pass);
        if (ready.length === 0) break;
        await pool(ready, this.concurrency, (op) => this.process(op, pass));
      }
    } finally {
      this.pass = null;
    }
    pass.report.needsSignIn = this.paused;
    pass.report.remaining = await this.db.outbox.count();
    this.emit({ type: 'pass', report: pass.report });
    return pass.report;
  }

  private send(req: ApiRequest): Promise<ApiResult> {
    if (this.pass) this.pass.report.requests++;
    // Pushing local changes comes after what the user waits for, before background pulls.
    return this.options.send({ priority: 'upload', ...req });
  }

  // ---- Choosing what goes next -------------------------------------------------------------------

  /**
   * The first operation of each record, when it is due and nothing it needs is missing on the
   * server. One read of the outbox and one batch read per table a pass loop: a large backlog costs
   * O(n) per loop, not a few reads per record.
   */
  private async readyOps(pass: Pass): Promise<Operation[]> {
    const byRecord = new Map<string, Operation[]>();
    for (const op of await this.db.outbox.orderBy('seq').toArray()) {
      const key = `${op.table}:${op.recordId}`;
      const ops = byRecord.get(key);
      if (ops) ops.push(op);
      else byRecord.set(key, [op]);
    }
    const candidates = [...byRecord.values()]
      .map((ops) => ops[0] as Operation)
      .filter(
        (op) =>
          !this.sending.has(op.id) &&
          !pass.blocked.has(op.id) &&
          (pass.tries.get(op.id) ?? 0) < MAX_TRIES_PER_PASS &&
          this.due(op),
      );
    if (candidates.length === 0) return [];
    const view = await this.readyView(candidates, byRecord);
    return candidates.filter((op) => !this.waitsFor(op, view));
  }

  private due(op: Operation): boolean {
    if (op.state === 'queued') return true;
    return (op.state === 'retry' || op.state === 'inflight') && op.nextAttemptAt <= this.now();
  }

  /** What `waitsFor` needs of the candidates, read in one batch per table. */
  private async readyView(
    candidates: readonly Operation[],
    byRecord: Map<string, Operation[]>,
  ): Promise<ReadyView> {
    const rows = new Map<string, AnyRow>();
    for (const table of ['accounts', 'sectionItems', 'singles'] as const) {
      const ids = candidates.filter((op) => op.table === table).map((op) => op.recordId);
      if (ids.length === 0) continue;
      const found = await rowsOf(this.db, table).bulkGet(ids);
      found.forEach((row, i) => row && rows.set(`${table}:${ids[i]}`, row));
    }
    const accountIds = new Set<string>();
    const targetIds = new Set<string>();
    for (const op of candidates) {
      const row = rows.get(`${op.table}:${op.recordId}`);
      if (!row || !('accountId' in row)) continue;
      accountIds.add(row.accountId);
      if (DESCRIPTORS[op.table].relations && op.kind !== 'delete')
        for (const id of relationTargetIds(row as SectionItemRow, op.fields)) targetIds.add(id);
    }
    return {
      rows,
      accounts: await byId(this.db.accounts.bulkGet([...accountIds])),
      targets: await byId(this.db.sectionItems.bulkGet([...targetIds])),
      byRecord,
    };
  }

  /**
   * A record waits while its account, or an item one of its relations names, is an unsent create,
   * and a record of the co-client, or one naming them, while that co-client is being added here.
   */
  private waitsFor(op: Operation, view: ReadyView): boolean {
    const row = view.rows.get(`${op.table}:${op.recordId}`);
    if (!row) return false;
    if (op.kind !== 'create' && row.serverId === null && op.table !== 'singles') return true;
    if ('accountId' in row && !view.accounts.get(row.accountId)?.serverId) return true;
    if (this.coclientComing(row, op, view)) return true;
    if (!DESCRIPTORS[op.table].relations || op.kind === 'delete') return false;
    return relationTargetIds(row as SectionItemRow, op.fields).some(
      (id) => view.targets.get(id)?.serverId === null,
    );
  }

  /**
   * A record of the co-client (details, income, employment), or one naming them (`coclient`,
   * `joint`), of an account whose co-client the platform does not have yet, while a change queued
   * here adds one: sent first, it would meet "co-client not found" or "owner is invalid".
   */
  private coclientComing(row: AnyRow, op: Operation, view: ReadyView): boolean {
    const key = 'key' in row ? row.key : 'section' in row ? row.section : '';
    const names = (v: unknown) => {
      const type = typeof v === 'string' ? v : (v as { type?: unknown } | null)?.type;
      return type === 'coclient' || type === 'joint';
    };
    if (!('accountId' in row) || !(key.endsWith(':coclient') || Object.values(op.fields).some(names)))
      return false;
    const account = view.accounts.get(row.accountId);
    if (!account || account.meta.coclientId !== null) return false;
    const addsCoclient = (fields: Fields) =>
      ['coclient.first_name', 'coclient.last_name', 'coclient.email'].some(
        (k) => typeof fields[k] === 'string' && fields[k] !== '',
      );
    return (view.byRecord.get(`accounts:${account.id}`) ?? []).some((o) => addsCoclient(o.fields));
  }

  // ---- Sending one operation -----------------------------------------------------------------------

  private async process(candidate: Operation, pass: Pass): Promise<void> {
    // Gone offline during the pass: what is not claimed yet stays as it is.
    if (this.paused || !this.online()) return;
    const claimed = await this.claim(candidate);
    if (!claimed) return;
    const { op, uncertain } = claimed;
    pass.tries.set(op.id, (pass.tries.get(op.id) ?? 0) + 1);
    this.sending.add(op.id);
    try {
      let outcome: Outcome;
      try {
        outcome = await this.execute(op, uncertain, pass);
      } catch (error) {
        // The port threw or an answer could not be stored: whether the write landed is unknown.
        const message = error instanceof Error ? error.message : String(error);
        outcome = { type: 'failed', uncertain: true, failure: failure('network', message) };
      }
      await this.settle(op, uncertain, outcome, pass);
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
      if (!op || !this.due(op) || this.sending.has(op.id)) return null;
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
    const row = await rowsOf(this.db, op.table).get(op.recordId);
    if (!row) return { type: 'gone' };
    // A pull already saw the record gone: the answer to an update or delete is known without asking.
    if (row.deletedOnServer && op.kind !== 'create')
      return { type: 'failed', failure: goneFromServer(), uncertain: false };
    const target = await this.target(row);
    if (!target) return { type: 'wait' };
    const handler = this.handlers[op.kind];
    if (!handler) return this.refuse(`Changes of the kind "${op.kind}" cannot be sent yet.`);
    return handler(op, target, uncertain, pass);
  }

  private async target(row: AnyRow): Promise<Target | null> {
    if (!('accountId' in row)) return { row, account: row.serverId };
    const account = await this.db.accounts.get(row.accountId);
    return account?.serverId == null ? null : { row, account: account.serverId };
  }

  private readonly handlers: Partial<
    Record<
      Operation['kind'],
      (op: Operation, target: Target, uncertain: boolean, pass: Pass) => Promise<Outcome>
    >
  > = {
    create: (op, target, uncertain, pass) => this.create(op, target, uncertain, pass),
    update: (op, target, uncertain, pass) => this.update(op, target, uncertain, pass),
    delete: (op, target, uncertain, pass) => this.remove(op, target, uncertain, pass),
    upload: (op, target, uncertain, pass) => this.upload(op, target, uncertain, pass),
    removeFile: (op, target, uncertain, pass) => this.removeFile(op, target, uncertain, pass),
    resetPin: (op, target, uncertain, pass) => this.resetPin(op, target, uncertain, pass),
  };

  private async create(op: Operation, target: Target, uncertain: boolean, pass: Pass): Promise<Outcome> {
    if (op.table === 'singles') return this.writeSingle(op, target, uncertain, pass);
    const d = DESCRIPTORS[op.table];
    const body = await this.serverFields(d, target.row, op.fields);
    if (!body) return { type: 'wait' };
    if (uncertain) {
      const read = (req: ApiRequest) => pass.read(req);
      const send = (req: ApiRequest) => this.send(req);
      const found = await findCreated(op.table, { db: this.db, send, read, target, sent: body });
      if (found && 'ok' in found) return { type: 'failed', failure: found, uncertain: true };
      if (found) return { type: 'done', raw: found, adopted: true };
    }
    const created = d.create(target, body);
    if (!created) return this.refuse('Records of this kind cannot be created here.');
    const req = await this.withFileParts(op.table, target.row, created);
    if (!req) return this.refuse('A file of this record is no longer on this computer: choose it again.');
    const res = await this.send(req);
    if (!res.ok) return this.failedWrite(res, uncertain, pass, d.current(target));
    const raw = d.snapshot(res.data, target);
    // An answer without the new id is as good as none: look for the record before sending again.
    if (raw?.serverId === undefined)
      return this.failedWrite(
        failure('server', 'The platform did not return the new record.'),
        true,
        pass,
        d.current(target),
      );
    pass.wrote(d.current(target), d.collection, raw.serverId, raw.fields);
    return { type: 'done', raw, adopted: false };
  }

  /**
   * A single record of a recreated account (changes.ts `recreateAccount`): written whole, checked
   * against nothing, since its member on the platform is a new one. Writing it twice leaves it as
   * writing it once, so an uncertain write is simply sent again.
   */
  private async writeSingle(op: Operation, target: Target, uncertain: boolean, pass: Pass): Promise<Outcome> {
    const d = DESCRIPTORS.singles;
    const res = await this.send(d.update(target, op.fields, {}));
    if (!res.ok) return this.failedWrite(res, uncertain, pass, d.current(target));
    const answer = d.snapshot(res.data, target);
    const raw = { fields: { ...op.fields, ...answer?.fields } };
    pass.wrote(d.current(target), d.collection, target.row.serverId, raw.fields);
    return { type: 'done', raw, adopted: false };
  }

  /**
   * Compares the operation with the server's current version first: per field, server == base
   * sends mine, server == mine sends nothing, anything else is a conflict for the user. Fields
   * changed only on the server are not in the operation, and both interfaces merge updates.
   */
  private async update(op: Operation, target: Target, uncertain: boolean, pass: Pass): Promise<Outcome> {
    const d = DESCRIPTORS[op.table];
    const theirs = await this.current(d, target, pass);
    if ('ok' in theirs) return { type: 'failed', failure: theirs, uncertain };
    const local = await this.localFields(d, target.row, theirs.fields);
    const { changes, conflicts } = this.compare(d, target, op, local);
    if (Object.keys(conflicts).length) return { type: 'conflict', raw: theirs, fields: conflicts };
    if (Object.keys(changes).length === 0) return { type: 'done', raw: theirs, adopted: false };
    const body = await this.serverFields(d, target.row, changes);
    if (!body) return { type: 'wait' };
    const res = await this.send(d.update(target, body, theirs.fields));
    if (!res.ok) return this.failedWrite(res, uncertain, pass, d.current(target));
    const answer = d.snapshot(res.data, target);
    const raw = { ...theirs, ...answer, fields: { ...theirs.fields, ...body, ...answer?.fields } };
    pass.wrote(d.current(target), d.collection, target.row.serverId, raw.fields);
    const effects = Object.keys(raw.fields).filter(
      (k) => !d.same(target, k, raw.fields[k], theirs.fields[k]),
    );
    return { type: 'done', raw, adopted: false, effects };
  }

  private async remove(op: Operation, target: Target, uncertain: boolean, pass: Pass): Promise<Outcome> {
    const d = DESCRIPTORS[op.table];
    const req = d.remove(target);
    if (!req) return this.refuse('Records of this kind are not deleted through the outbox.');
    const res = await this.send(req);
    if (!res.ok) return this.failedWrite(res, uncertain, pass, d.current(target));
    pass.wrote(d.current(target), d.collection, target.row.serverId, null);
    return { type: 'gone' };
  }

  /**
   * A create whose fields hold files chosen here: a file that is part of its record goes as a
   * multipart part named after its field (a Documents item and its `file` in one request, so that
   * its uncertain create is looked for like any other item); any other file is left out, its own
   * upload follows the create. Null when the bytes of a file are gone.
   */
  private async withFileParts(table: SyncedTable, row: AnyRow, req: ApiRequest): Promise<ApiRequest | null> {
    const fields = req.body as Fields | undefined;
    if (!fields || !Object.values(fields).some(isPendingFile)) return req;
    const body: Fields = {};
    const files: UploadFile[] = [];
    for (const [field, value] of Object.entries(fields)) {
      if (!isPendingFile(value)) body[field] = value;
      else if (fileInRecord(table, row, field)) {
        const file = await this.loadFile(value);
        if (!file) return null;
        files.push({ ...file, field });
      }
    }
    if (files.length === 0) return { ...req, body };
    const bytes = files.reduce((sum, file) => sum + file.bytes.length, 0);
    return { ...req, body, files, priority: 'upload', timeoutMs: uploadTimeout(bytes) };
  }

  /** The bytes of a chosen file, read outside any transaction; null when they are gone. */
  private async loadFile(value: PendingFile): Promise<Omit<UploadFile, 'field'> | null> {
    const kept = await this.db.files.get(value.localFile);
    if (!kept) return null;
    return { name: kept.name, type: kept.type, bytes: new Uint8Array(await kept.blob.arrayBuffer()) };
  }

  /**
   * Sends a chosen file. An upload replaces whatever the field held (PUT of a single file), so
   * sending it again after its answer was lost leaves the platform as one upload would: an
   * uncertain upload is simply sent again, there is nothing to look for first.
   */
  private async upload(op: Operation, target: Target, uncertain: boolean, pass: Pass): Promise<Outcome> {
    const [field, value] = Object.entries(op.fields)[0] ?? [];
    if (field === undefined || !isPendingFile(value)) return this.refuse('This upload names no file.');
    const file = await this.loadFile(value);
    if (!file)
      return this.refuse(`The file “${value.filename}” is no longer on this computer: choose it again.`);
    const res = await this.send(uploadRequest(op.table, target, field, file));
    if (!res.ok) return this.failedWrite(res, uncertain, pass, DESCRIPTORS[op.table].current(target));
    return this.fileWritten(op.table, target, field, res.data, pass);
  }

  /** Removes a file. Removing it twice leaves no file either, so an uncertain removal is sent again too. */
  private async removeFile(op: Operation, target: Target, uncertain: boolean, pass: Pass): Promise<Outcome> {
    const field = Object.keys(op.fields)[0];
    if (field === undefined) return this.refuse('This removal names no file.');
    const res = await this.send(removeFileRequest(op.table, target, field));
    if (!res.ok) return this.failedWrite(res, uncertain, pass, DESCRIPTORS[op.table].current(target));
    return this.fileWritten(op.table, target, field, null, pass);
  }

  /**
   * The record as the platform holds it once a file was written. A file that is part of its
   * record is answered with the record (the item, without its id); a file of its own with its
   * File object (nothing once removed), which goes into the record's last server version. Records
   * with files of their own (member details, employment items) hold no relations, so that
   * version is already in server form.
   */
  private fileWritten(
    table: SyncedTable,
    target: Target,
    field: string,
    answer: unknown,
    pass: Pass,
  ): Outcome {
    const d = DESCRIPTORS[table];
    const whole = fileInRecord(table, target.row, field) ? d.snapshot(answer, target) : null;
    const raw = whole ?? { fields: { ...target.row.server, [field]: answer ?? null } };
    pass.wrote(d.current(target), d.collection, target.row.serverId, raw.fields);
    return { type: 'done', raw, adopted: false };
  }

  /**
   * Asks for a new PIN. Every reset issues a new PIN and the newest is the one in force, so an
   * uncertain reset is sent again rather than looked for: the member ends with one PIN, the one
   * the answer carries (the activity feed may then list the reset twice). The answer is the
   * member's security record; the account itself does not change.
   */
  private async resetPin(op: Operation, target: Target, uncertain: boolean, pass: Pass): Promise<Outcome> {
    const member = op.fields.member === 'coclient' ? 'coclient' : 'client';
    const res = await this.send(pinResetRequest(target.account, member));
    if (!res.ok) return this.failedWrite(res, uncertain, pass, securityRequest(target.account, member));
    const security = memberSecurityRow(res.data, Number(target.account), member, this.now());
    if (security) await this.db.memberSecurity.put(security);
    // Nothing of the account changed: the operation leaves the outbox as a confirmed delete does.
    return { type: 'gone' };
  }

  /** A failed write: the pass forgets what it read of that record, since the write may have landed. */
  private failedWrite(failure: ApiFailure, uncertain: boolean, pass: Pass, read: ApiRequest): Outcome {
    const landed = UNCERTAIN.has(failure.kind);
    if (landed) pass.forget(read);
    return { type: 'failed', failure, uncertain: uncertain || landed };
  }

  private refuse(message: string): Outcome {
    return { type: 'failed', failure: failure('validation', message), uncertain: false };
  }

  /** The record's current server version, or the failure (404 when it is gone). */
  private async current(d: TableDescriptor, target: Target, pass: Pass): Promise<Snapshot | ApiFailure> {
    const res = await pass.read(d.current(target));
    if (!res.ok) return res;
    const picked = d.pick(res.data, target);
    if (picked === undefined) return goneFromServer();
    const snapshot = d.snapshot(picked, target);
    return snapshot ?? failure('server', 'The platform answered something that is not the record.');
  }

  private compare(d: TableDescriptor, target: Target, op: Operation, theirs: Fields) {
    const changes: Fields = {};
    const conflicts: ConflictRow['fields'] = {};
    for (const [field, mine] of Object.entries(op.fields)) {
      const base = op.base[field] ?? null;
      if (d.same(target, field, theirs[field], mine)) continue;
      if (d.same(target, field, theirs[field], base)) changes[field] = mine;
      else conflicts[field] = { base, mine, theirs: theirs[field] ?? null };
    }
    return { changes, conflicts };
  }

  private serverFields(d: TableDescriptor, row: AnyRow, fields: Fields): Promise<Fields | null> {
    return d.relations ? relationsToServer(this.db, row as SectionItemRow, fields) : Promise.resolve(fields);
  }

  private localFields(d: TableDescriptor, row: AnyRow, fields: Fields): Promise<Fields> {
    return d.relations ? relationsToLocal(this.db, row as SectionItemRow, fields) : Promise.resolve(fields);
  }

  // ---- Recording the outcome ----------------------------------------------------------------------

  private async settle(op: Operation, uncertain: boolean, outcome: Outcome, pass: Pass): Promise<void> {
    const ref = { opId: op.id, table: op.table, recordId: op.recordId };
    if (outcome.type === 'done')
      return this.settleDone(op, outcome.raw, outcome.adopted, pass, ref, outcome.effects ?? []);
    if (outcome.type === 'gone') return this.settleGone(op, pass, ref);
    if (outcome.type === 'conflict') return this.settleConflict(op, outcome.raw, outcome.fields, pass, ref);
    if (outcome.type === 'wait') {
      pass.blocked.add(op.id);
      return this.putOp({ ...op, state: uncertain ? 'inflight' : 'queued', attempts: op.attempts - 1 });
    }
    const entry = VERDICTS[outcome.failure.kind];
    const verdict = typeof entry === 'function' ? entry(op) : entry;
    return this.onVerdict[verdict](op, outcome.failure, outcome.uncertain, pass, ref);
  }

  private readonly onVerdict: Record<
    Verdict,
    (op: Operation, failure: ApiFailure, uncertain: boolean, pass: Pass, ref: RecordRef) => Promise<void>
  > = {
    retry: (op, failure, uncertain, pass, ref) => this.settleRetry(op, failure, uncertain, pass, ref),
    'sign-in': (op, failure, uncertain) => this.settleSignIn(op, failure, uncertain),
    rejected: (op, failure, _uncertain, pass, ref) => this.settleRejected(op, failure, pass, ref),
    'deleted-on-server': (op, _failure, _uncertain, pass, ref) =>
      this.settleConflict(op, null, null, pass, ref),
    gone: (op, _failure, _uncertain, pass, ref) => this.settleGone(op, pass, ref),
  };

  private putOp(op: Operation): Promise<void> {
    return this.db.transaction('rw', this.db.outbox, async () => {
      // Settled meanwhile (the record was discarded): nothing to write back.
      if (op.seq !== undefined && (await this.db.outbox.get(op.seq))) await this.db.outbox.put(op);
    });
  }

  /** Exponential backoff with equal jitter, capped; at least what the platform asked for (Retry-After). */
  private delay(attempts: number, failure: ApiFailure): number {
    const exponential = Math.min(this.maxMs, this.baseMs * 2 ** Math.max(0, attempts - 1));
    const jittered = exponential / 2 + (exponential / 2) * this.random();
    const asked =
      failure.kind === 'rate-limited' || failure.kind === 'unavailable' ? (failure.retryAfterMs ?? 0) : 0;
    return Math.max(jittered, asked);
  }

  private async settleRetry(
    op: Operation,
    failure: ApiFailure,
    uncertain: boolean,
    pass: Pass,
    ref: RecordRef,
  ) {
    const at = this.now() + this.delay(op.attempts, failure);
    const error = errorOf(failure);
    await this.putOp({
      ...op,
      state: uncertain ? 'inflight' : 'retry',
      nextAttemptAt: at,
      lastError: error,
      updatedAt: this.now(),
    });
    pass.report.retried++;
    this.emit({ type: 'retry', at, error, ...ref });
  }

  /** Everything stays queued as it was; the queue waits for `rearm` after the user signs in. */
  private async settleSignIn(op: Operation, failure: ApiFailure, uncertain: boolean) {
    this.paused = true;
    const error = errorOf(failure);
    await this.putOp({
      ...op,
      state: uncertain ? 'inflight' : 'queued',
      attempts: op.attempts - 1,
      lastError: error,
    });
    this.emit({ type: 'needs-sign-in', error });
  }

  private async settleRejected(op: Operation, failure: ApiFailure, pass: Pass, ref: RecordRef) {
    const error = errorOf(failure);
    const dropped: string[] = [];
    let joined: string[] = [];
    await this.db.transaction('rw', SYNC_TABLES, async () => {
      const fresh = { ...op, state: 'rejected' as const, lastError: error, updatedAt: this.now() };
      if (op.seq === undefined || !(await this.db.outbox.get(op.seq))) return;
      await this.db.outbox.put(fresh);
      // What waited behind it joins it (the user's fix sends all), or a delete behind it drops it.
      joined = await absorbBehindRefused(this.db, fresh, dropped);
      await this.refresh(op.table, op.recordId);
    });
    pass.report.rejected++;
    for (const opId of [op.id, ...joined])
      signalOutbox(this.db, { type: 'settled', opId, error: dropped.includes(opId) ? null : error });
    this.emit({ type: 'rejected', error, ...ref });
  }

  /** A field changed on both sides (`raw` is their version), or the record is gone from the server (`raw` null). */
  private async settleConflict(
    op: Operation,
    raw: Snapshot | null,
    fields: ConflictRow['fields'] | null,
    pass: Pass,
    ref: RecordRef,
  ) {
    const row = await rowsOf(this.db, op.table).get(op.recordId);
    const theirs = raw && row && (await this.localFields(DESCRIPTORS[op.table], row, raw.fields));
    await this.db.transaction('rw', SYNC_TABLES, async () => {
      if (op.seq === undefined || !(await this.db.outbox.get(op.seq))) return;
      const conflict: ConflictRow = {
        id: op.id,
        table: op.table,
        recordId: op.recordId,
        fields: fields ?? {
          [DELETED_ON_SERVER]: { base: row?.server ?? null, mine: op.fields, theirs: null },
        },
        detectedAt: this.now(),
      };
      await this.db.conflicts.put(conflict);
      await this.db.outbox.put({ ...op, state: 'conflict', updatedAt: this.now() });
      await this.refresh(op.table, op.recordId, theirs && raw ? { ...raw, fields: theirs } : undefined);
    });
    pass.report.conflicts++;
    this.emit({ type: 'conflict', deletedOnServer: raw === null, ...ref });
  }

  /**
   * The server has the change. The operation leaves the outbox (a create carrying fields its
   * interface takes only on update becomes that update), the record takes the server's answer as
   * its snapshot, and later operations of the record are rebased on it: their base for a field
   * this operation wrote is what the server now holds, not what it held before.
   */
  private async settleDone(
    op: Operation,
    raw: Snapshot,
    adopted: boolean,
    pass: Pass,
    ref: RecordRef,
    effects: readonly string[],
  ) {
    const d = DESCRIPTORS[op.table];
    const row = await rowsOf(this.db, op.table).get(op.recordId);
    if (!row) return this.settleGone(op, pass, ref);
    const snapshot = { ...raw, fields: await this.localFields(d, row, raw.fields) };
    let left = false;
    await this.db.transaction('rw', SYNC_TABLES, async () => {
      if (op.seq === undefined || !(await this.db.outbox.get(op.seq))) return;
      const target = { row, account: null };
      const leftover = op.kind === 'create' ? this.leftover(d, target, op.fields, snapshot.fields) : {};
      left = Object.keys(leftover).length > 0;
      if (left) await this.db.outbox.put(this.asUpdate(op, leftover, snapshot.fields));
      else await this.db.outbox.delete(op.seq);
      // After a create, every base a later change took (the record did not exist: nothing) is what
      // the server made of the new record, defaults included (an address of nulls, a zero amount);
      // after an update, what it wrote and what its write changed besides.
      const written =
        op.kind === 'create' ? Object.keys(snapshot.fields) : [...Object.keys(op.fields), ...effects];
      for (const later of await recordOps(this.db, op.table, op.recordId))
        if (later.id !== op.id) await this.db.outbox.put(rebased(later, written, snapshot.fields));
      // The files it sent are on the platform now: their kept bytes go.
      await releaseFiles(this.db, [op]);
      await this.refresh(op.table, op.recordId, snapshot);
    });
    pass.report.synced++;
    if (adopted) pass.report.adopted++;
    if (!left) signalOutbox(this.db, { type: 'settled', opId: op.id, error: null });
    this.emit({ type: 'synced', adopted, ...ref });
  }

  /** A file sent with the create is the platform's now, whatever name it stored it under. */
  private leftover(d: TableDescriptor, target: Target, fields: Fields, theirs: Fields): Fields {
    return Object.fromEntries(
      Object.entries(fields).filter(
        ([k, v]) => v != null && !isPendingFile(v) && !d.same(target, k, v, theirs[k]),
      ),
    );
  }

  private asUpdate(op: Operation, fields: Fields, theirs: Fields): Operation {
    const base = Object.fromEntries(Object.keys(fields).map((k) => [k, theirs[k] ?? null]));
    return {
      ...op,
      kind: 'update',
      fields,
      base,
      state: 'queued',
      attempts: 0,
      nextAttemptAt: 0,
      lastError: null,
    };
  }

  /** The record is gone from the server as wanted (a confirmed delete), or was discarded here. */
  private async settleGone(op: Operation, pass: Pass, ref: RecordRef) {
    await this.db.transaction('rw', SYNC_TABLES, async () => {
      if (op.seq !== undefined) await this.db.outbox.delete(op.seq);
      await releaseFiles(this.db, [op]);
      const rest = await recordOps(this.db, op.table, op.recordId);
      if (op.kind === 'delete' && rest.length === 0) {
        await this.db.conflicts.where('recordId').equals(op.recordId).delete();
        const item = op.table === 'sectionItems' ? await this.db.sectionItems.get(op.recordId) : undefined;
        if (item) await keepLocalIds(this.db, [item]);
        await rowsOf(this.db, op.table).delete(op.recordId);
      } else await this.refresh(op.table, op.recordId);
    });
    pass.report.synced++;
    signalOutbox(this.db, { type: 'settled', opId: op.id, error: null });
    this.emit({ type: 'synced', adopted: false, ...ref });
  }

  /** Recomputes the record's local view and badge, taking a new server snapshot when one is given. */
  private async refresh(table: SyncedTable, recordId: string, snapshot?: Snapshot): Promise<void> {
    const row = await rowsOf(this.db, table).get(recordId);
    if (!row) return;
    const next: AnyRow = snapshot
      ? { ...row, server: snapshot.fields, serverId: snapshot.serverId ?? row.serverId }
      : { ...row };
    if (snapshot?.meta && table === 'accounts') (next as AccountRow).meta = snapshot.meta;
    await rowsOf(this.db, table).put(refreshRow(table, next, await recordOps(this.db, table, recordId)));
  }
}

/** A later operation's base for the fields an operation just wrote: what the server holds now. */
function rebased(later: Operation, written: readonly string[], theirs: Fields): Operation {
  const base = { ...later.base };
  for (const field of written) if (field in base) base[field] = theirs[field] ?? null;
  return { ...later, base };
}
