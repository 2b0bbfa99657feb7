// Recording what sending an operation came to, in the outbox and the record, in one transaction
// each: done (the record takes the server's answer, later operations are rebased on it), gone, a
// conflict for the user, a retry after a backoff, a refusal, or a pause until the user signs in.
// A 404 counts only once the platform confirms the store's team is current (sync/team.ts).

import type { ApiFailure } from '@shared/api/request.ts';
import {
  DELETED_ON_SERVER,
  SYNC_TABLES,
  absorbBehindRefused,
  journalSent,
  recordOps,
  refreshRow,
  releaseFiles,
  rowsOf,
  signalOutbox,
  type AnyRow,
} from '../../data/changes/index.ts';
import { keepLocalIds } from '../../data/mappers.ts';
import { sameValue } from '../../data/view.ts';
import type { AccountRow, ConflictRow, Operation, SyncedTable } from '../../data/model.ts';
import { DESCRIPTORS, type Snapshot } from '../requests.ts';
import { asUpdate, leftover, localFields, rebased } from './compare.ts';
import { errorOf, verdictOf, type Outcome, type Verdict } from './outcome.ts';
import type { Pass, PushContext, PushEvent, RecordRef } from './pass.ts';
import type { TeamAnswer, TeamWatch } from '../team.ts';

/** What recording an outcome needs besides sending's context: the listeners, the queue, the backoff. */
export interface SettleContext extends PushContext {
  emit(event: PushEvent): void;
  /** The queue waits for `rearm` (after the user signs in again). */
  pause(): void;
  /** How long until an operation that failed after `attempts` tries is sent again. */
  retryDelay(attempts: number, failure: ApiFailure): number;
  /** Which team the platform has current: asked before a 404 is taken for a deletion. */
  team: TeamWatch;
}

type Settle = (
  ctx: SettleContext,
  op: Operation,
  failure: ApiFailure,
  uncertain: boolean,
  pass: Pass,
  ref: RecordRef,
) => Promise<void>;

export async function settle(
  ctx: SettleContext,
  op: Operation,
  uncertain: boolean,
  outcome: Outcome,
  pass: Pass,
): Promise<void> {
  const ref: RecordRef = { opId: op.id, kind: op.kind, table: op.table, recordId: op.recordId };
  if (typeof op.fields.engagement === 'string') ref.engagement = op.fields.engagement;
  if (outcome.type === 'done')
    return settleDone(ctx, op, outcome.raw, outcome.adopted, pass, ref, outcome.effects ?? []);
  if (outcome.type === 'gone') return settleGone(ctx, op, pass, ref);
  if (outcome.type === 'conflict') return settleConflict(ctx, op, outcome.raw, outcome.fields, pass, ref);
  if (outcome.type === 'wait') {
    pass.blocked.add(op.id);
    return putOp(ctx, { ...op, state: uncertain ? 'inflight' : 'queued', attempts: op.attempts - 1 });
  }
  // Under another team the record is out of sight, not gone: nothing is deleted, marked or refused.
  if (outcome.failure.kind === 'not-found' && !outcome.teamAsked) {
    const team = await ctx.team.confirm('upload');
    if (team.kind !== 'same') return settleTeamUnsure(ctx, op, uncertain, team, pass, ref);
  }
  return ON_VERDICT[verdictOf(op, outcome.failure)](ctx, op, outcome.failure, outcome.uncertain, pass, ref);
}

const ON_VERDICT: Record<Verdict, Settle> = {
  retry: (ctx, op, failure, uncertain, pass, ref) => settleRetry(ctx, op, failure, uncertain, pass, ref),
  'sign-in': (ctx, op, failure, uncertain) => settleSignIn(ctx, op, failure, uncertain),
  rejected: (ctx, op, failure, _uncertain, pass, ref) => settleRejected(ctx, op, failure, pass, ref),
  'deleted-on-server': (ctx, op, _failure, _uncertain, pass, ref) =>
    settleConflict(ctx, op, null, null, pass, ref),
  gone: (ctx, op, _failure, _uncertain, pass, ref) => settleGone(ctx, op, pass, ref),
};

/**
 * A 404 met while the platform's team is another, or could not be asked: the operation stays as
 * it was (held until the team is the store's again), or waits for the platform or a sign-in.
 */
async function settleTeamUnsure(
  ctx: SettleContext,
  op: Operation,
  uncertain: boolean,
  team: Exclude<TeamAnswer, { kind: 'same' }>,
  pass: Pass,
  ref: RecordRef,
) {
  const failure = team.kind === 'unknown' ? team.failure : null;
  if (failure?.kind === 'auth') return settleSignIn(ctx, op, failure, uncertain);
  if (failure) return settleRetry(ctx, op, failure, uncertain, pass, ref);
  pass.blocked.add(op.id);
  await putOp(ctx, { ...op, state: uncertain ? 'inflight' : 'queued', attempts: op.attempts - 1 });
}

function putOp(ctx: SettleContext, op: Operation): Promise<void> {
  return ctx.db.transaction('rw', ctx.db.outbox, async () => {
    // Settled meanwhile (the record was discarded): nothing to write back.
    if (op.seq !== undefined && (await ctx.db.outbox.get(op.seq))) await ctx.db.outbox.put(op);
  });
}

async function settleRetry(
  ctx: SettleContext,
  op: Operation,
  failure: ApiFailure,
  uncertain: boolean,
  pass: Pass,
  ref: RecordRef,
) {
  const at = ctx.now() + ctx.retryDelay(op.attempts, failure);
  const error = errorOf(failure);
  // The platform asked us to wait: the transport holds every upload until then (transport.ts).
  const asked = failure.kind === 'rate-limited' || failure.kind === 'unavailable';
  if (asked && failure.retryAfterMs !== null) error.waitUntil = ctx.now() + failure.retryAfterMs;
  await putOp(ctx, {
    ...op,
    state: uncertain ? 'inflight' : 'retry',
    nextAttemptAt: at,
    lastError: error,
    updatedAt: ctx.now(),
  });
  pass.report.retried++;
  ctx.emit({ type: 'retry', at, error, ...ref });
}

/** Everything stays queued as it was; the queue waits for `rearm` after the user signs in. */
async function settleSignIn(ctx: SettleContext, op: Operation, failure: ApiFailure, uncertain: boolean) {
  ctx.pause();
  const error = errorOf(failure);
  await putOp(ctx, {
    ...op,
    state: uncertain ? 'inflight' : 'queued',
    attempts: op.attempts - 1,
    lastError: error,
  });
  ctx.emit({ type: 'needs-sign-in', error });
}

async function settleRejected(
  ctx: SettleContext,
  op: Operation,
  failure: ApiFailure,
  pass: Pass,
  ref: RecordRef,
) {
  const { db } = ctx;
  const error = errorOf(failure);
  const dropped: string[] = [];
  let joined: string[] = [];
  await db.transaction('rw', SYNC_TABLES, async () => {
    const fresh = { ...op, state: 'rejected' as const, lastError: error, updatedAt: ctx.now() };
    if (op.seq === undefined || !(await db.outbox.get(op.seq))) return;
    await db.outbox.put(fresh);
    // What waited behind it joins it (the user's fix sends all), or a delete behind it drops it.
    joined = await absorbBehindRefused(db, fresh, dropped);
    await refresh(ctx, op.table, op.recordId);
  });
  pass.report.rejected++;
  for (const opId of [op.id, ...joined])
    signalOutbox(db, { type: 'settled', opId, error: dropped.includes(opId) ? null : error });
  ctx.emit({ type: 'rejected', error, ...ref });
}

/** A field changed on both sides (`raw` is their version), or the record is gone from the server (`raw` null). */
async function settleConflict(
  ctx: SettleContext,
  op: Operation,
  raw: Snapshot | null,
  fields: ConflictRow['fields'] | null,
  pass: Pass,
  ref: RecordRef,
) {
  const { db } = ctx;
  const row = await rowsOf(db, op.table).get(op.recordId);
  const theirs = raw && row && (await localFields(db, DESCRIPTORS[op.table], row, raw.fields));
  await db.transaction('rw', SYNC_TABLES, async () => {
    if (op.seq === undefined || !(await db.outbox.get(op.seq))) return;
    const conflict: ConflictRow = {
      id: op.id,
      table: op.table,
      recordId: op.recordId,
      fields: fields ?? {
        [DELETED_ON_SERVER]: { base: row?.server ?? null, mine: op.fields, theirs: null },
      },
      detectedAt: ctx.now(),
    };
    await db.conflicts.put(conflict);
    await db.outbox.put({ ...op, state: 'conflict', updatedAt: ctx.now() });
    await refresh(ctx, op.table, op.recordId, theirs && raw ? { ...raw, fields: theirs } : undefined);
  });
  pass.report.conflicts++;
  ctx.emit({ type: 'conflict', deletedOnServer: raw === null, ...ref });
}

/**
 * The server has the change. The operation leaves the outbox (a create carrying fields its
 * interface takes only on update becomes that update), the record takes the server's answer as
 * its snapshot, and later operations of the record are rebased on it: their base for a field
 * this operation wrote is what the server now holds, not what it held before.
 */
async function settleDone(
  ctx: SettleContext,
  op: Operation,
  raw: Snapshot,
  adopted: boolean,
  pass: Pass,
  ref: RecordRef,
  effects: readonly string[],
) {
  const { db } = ctx;
  const d = DESCRIPTORS[op.table];
  const row = await rowsOf(db, op.table).get(op.recordId);
  if (!row) return settleGone(ctx, op, pass, ref);
  const snapshot = { ...raw, fields: await localFields(db, d, row, raw.fields) };
  let left = false;
  await db.transaction('rw', SYNC_TABLES, async () => {
    if (op.seq === undefined || !(await db.outbox.get(op.seq))) return;
    const target = { row, account: null };
    const rest = op.kind === 'create' ? leftover(d, target, op.fields, snapshot.fields) : {};
    left = Object.keys(rest).length > 0;
    if (left) await db.outbox.put(asUpdate(op, rest, snapshot.fields));
    else {
      await db.outbox.delete(op.seq);
      await journalSent(db, op.id, ctx.now());
    }
    // After a create, every base a later change took (the record did not exist: nothing) is what
    // the server made of the new record, defaults included (an address of nulls, a zero amount);
    // after an update, what it wrote and what its write changed besides.
    const written =
      op.kind === 'create' ? Object.keys(snapshot.fields) : [...Object.keys(op.fields), ...effects];
    for (const later of await recordOps(db, op.table, op.recordId))
      if (later.id !== op.id) await db.outbox.put(rebased(later, written, snapshot.fields));
    // The files it sent are on the platform now: their kept bytes go.
    await releaseFiles(db, [op]);
    await refresh(ctx, op.table, op.recordId, snapshot);
  });
  pass.report.synced++;
  if (adopted) pass.report.adopted++;
  if (!left) signalOutbox(db, { type: 'settled', opId: op.id, error: null });
  ctx.emit({ type: 'synced', adopted, ...ref });
}

/** The record is gone from the server as wanted (a confirmed delete), or was discarded here. */
async function settleGone(ctx: SettleContext, op: Operation, pass: Pass, ref: RecordRef) {
  const { db } = ctx;
  await db.transaction('rw', SYNC_TABLES, async () => {
    if (op.seq !== undefined) await db.outbox.delete(op.seq);
    // Deleted as wanted (or already), a PIN reset done: the platform has what the change meant.
    await journalSent(db, op.id, ctx.now());
    await releaseFiles(db, [op]);
    const rest = await recordOps(db, op.table, op.recordId);
    if (op.kind === 'delete' && rest.length === 0) {
      await db.conflicts.where('recordId').equals(op.recordId).delete();
      const item = op.table === 'sectionItems' ? await db.sectionItems.get(op.recordId) : undefined;
      if (item) await keepLocalIds(db, [item]);
      await rowsOf(db, op.table).delete(op.recordId);
    } else await refresh(ctx, op.table, op.recordId);
  });
  pass.report.synced++;
  signalOutbox(db, { type: 'settled', opId: op.id, error: null });
  ctx.emit({ type: 'synced', adopted: false, ...ref });
}

/** Recomputes the record's local view and badge, taking a new server snapshot when one is given. */
async function refresh(
  ctx: SettleContext,
  table: SyncedTable,
  recordId: string,
  snapshot?: Snapshot,
): Promise<void> {
  const { db } = ctx;
  const row = await rowsOf(db, table).get(recordId);
  if (!row) return;
  const next: AnyRow = snapshot
    ? { ...row, server: snapshot.fields, serverId: snapshot.serverId ?? row.serverId }
    : { ...row };
  if (snapshot) next.sentAt = ctx.now();
  if (snapshot && !sameValue(row.server, snapshot.fields)) next.serverAt = ctx.now();
  if (snapshot?.meta && table === 'accounts') (next as AccountRow).meta = snapshot.meta;
  await rowsOf(db, table).put(refreshRow(table, next, await recordOps(db, table, recordId)));
}
