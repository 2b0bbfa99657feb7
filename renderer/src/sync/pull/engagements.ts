// Engagements (version 2), read-only: the list (an account's or every one the user may see), and
// one engagement's outputs when it is opened (documents, signatures, history, and its data once
// completed). Engagements the server no longer lists go, with their outputs; a list that would
// change the store is kept only once the platform confirms its current team is the store's.

import type { Priority } from '@shared/api/request.ts';
import type { EngagementPartKind, EngagementRow } from '../../data/model.ts';
import {
  engagementOptions,
  engagementPartRow,
  engagementRow,
  removeEngagements,
  rowsOf,
  storeChanges,
  storeEngagements,
  type StoreOptions,
} from '../../data/records.ts';
import {
  allParts,
  call,
  fetchArray,
  serverAccount,
  storeList,
  teamAllowsWrite,
  teamConfirmed,
  type PullContext,
} from './context.ts';
import { namedPageSize, readList } from './paging.ts';
import { emptyReport, failed, unreadable, type PullProgress, type PullReport } from './report.ts';

/**
 * The engagement list: an account's (`accountId`, a local id) or every one the user may see, all
 * pages, the largest the platform takes. Not incremental: the list has no time of change to sort
 * by (no `updated_at`; a reopen, or a contact filling in answers, moves no sort key to the front).
 */
export async function pullEngagements(
  ctx: PullContext,
  options: { accountId?: string; priority?: Priority; onProgress?: (p: PullProgress) => void } = {},
): Promise<PullReport> {
  const report = emptyReport();
  const account =
    options.accountId === undefined ? undefined : await serverAccount(ctx.db, options.accountId);
  if (account === null) return { ...report, skipped: true };
  const spec = {
    name: 'Engagement',
    api: 'v2' as const,
    path: '/engagements',
    query: { sort: '-created_at', ...(account ? { account_id: account.serverId } : {}) },
    priority: options.priority ?? 'background',
    pageSize: namedPageSize(ctx.db, 'engagements'),
  };
  const list = await readList(ctx, report, spec, { onProgress: options.onProgress });
  if (!list) return report;
  const now = ctx.now();
  const rows = rowsOf(list.items, (item) => engagementRow(item, now));
  report.records += rows.length;
  const scope: StoreOptions<EngagementRow>['scope'] = account
    ? (t) => t.where('accountServerId').equals(account.serverId)
    : (t) => t.toCollection();
  const sweep = list.complete ? scope : undefined;
  // The platform lists its current team's: under another, an account's list is empty, not swept.
  const changes = async () => {
    const { changed, gone } = await storeChanges(ctx.db.engagements, rows, engagementOptions(sweep));
    return changed.length + gone.length > 0;
  };
  if (!(await teamAllowsWrite(ctx, report, spec.priority, changes))) return report;
  const stored = await storeEngagements(ctx.db, rows, sweep);
  report.written += stored.written;
  report.removed += stored.removed;
  return report;
}

/**
 * One engagement and its outputs, when it is opened: the engagement, its documents, signatures
 * and history, and its data once completed (the platform refuses the data of an open one). 4
 * requests, 5 when completed. A 404 removes it locally (under the store's team); `partsPulledAt` is set when all arrived.
 */
export async function pullEngagement(
  ctx: PullContext,
  id: string,
  options: { priority?: Priority } = {},
): Promise<PullReport> {
  const report = emptyReport();
  const priority = options.priority ?? 'background';
  const path = `/engagements/${encodeURIComponent(id)}`;
  const result = await call(ctx, report, { api: 'v2', method: 'GET', path, priority });
  if (!result.ok && result.kind === 'not-found') {
    // Under another team it is out of sight, not gone.
    if (await teamConfirmed(ctx, report, priority)) report.removed += await removeEngagements(ctx.db, [id]);
    else failed(report, path, result);
    return report;
  }
  if (!result.ok) {
    failed(report, path, result);
    return report;
  }
  const row = engagementRow(result.data, ctx.now());
  if (!row || row.id !== id) {
    unreadable(report, path);
    return report;
  }
  report.records += 1;
  report.written += (await storeEngagements(ctx.db, [row])).written;
  const kinds = ['documents', 'signatures', 'history'] as const;
  await allParts([
    ...kinds.map((kind) => pullEngagementList(ctx, id, kind, report, priority)),
    // An open engagement has no data to read: none is kept (it had some before a reopen).
    row.completed ? pullEngagementData(ctx, id, report, priority) : storeParts(ctx, report, id, 'data', []),
  ]);
  if (report.failures.length === 0) await ctx.db.engagements.update(id, { partsPulledAt: ctx.now() });
  return report;
}

async function pullEngagementList(
  ctx: PullContext,
  id: string,
  kind: Exclude<EngagementPartKind, 'data'>,
  report: PullReport,
  priority: Priority,
): Promise<void> {
  const path = `/engagements/${encodeURIComponent(id)}/${kind}`;
  const spec = {
    name: `Engagement ${kind}`,
    api: 'v2' as const,
    path,
    priority,
    pageSize: namedPageSize(ctx.db, kind),
  };
  const list = await readList(ctx, report, spec);
  if (list) await storeParts(ctx, report, id, kind, list.items, list.complete);
}

async function pullEngagementData(
  ctx: PullContext,
  id: string,
  report: PullReport,
  priority: Priority,
): Promise<void> {
  const path = `/engagements/${encodeURIComponent(id)}/data`;
  const items = await fetchArray(ctx, report, { api: 'v2', method: 'GET', path, priority });
  if (items) await storeParts(ctx, report, id, 'data', items);
}

/** One output of an engagement, in the platform's order; `complete`: rows it no longer has go. */
async function storeParts(
  ctx: PullContext,
  report: PullReport,
  id: string,
  kind: EngagementPartKind,
  items: readonly unknown[],
  complete = true,
): Promise<void> {
  const now = ctx.now();
  const rows = rowsOf(items, (item, i) => engagementPartRow(kind, item, id, i, now));
  await storeList(report, ctx.db.engagementParts, rows, {
    ...(complete ? { scope: (t) => t.where('[engagementId+kind]').equals([id, kind]) } : {}),
  });
}
