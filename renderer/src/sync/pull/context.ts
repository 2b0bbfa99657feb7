// What every pull is given (the store, the port, the clock, the engine's settings, the session's
// signal) and the plumbing of its requests: each one counted in its report, each failure recorded
// there, and a pull stopped at once when the session ends.

import type { EntityTable } from 'dexie';
import type { ApiRequest, ApiResult, Priority } from '@shared/api/request.ts';
import { isPlainObject } from '@shared/is-plain-object.ts';
import type { WireResult } from '@shared/wire/parse.ts';
import type { AdvisorDb } from '../../data/db.ts';
import type { AccountRow, RecordRow } from '../../data/model.ts';
import { storeChanges, storeRecords, type StoreOptions } from '../../data/records.ts';
import type { Send } from '../send.ts';
import type { TeamAnswer, TeamWatch } from '../team.ts';
import { emptyReport, failed, unreadable, type PullReport } from './report.ts';

export interface PullContext {
  db: AdvisorDb;
  send: Send;
  /** The session the pull runs for: aborted on sign-out, and the pull stops (`PullStopped`). */
  signal?: AbortSignal | undefined;
  now: () => number;
  /** Page sizes tried, largest first (paging.ts). */
  pageSizes: readonly number[];
  /** A full sweep of an incremental list at least this often (watermark.ts). */
  sweepIntervalMs: number;
  /** Configuration is pulled again after this long. */
  configMaxAgeMs: number;
  /** How many recently opened accounts the offline pull keeps fresh. */
  recentAccounts: number;
  /** Accounts missing from a sweep that are confirmed (one request each) per sweep. */
  deletionChecks: number;
  /** Which team the platform has current (shared with the push). */
  team: TeamWatch;
}

/**
 * The session ended (sign-out) while a pull ran: thrown where a request would be sent or its answer
 * read, so the pull writes nothing more. Writes already committed stay; the engine's facade turns
 * it into a report that says `stopped`.
 */
export class PullStopped extends Error {
  override readonly name = 'PullStopped';
  constructor() {
    super('The pull stopped: you signed out.');
  }
}

/** Throws `PullStopped` once the session has ended. */
export function stopIfEnded(ctx: PullContext): void {
  if (ctx.signal?.aborted) throw new PullStopped();
}

/**
 * Like `Promise.all`, but settles only once every part has: a pull stopped on sign-out (or failed)
 * leaves none of its parts still running, and writing, behind it.
 */
export async function allParts<T extends readonly unknown[] | []>(
  parts: T,
): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const settled = (await Promise.allSettled(parts)) as PromiseSettledResult<unknown>[];
  for (const part of settled) if (part.status === 'rejected') throw part.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as {
    -readonly [K in keyof T]: Awaited<T[K]>;
  };
}

/**
 * Every request of a pull goes through here, so the report counts them all; none goes out once
 * the session has ended, and an answer that comes after is dropped (`PullStopped`).
 */
export async function call(ctx: PullContext, report: PullReport, req: ApiRequest): Promise<ApiResult> {
  stopIfEnded(ctx);
  report.requests += 1;
  const result = await answerOf(ctx, req);
  stopIfEnded(ctx);
  return result;
}

async function answerOf(ctx: PullContext, req: ApiRequest): Promise<ApiResult> {
  try {
    return await ctx.send(req, ctx.signal);
  } catch (error) {
    return {
      ok: false,
      kind: 'network',
      status: null,
      message: error instanceof Error ? error.message : 'The request could not be sent.',
      fields: {},
      retryAfterMs: null,
    };
  }
}

/**
 * Whether a 404, or an absence from a full list, may be taken for a deletion: only while the
 * platform's current team is the store's (sync/team.ts). Under another team (or when the platform
 * cannot say) nothing may be deleted or marked, and the pull stops there. Counted in the report.
 */
export async function teamConfirmed(
  ctx: PullContext,
  report: PullReport,
  priority: Priority,
): Promise<boolean> {
  return (await teamAnswer(ctx, report, priority)).kind === 'same';
}

/** The platform's answer to "which team is current" (sync/team.ts), counted in the report. */
export async function teamAnswer(
  ctx: PullContext,
  report: PullReport,
  priority: Priority,
): Promise<TeamAnswer> {
  report.requests += 1;
  const answer = await ctx.team.confirm(priority);
  if (answer.kind === 'unknown' && answer.failure) failed(report, '/user', answer.failure);
  if (answer.kind === 'moved') report.teamMoved = answer.team;
  return answer;
}

/**
 * Whether what a pull read of the team's records may be written: at once when it would change
 * nothing here, else only once the platform confirms its current team is the store's (the rule of
 * the account list): a list read after another device switched the team is that team's, and
 * replacing or sweeping this store's rows with it would lose them. Otherwise nothing is written;
 * the report says the team moved (or why the platform could not tell).
 */
export async function teamAllowsWrite(
  ctx: PullContext,
  report: PullReport,
  priority: Priority,
  changesSomething: () => Promise<boolean>,
): Promise<boolean> {
  return !(await changesSomething()) || teamConfirmed(ctx, report, priority);
}

/**
 * `storeList` for a list the platform answers for its current team (the feed, forms, reports):
 * written only as `teamAllowsWrite` lets it. True when it was stored.
 */
export async function storeTeamList<R extends RecordRow<unknown>>(
  ctx: PullContext,
  report: PullReport,
  priority: Priority,
  table: EntityTable<R, 'id'>,
  rows: readonly R[],
  options: StoreOptions<R> = {},
): Promise<boolean> {
  const changes = async () => {
    const { changed, gone } = await storeChanges(table, rows, options);
    return changed.length + gone.length > 0;
  };
  if (!(await teamAllowsWrite(ctx, report, priority, changes))) {
    report.records += rows.length;
    return false;
  }
  await storeList(report, table, rows, options);
  return true;
}

/**
 * The answer's data, or undefined (recorded in the report) when the request failed or, given
 * `readable`, the answer is not of the expected shape.
 */
export async function fetchData(
  ctx: PullContext,
  report: PullReport,
  req: ApiRequest,
  readable?: (data: unknown) => boolean,
): Promise<unknown> {
  const result = await call(ctx, report, req);
  if (!result.ok) {
    failed(report, req.path, result);
    return undefined;
  }
  if (readable && !readable(result.data)) {
    unreadable(report, req.path);
    return undefined;
  }
  return result.data;
}

/**
 * The answer as `parse` reads it (a schema of shared/wire/), or null (recorded in the report)
 * when the request failed or the schema refuses the answer.
 */
export async function fetchParsed<T>(
  ctx: PullContext,
  report: PullReport,
  req: ApiRequest,
  parse: (data: unknown) => WireResult<T>,
): Promise<T | null> {
  const result = await call(ctx, report, req);
  if (!result.ok) return failed(report, req.path, result);
  const read = parse(result.data);
  return read.ok ? read.value : unreadable(report, req.path);
}

/** An answer that must be an array, or null (recorded in the report). */
export async function fetchArray(
  ctx: PullContext,
  report: PullReport,
  req: ApiRequest,
): Promise<unknown[] | null> {
  const data = await fetchData(ctx, report, req, Array.isArray);
  return data === undefined ? null : (data as unknown[]);
}

/** A meta row's value over its defaults (the defaults alone when there is none). */
export async function readMeta<T>(db: AdvisorDb, key: string, fallback: T): Promise<T> {
  // Local state, not the platform's: a plain-object check is all it needs.
  const value = (await db.meta.get(key))?.value;
  return isPlainObject(value) ? { ...fallback, ...value } : fallback;
}

/** Stores pulled rows (`storeRecords`) and counts them in the report. */
export async function storeList<R extends RecordRow<unknown>>(
  report: PullReport,
  table: EntityTable<R, 'id'>,
  rows: readonly R[],
  options: StoreOptions<R> = {},
): Promise<void> {
  report.records += rows.length;
  const stored = await storeRecords(table, rows, options);
  report.written += stored.written;
  report.removed += stored.removed.length;
}

/** The local account, if it is on the server yet (null when not); throws when there is none. */
export async function serverAccount(
  db: AdvisorDb,
  localId: string,
): Promise<(AccountRow & { serverId: number }) | null> {
  const account = await db.accounts.get(localId);
  if (!account) throw new Error(`There is no local account ${localId} to pull.`);
  return typeof account.serverId === 'number' ? (account as AccountRow & { serverId: number }) : null;
}

/**
 * A pull of one account's parts: `pull` fills the report once the server has the account; one not
 * on the server yet has nothing to pull (`skipped`, with `notYet`'s fields).
 */
export async function pullOfAccount(
  ctx: PullContext,
  localId: string,
  pull: (account: AccountRow & { serverId: number }, report: PullReport) => Promise<void>,
  notYet: Partial<PullReport> = {},
): Promise<PullReport> {
  const report = emptyReport();
  const account = await serverAccount(ctx.db, localId);
  if (!account) return { ...report, skipped: true, ...notYet };
  await pull(account, report);
  return report;
}
