// The advisor's feed (0.0.1 `/user/activities`), read-only, pulled as the account list is:
// newest first, incremental by `created_at`, and a sweep of every page now and then
// (watermark.ts), which removes what the feed no longer has. The platform answers for its current
// team: what changes the store is kept only once it confirms that team is the store's. When the
// advisor reaches the end of what is stored, one older page is asked for (`pullOlderUserActivity`).

import type { Priority } from '@shared/api/request.ts';
import { readWire } from '@shared/wire/parse.ts';
import { UserActivity } from '@shared/wire/v0/user.ts';
import type { UserActivityRow } from '../../data/model.ts';
import { userActivity } from '../../data/queries/read-only.ts';
import { rowsOf, userActivityRow, type StoreOptions } from '../../data/records.ts';
import { storeTeamList, type PullContext } from './context.ts';
import { heldEntries, namedPageSize, readOlderPage, type ListSpec } from './paging.ts';
import { emptyReport, type PullProgress, type PullReport } from './report.ts';
import { pullIncrementally } from './watermark.ts';

/** What the feed pull remembers between runs (meta key `pull.userActivity`). */
export interface UserActivityState {
  /** Newest `created_at` seen: the next incremental pull stops below it. */
  newestCreatedAt: string | null;
  pulledAt: number | null;
  sweptAt: number | null;
}

export const USER_ACTIVITY_STATE = 'pull.userActivity';

/** The sort key of a feed item as its schema reads it; null for one it refuses or without a time. */
const createdAt = (item: unknown): string | null => readWire(UserActivity, item)?.created_at || null;

export async function pullUserActivity(
  ctx: PullContext,
  options: { full?: boolean; priority?: Priority; onProgress?: (p: PullProgress) => void } = {},
): Promise<PullReport> {
  const report = emptyReport();
  const list = {
    key: USER_ACTIVITY_STATE,
    initial: { newestCreatedAt: null, pulledAt: null, sweptAt: null } as UserActivityState,
    watermark: 'newestCreatedAt' as const,
    stamp: createdAt,
    full: options.full,
  };
  const spec = feedSpec(ctx, options.priority ?? 'background');
  await pullIncrementally(ctx, report, list, async (run) => {
    const items: unknown[] = [];
    const paged = await run.pages(spec, (page) => {
      items.push(...page.items);
      options.onProgress?.({ done: items.length, total: page.total });
    });
    if (!paged) return null;
    const now = ctx.now();
    const rows = rowsOf(items, (item) => userActivityRow(item, now));
    const swept = run.sweep && paged.complete;
    const sweep: StoreOptions<UserActivityRow> = swept ? { scope: (t) => t.toCollection() } : {};
    // Read under another team, it is that team's feed: nothing is kept, the watermark stays.
    if (!(await storeTeamList(ctx, report, spec.priority, ctx.db.userActivity, rows, sweep))) return null;
    return { swept };
  });
  return report;
}

/** The feed, newest first (`sort=-created_at`), of one type when asked, with its page size. */
function feedSpec(ctx: PullContext, priority: Priority, type?: string): ListSpec {
  return {
    name: 'UserActivity',
    api: 'v0',
    path: '/user/activities',
    query: { sort: '-created_at', ...(type ? { type } : {}) },
    priority,
    pageSize: namedPageSize(ctx.db, 'userActivity'),
  };
}

/**
 * The next older page of the feed (of one type, when the screen filters by it): right below the
 * entries of it stored here (paging.ts `readOlderPage`). Kept as the feed pull keeps its rows
 * (only under the store's team), added to them: nothing is removed, and the watermark stays. The
 * report's `olderEnd` says the platform has nothing older.
 */
export async function pullOlderUserActivity(
  ctx: PullContext,
  options: { type?: string; priority?: Priority } = {},
): Promise<PullReport> {
  const report = emptyReport();
  const held = await heldEntries((window) => userActivity(ctx.db, { type: options.type, ...window }));
  const spec = feedSpec(ctx, options.priority ?? 'interactive', options.type);
  const older = await readOlderPage(ctx, report, spec, held, createdAt);
  if (!older) return report;
  const now = ctx.now();
  const rows = rowsOf(older.items, (item) => userActivityRow(item, now));
  if (!(await storeTeamList(ctx, report, spec.priority, ctx.db.userActivity, rows))) return report;
  if (older.end) report.olderEnd = true;
  return report;
}
