// What the push sends next, and when: the first operation of each record once it is due and
// nothing it needs is missing on the server, a few records at a time; retries after an
// exponential backoff with jitter, never sooner than the platform asked.

import type { ApiFailure } from '@shared/api/request.ts';
import { rowsOf, type AnyRow } from '../../data/changes/index.ts';
import type { AdvisorDb } from '../../data/db.ts';
import type { AccountRow, Fields, Operation, SectionItemRow } from '../../data/model.ts';
import { relationTargetIds } from '../ids.ts';
import { DESCRIPTORS } from '../requests.ts';

/** With no backoff (tests), an operation failing every time must not hold a pass forever. */
export const MAX_TRIES_PER_PASS = 10;

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

/** Queued, or waiting for a retry (certain or not) whose time has come. */
export function due(op: Operation, now: number): boolean {
  if (op.state === 'queued') return true;
  return (op.state === 'retry' || op.state === 'inflight') && op.nextAttemptAt <= now;
}

/** Exponential backoff with equal jitter, capped; at least what the platform asked for (Retry-After). */
export function retryDelay(
  backoff: { baseMs: number; maxMs: number; random: () => number },
  attempts: number,
  failure: ApiFailure,
): number {
  const exponential = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.max(0, attempts - 1));
  const jittered = exponential / 2 + (exponential / 2) * backoff.random();
  const asked =
    failure.kind === 'rate-limited' || failure.kind === 'unavailable' ? (failure.retryAfterMs ?? 0) : 0;
  return Math.max(jittered, asked);
}

/** Runs `work` over the items, at most `limit` at a time. */
export async function pool<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}

/**
 * The first operation of each record, when `eligible` (due, not being sent, not blocked) and
 * nothing it needs is missing on the server. One read of the outbox and one batch read per table
 * a pass loop: a large backlog costs O(n) per loop, not a few reads per record.
 */
export async function readyOps(db: AdvisorDb, eligible: (op: Operation) => boolean): Promise<Operation[]> {
  const byRecord = new Map<string, Operation[]>();
  for (const op of await db.outbox.orderBy('seq').toArray()) {
    const key = `${op.table}:${op.recordId}`;
    const ops = byRecord.get(key);
    if (ops) ops.push(op);
    else byRecord.set(key, [op]);
  }
  const candidates = [...byRecord.values()].map((ops) => ops[0] as Operation).filter(eligible);
  if (candidates.length === 0) return [];
  const view = await readyView(db, candidates, byRecord);
  return candidates.filter((op) => !waitsFor(op, view));
}

async function byId<R extends { id: string }>(rows: Promise<(R | undefined)[]>): Promise<Map<string, R>> {
  return new Map((await rows).filter((r): r is R => r !== undefined).map((r) => [r.id, r]));
}

/** What `waitsFor` needs of the candidates, read in one batch per table. */
async function readyView(
  db: AdvisorDb,
  candidates: readonly Operation[],
  byRecord: Map<string, Operation[]>,
): Promise<ReadyView> {
  const rows = new Map<string, AnyRow>();
  for (const table of ['accounts', 'sectionItems', 'singles'] as const) {
    const ids = candidates.filter((op) => op.table === table).map((op) => op.recordId);
    if (ids.length === 0) continue;
    const found = await rowsOf(db, table).bulkGet(ids);
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
    accounts: await byId(db.accounts.bulkGet([...accountIds])),
    targets: await byId(db.sectionItems.bulkGet([...targetIds])),
    byRecord,
  };
}

/**
 * A record waits while its account, or an item one of its relations names, is an unsent create,
 * and a record of the co-client, or one naming them, while that co-client is being added here.
 */
function waitsFor(op: Operation, view: ReadyView): boolean {
  const row = view.rows.get(`${op.table}:${op.recordId}`);
  if (!row) return false;
  if (op.kind !== 'create' && row.serverId === null && op.table !== 'singles') return true;
  if ('accountId' in row && !view.accounts.get(row.accountId)?.serverId) return true;
  if (coclientComing(row, op, view)) return true;
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
function coclientComing(row: AnyRow, op: Operation, view: ReadyView): boolean {
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
