// The engagement lists (version 2): a household's (one request) and the team's, which is pulled as
// the account list is: incremental by watermark with a periodic sweep (watermark.ts). Engagements
// the server no longer lists go with a sweep only; what would change the store is kept only once
// the platform confirms its current team is the store's.

import type { Priority } from '@shared/api/request.ts';
import { readWire } from '@shared/wire/parse.ts';
import { Engagement } from '@shared/wire/v2/engagement.ts';
import type { EngagementRow } from '../../data/model.ts';
import { permissionRefusal } from '../../data/permissions.ts';
import {
  engagementOptions,
  engagementRow,
  rowsOf,
  storeChanges,
  storeEngagements,
  type StoreOptions,
} from '../../data/records.ts';
import { pullOfAccount, teamAllowsWrite, type PullContext } from './context.ts';
import { namedPageSize, readList, type ListPage, type ListSpec } from './paging.ts';
import { emptyReport, type PullProgress, type PullReport } from './report.ts';
import { newer, pagesSince, pullIncrementally } from './watermark.ts';

/** What the team's engagement list pull remembers between runs (meta key `pull.engagements`). */
export interface EngagementListState {
  /** Newest `created_at` seen: the next incremental pull's first pass stops below it. */
  newestCreatedAt: string | null;
  /** Newest `completed_at` seen: its second pass (the completed ones) stops below it. */
  newestCompletedAt: string | null;
  pulledAt: number | null;
  sweptAt: number | null;
}

export const ENGAGEMENT_LIST_STATE = 'pull.engagements';

/**
 * How old the last sweep may be when the Engagements area opens: what only a sweep shows (a
 * contact's progress, an opening, a reminder, a reopen elsewhere) is then at most an hour old on
 * that screen, where the background's daily sweep would leave it a day behind.
 */
export const AREA_SWEEP_MS = 60 * 60 * 1000;

export interface EngagementListOptions {
  /** A household's list (a local account id): one request, every engagement of it. */
  accountId?: string;
  /** The team's list: sweep now, whenever the last sweep was. */
  full?: boolean;
  /** The team's list: sweep once the last sweep is this old (ms) rather than the sync's interval. */
  sweepAfterMs?: number;
  priority?: Priority;
  onProgress?: (p: PullProgress) => void;
}

/** The engagement list: an account's (`accountId`) or every one the user may see. */
export function pullEngagements(ctx: PullContext, options: EngagementListOptions = {}): Promise<PullReport> {
  return options.accountId === undefined
    ? pullTeamEngagements(ctx, options)
    : pullAccountEngagements(ctx, options.accountId, options);
}

/**
 * A household's engagements, every page (one request at the largest page the platform takes):
 * always whole, so that the household's tab shows what the platform holds now.
 */
async function pullAccountEngagements(
  ctx: PullContext,
  accountId: string,
  options: EngagementListOptions,
): Promise<PullReport> {
  return pullOfAccount(ctx, accountId, async (account, report) => {
    const spec = listSpec(ctx, options, { sort: '-created_at', account_id: account.serverId });
    const list = await readList(ctx, report, spec, { onProgress: options.onProgress });
    if (!list) return;
    const rows = rowsOf(list.items, (item) => engagementRow(item, ctx.now()));
    // The platform lists its current team's: under another, an account's list is empty, not swept.
    const sweep = list.complete ? scopeOf(account.serverId) : undefined;
    await storeListed(ctx, report, spec.priority, rows, sweep);
  });
}

/**
 * The team's engagements, incremental: the list has no time of change to sort by (no
 * `updated_at`), so an incremental pull asks two of its sorts, each newest first and stopping
 * at its own watermark (normally one request each): `-created_at` for the engagements sent
 * since (from here, another device or the web), and the completed ones by `-completed_at` for
 * those completed since (every completed one has a `completed_at`). What moves no sort key to
 * the front (a contact opening or filling one in, a reminder, a reopen) and what the platform no
 * longer lists wait for the sweep (every page of `-created_at`): when asked (`full`), on the
 * first pull and once the last sweep is older than the sweep interval.
 */
async function pullTeamEngagements(ctx: PullContext, options: EngagementListOptions): Promise<PullReport> {
  const report = emptyReport();
  const list = {
    key: ENGAGEMENT_LIST_STATE,
    initial: {
      newestCreatedAt: null,
      newestCompletedAt: null,
      pulledAt: null,
      sweptAt: null,
    } as EngagementListState,
    watermark: 'newestCreatedAt' as const,
    stamp: createdAt,
    full: options.full,
    sweepAfterMs: options.sweepAfterMs,
  };
  await pullIncrementally(ctx, report, list, async (run) => {
    const items: unknown[] = [];
    const onPage = (page: ListPage) => {
      items.push(...page.items);
      options.onProgress?.({ done: items.length, total: run.sweep ? page.total : null });
    };
    const spec = listSpec(ctx, options, { sort: '-created_at' });
    const paged = await run.pages(spec, onPage);
    if (!paged) return null;
    if (!run.sweep && (await permissionRefusal(ctx.db, 'engagements.completed')) === null) {
      // Without `engagements.completed` the platform lists no completed one: not asked.
      const since = { watermark: run.state.newestCompletedAt, stamp: completedAt };
      const query = { type: 'completed', sort: '-completed_at' };
      const completed = await pagesSince(ctx, report, listSpec(ctx, options, query), since, onPage);
      if (!completed) return null;
      run.state.newestCompletedAt = newer(completed.newest, run.state.newestCompletedAt);
    }
    const rows = latestOfEach(rowsOf(items, (item) => engagementRow(item, ctx.now())));
    // A whole list holds every completion: the newest is the second pass's watermark from now on.
    const swept = run.sweep && paged.complete;
    if (swept)
      run.state.newestCompletedAt = rows.map((r) => r.server.completed_at || null).reduce(newer, null);
    // Read under another team, it is that team's list: nothing is kept, the watermarks stay.
    if (!(await storeListed(ctx, report, spec.priority, rows, swept ? scopeOf() : undefined))) return null;
    return { swept };
  });
  return report;
}

const createdAt = (item: unknown): string | null => readWire(Engagement, item)?.created_at || null;
const completedAt = (item: unknown): string | null => readWire(Engagement, item)?.completed_at || null;

/** The list's request, `query` its sort and filters, with the page size that worked for it. */
function listSpec(
  ctx: PullContext,
  options: EngagementListOptions,
  query: Record<string, string | number>,
): ListSpec {
  return {
    name: 'Engagement',
    api: 'v2',
    path: '/engagements',
    query,
    priority: options.priority ?? 'background',
    pageSize: namedPageSize(ctx.db, 'engagements'),
  };
}

/** The engagements a complete list stands for: the household's, or (no account) every one. */
function scopeOf(accountServerId?: number): StoreOptions<EngagementRow>['scope'] {
  return accountServerId === undefined
    ? (t) => t.toCollection()
    : (t) => t.where('accountServerId').equals(accountServerId);
}

/** An engagement read twice (new, then completed since) as it was read last. */
function latestOfEach(rows: readonly EngagementRow[]): EngagementRow[] {
  return [...new Map(rows.map((row) => [row.id, row])).values()];
}

/**
 * Stores listed engagements (and sweeps `sweep`'s that are not listed), as `teamAllowsWrite`
 * lets it: at once when nothing would change, else once the platform confirms its current team
 * is the store's. True when stored.
 */
async function storeListed(
  ctx: PullContext,
  report: PullReport,
  priority: Priority,
  rows: readonly EngagementRow[],
  sweep: StoreOptions<EngagementRow>['scope'],
): Promise<boolean> {
  report.records += rows.length;
  const changes = async () => {
    const { changed, gone } = await storeChanges(ctx.db.engagements, rows, engagementOptions(sweep));
    return changed.length + gone.length > 0;
  };
  if (!(await teamAllowsWrite(ctx, report, priority, changes))) return false;
  const stored = await storeEngagements(ctx.db, rows, sweep);
  report.written += stored.written;
  report.removed += stored.removed;
  return true;
}
