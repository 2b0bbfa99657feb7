// A household prepared for a meeting takes its questionnaires along: the household's engagement
// list (one request), then what the member gave of each completed one not fetched since it last
// changed (5 requests each). Every other engagement's outputs wait until the advisor opens it.

import type { AdvisorDb } from '../../data/db.ts';
import type { ReportedPulls } from '../diagnostics.ts';
import { addReport, type PullReport } from '../pull/report.ts';

export async function pullMeetingEngagements(
  db: AdvisorDb,
  pull: Pick<ReportedPulls, 'pullEngagements' | 'pullEngagement'>,
  localId: string,
): Promise<PullReport> {
  const report = await pull.pullEngagements({ accountId: localId, priority: 'interactive' });
  const account = await db.accounts.get(localId);
  if (report.failures.length > 0 || report.stopped || typeof account?.serverId !== 'number') return report;
  const stale = await db.engagements
    .where('accountServerId')
    .equals(account.serverId)
    .filter((e) => e.completed === 1 && (e.partsPulledAt === null || e.partsPulledAt < e.pulledAt))
    .primaryKeys();
  for (const id of stale) {
    addReport(report, await pull.pullEngagement(id, { priority: 'interactive' }));
    if (report.stopped) break;
  }
  return report;
}
