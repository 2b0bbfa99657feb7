// The account list of version 2 (`type=all`: archived ones too), newest change first, incremental
// by `updated_at` with a periodic sweep (watermark.ts). A sweep notices remote deletions: the
// accounts it did not list are asked for one by one, once the platform confirms that its current
// team is the store's (another team's list lacks every account of this one). Accounts new to the
// store are kept only once the platform confirms the same: a list read while another device
// switched the team is the other team's, and its accounts are not this store's.

import type { Priority } from '@shared/api/request.ts';
import { accountSnapshot, type AccountSnapshot } from '../../data/mappers.ts';
import { allParts, readMeta, teamAnswer, type PullContext } from './context.ts';
import { applyAccounts, confirmAccount } from './account-snapshots.ts';
import type { ListSpec } from './paging.ts';
import { emptyReport, type PullProgress, type PullReport } from './report.ts';
import { pullIncrementally } from './watermark.ts';

/** What the account list pull remembers between runs (meta key `pull.accounts`). */
export interface AccountListState {
  pageSize: number | null;
  /** Newest `updated_at` seen: the next incremental pull stops below it. */
  newestUpdatedAt: string | null;
  pulledAt: number | null;
  sweptAt: number | null;
}

export const ACCOUNT_LIST_STATE = 'pull.accounts';

/** The sort key of a listed account, as its snapshot reads it; null for one without (or no account). */
const updatedAt = (item: unknown): string | null => accountSnapshot(item)?.meta.updated_at ?? null;

/**
 * Pulls the list, applying each page as it arrives. Incremental: stops at the first page that
 * reaches accounts older than the newest change of the last pull. A sweep (every page) runs when
 * `full` is set, on the first pull and when the last sweep is older than the sweep interval.
 */
export async function pullAccountList(
  ctx: PullContext,
  options: { full?: boolean; priority?: Priority; onProgress?: (p: PullProgress) => void } = {},
): Promise<PullReport> {
  const report = emptyReport();
  const priority = options.priority ?? 'background';
  const list = {
    key: ACCOUNT_LIST_STATE,
    initial: { pageSize: null, newestUpdatedAt: null, pulledAt: null, sweptAt: null } as AccountListState,
    watermark: 'newestUpdatedAt' as const,
    stamp: updatedAt,
    full: options.full,
  };
  await pullIncrementally(ctx, report, list, async (run) => {
    // Read before paging: only accounts the server had before the sweep began can be missing from
    // it, and only accounts not known before are new.
    const known = await knownAccounts(ctx);
    const seen = new Set<number>();
    const added = new Set<number>();
    const paged = await run.pages(listSpec(ctx, run.state, priority), async (page) => {
      const snapshots = page.items.map(accountSnapshot).filter((s): s is AccountSnapshot => s !== null);
      report.records += snapshots.length;
      await applyAccounts(ctx.db, snapshots, report);
      for (const snapshot of snapshots) {
        seen.add(snapshot.serverId);
        if (!known.has(snapshot.serverId)) added.add(snapshot.serverId);
      }
      options.onProgress?.({ done: seen.size, total: run.watermark === null ? page.total : null });
    });
    if (!paged) return null;
    const missing = run.sweep
      ? [...known].filter(([serverId]) => !seen.has(serverId)).slice(0, ctx.deletionChecks)
      : [];
    if (added.size === 0 && missing.length === 0) return { swept: run.sweep };
    // One question for both: new accounts to keep, absent ones to check.
    const team = await teamAnswer(ctx, report, priority);
    if (team.kind === 'moved') await forgetListed(ctx, added);
    // Under another team (or none known) the list proves nothing: nothing is remembered of it.
    if (team.kind !== 'same') return null;
    await allParts(
      missing.map(([serverId, localId]) => confirmAccount(ctx, serverId, localId, report, priority, true)),
    );
    return { swept: run.sweep };
  });
  return report;
}

/** The list's request; the page size probed for it is kept in its own state (and `meta`). */
function listSpec(ctx: PullContext, state: AccountListState, priority: Priority): ListSpec {
  return {
    name: 'Account',
    api: 'v2',
    path: '/accounts',
    query: { type: 'all', sort: '-updated_at' },
    priority,
    pageSize: {
      known: () => Promise.resolve(state.pageSize),
      async remember(pageSize) {
        state.pageSize = pageSize;
        const stored = await readMeta<AccountListState>(ctx.db, ACCOUNT_LIST_STATE, state);
        await ctx.db.meta.put({ key: ACCOUNT_LIST_STATE, value: { ...stored, pageSize } });
      },
    },
  };
}

/** Server id → local account, for the accounts known to be on the server. */
async function knownAccounts(ctx: PullContext): Promise<Map<number, string>> {
  const known = new Map<number, string>();
  // A key cursor: the index alone, no row is read.
  await ctx.db.accounts.orderBy('serverId').eachKey((serverId, cursor) => {
    if (typeof serverId === 'number') known.set(serverId, String(cursor.primaryKey));
  });
  return known;
}

/**
 * Accounts the list brought in while the platform's team was another are that team's: removed
 * again; one the advisor changed meanwhile is kept with its change (never lose a keystroke).
 */
async function forgetListed(ctx: PullContext, serverIds: Set<number>): Promise<void> {
  if (serverIds.size === 0) return;
  await ctx.db.accounts
    .where('serverId')
    .anyOf([...serverIds])
    .filter((row) => row.status === 'synced')
    .delete();
}
