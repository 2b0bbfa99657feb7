// One engagement (version 2), read-only, when it is opened: it and its outputs (documents,
// signatures, history, and its data once completed). The lists are engagement-list.ts's.

import type { Priority } from '@shared/api/request.ts';
import type { EngagementPartKind } from '../../data/model.ts';
import {
  engagementPartRow,
  engagementRow,
  removeEngagements,
  rowsOf,
  storeEngagements,
} from '../../data/records.ts';
import { allParts, call, fetchArray, storeList, teamConfirmed, type PullContext } from './context.ts';
import { namedPageSize, readList } from './paging.ts';
import { emptyReport, failed, unreadable, type PullReport } from './report.ts';

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
