// The read-only records of the advisor (0.0.1): forms (an account's or every one of the user), the
// metadata of their reports, and their statistics. Each one request; what the server no longer
// lists goes. The platform answers for its current team: what would change the store is written
// only once it confirms that team is the store's (one request more, context.ts teamAllowsWrite).

import type { Priority } from '@shared/api/request.ts';
import { parseWire } from '@shared/wire/parse.ts';
import { UserStats } from '@shared/wire/v0/user.ts';
import { STATS_KEY } from '../../data/queries/index.ts';
import { formRow, reportRow, rowsOf } from '../../data/records.ts';
import { sameValue } from '../../data/view.ts';
import {
  fetchArray,
  fetchParsed,
  serverAccount,
  storeTeamList,
  teamAllowsWrite,
  type PullContext,
} from './context.ts';
import { emptyReport, type PullReport } from './report.ts';

/** Forms: an account's (`accountId`, a local id), or every form of the user (`/user/forms`). */
export async function pullForms(
  ctx: PullContext,
  options: { accountId?: string; priority?: Priority } = {},
): Promise<PullReport> {
  const report = emptyReport();
  const account =
    options.accountId === undefined ? undefined : await serverAccount(ctx.db, options.accountId);
  if (account === null) return { ...report, skipped: true };
  const path = account ? `/accounts/${account.serverId}/forms` : '/user/forms';
  const priority = options.priority ?? 'background';
  const forms = await fetchArray(ctx, report, { api: 'v0', method: 'GET', path, priority });
  if (!forms) return report;
  const now = ctx.now();
  await storeTeamList(
    ctx,
    report,
    priority,
    ctx.db.forms,
    rowsOf(forms, (form) => formRow(form, now, account?.serverId)),
    {
      scope: account ? (t) => t.where('accountServerId').equals(account.serverId) : (t) => t.toCollection(),
    },
  );
  return report;
}

/** The metadata of the user's reports. */
export async function pullReports(
  ctx: PullContext,
  options: { priority?: Priority } = {},
): Promise<PullReport> {
  const report = emptyReport();
  const priority = options.priority ?? 'background';
  const reports = await fetchArray(ctx, report, {
    api: 'v0',
    method: 'GET',
    path: '/user/reports',
    priority,
  });
  if (!reports) return report;
  const now = ctx.now();
  await storeTeamList(
    ctx,
    report,
    priority,
    ctx.db.reports,
    rowsOf(reports, (r) => reportRow(r, now)),
    { scope: (t) => t.toCollection() },
  );
  return report;
}

/**
 * The advisor's statistics (`/user/stats`), counts per day from `start` to `end` (`YYYY-MM-DD`;
 * the platform's defaults, the last month, when left out), into `meta` (`STATS_KEY`).
 */
export async function pullStats(
  ctx: PullContext,
  options: { start?: string; end?: string; priority?: Priority } = {},
): Promise<PullReport> {
  const report = emptyReport();
  const query: Record<string, string> = {};
  if (options.start) query.start_date = options.start;
  if (options.end) query.end_date = options.end;
  const priority = options.priority ?? 'background';
  const stats = await fetchParsed(
    ctx,
    report,
    { api: 'v0', method: 'GET', path: '/user/stats', query, priority },
    (data) => parseWire(UserStats, data, 'statistics'),
  );
  if (stats === null) return report;
  const value = {
    pulledAt: ctx.now(),
    start: options.start ?? null,
    end: options.end ?? null,
    data: stats,
  };
  report.records += 1;
  const held = (await ctx.db.meta.get(STATS_KEY))?.value;
  const changes = () =>
    Promise.resolve(!sameValue({ ...(held as object), pulledAt: 0 }, { ...value, pulledAt: 0 }));
  if (!(await teamAllowsWrite(ctx, report, priority, changes))) return report;
  await ctx.db.meta.put({ key: STATS_KEY, value });
  report.written += 1;
  return report;
}
