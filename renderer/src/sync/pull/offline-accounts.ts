// The accounts kept on this computer: those marked available offline, the favorites and the most
// recently opened, pulled in the background one after another, least recently pulled first.

import type { AdvisorDb } from '../../data/db.ts';
import type { AccountRow } from '../../data/model.ts';
import { stopIfEnded, type PullContext } from './context.ts';
import { addReport, emptyReport, type PullProgress, type PullReport } from './report.ts';

/** How many of the accounts opened last are kept, besides the marked ones and the favorites. */
export const RECENT_ACCOUNTS = 10;

/** The local ids of the `recent` accounts opened last, the last first (never opened: none). */
export async function recentlyOpened(db: AdvisorDb, recent = RECENT_ACCOUNTS): Promise<string[]> {
  return recent > 0 ? db.accounts.orderBy('openedAt').reverse().limit(recent).primaryKeys() : [];
}

export interface OfflineAccountsOptions {
  recent?: number;
  skipUnchanged?: boolean;
  onProgress?: (p: PullProgress) => void;
  /** The accounts due in this run and the index of the one pulled now (`due.length` at the end). */
  onQueue?: (due: readonly AccountRow[], at: number) => void;
}

/**
 * With `skipUnchanged` (default), an account whose `updated_at` (from the last list pull) is still
 * the one of its last whole pull is left alone: the platform moves `updated_at` on every change
 * of the account and its data, so nothing changed. `pullAccount` pulls one (the engine's, which
 * shares a run with a pull of the same account under way).
 */
export async function pullOfflineAccounts(
  ctx: PullContext,
  pullAccount: (localId: string) => Promise<PullReport>,
  options: OfflineAccountsOptions = {},
): Promise<PullReport> {
  const report = emptyReport();
  const accounts = await offlineCandidates(ctx, options.recent ?? ctx.recentAccounts);
  const due = accounts.filter(
    (a) => options.skipUnchanged === false || a.pulledAt === null || a.pulledUpdatedAt !== a.meta.updated_at,
  );
  report.skipped = due.length === 0;
  for (const [i, account] of due.entries()) {
    // Signed out: the accounts not reached yet are left for the next session.
    stopIfEnded(ctx);
    // The platform's team is another: every account would meet a 404 that proves nothing.
    if (ctx.team.moved !== null) break;
    options.onProgress?.({ done: i, total: due.length });
    options.onQueue?.(due, i);
    addReport(report, await pullAccount(account.id));
  }
  options.onProgress?.({ done: due.length, total: due.length });
  options.onQueue?.(due, due.length);
  return report;
}

async function offlineCandidates(ctx: PullContext, recent: number): Promise<AccountRow[]> {
  const { accounts } = ctx.db;
  const ids = new Set([
    ...(await accounts.where('availableOffline').equals(1).primaryKeys()),
    ...(await accounts.where('favorited').equals(1).primaryKeys()),
    ...(await recentlyOpened(ctx.db, recent)),
  ]);
  const rows = (await accounts.bulkGet([...ids])).filter(
    (r): r is AccountRow => r !== undefined && typeof r.serverId === 'number' && !r.deletedOnServer,
  );
  return rows.sort((a, b) => (a.pulledAt ?? -Infinity) - (b.pulledAt ?? -Infinity));
}
