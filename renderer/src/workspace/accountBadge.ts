// What the workspace's header says of the account's sync state: one badge summing up all its
// records and the parts not on this computer, and the hint that says why, in words.

import type { Badge } from '../common/SyncBadge.vue';
import { COMPLETE, type AccountCoverage } from '../data/coverage.ts';
import type { AccountRow } from '../data/model.ts';
import { listed, partLabel } from '../household/coverage.ts';
import { stateOf, type RecordBadge, type WorkspaceData } from '../household/workspace.ts';

/** The parts not on this computer, in words: the first few, and how many more. */
export function missingWords(coverage: AccountCoverage, account: AccountRow | null): string {
  const names = coverage.missing.map((key) => partLabel(key, account));
  const shown = names.slice(0, 3);
  if (names.length > shown.length) shown.push(`${names.length - shown.length} more`);
  return listed(shown);
}

/**
 * The account's badge sums up all its records (the account, its members' details, every section
 * item): the most urgent state anywhere wins, so the header never says "Synced" above a refused
 * form. An item deleted on the platform counts as a conflict here (the account itself is not).
 */
const ACCOUNT_BADGE_ORDER: readonly RecordBadge[] = ['synced', 'pending', 'rejected', 'conflict', 'deleted'];

export function accountBadge(data: WorkspaceData | null): { badge: Badge; hint: string | null } {
  const account = data?.account ?? null;
  const coverage = data?.coverage ?? COMPLETE;
  const own = stateOf(data, account?.id).badge;
  const counts: Record<RecordBadge, number> = { synced: 0, pending: 0, rejected: 0, conflict: 0, deleted: 0 };
  for (const state of Object.values(data?.states ?? {}))
    counts[state.badge === 'deleted' ? 'conflict' : state.badge]++;
  if (own === 'deleted') return { badge: own, hint: null };
  const badge = [...ACCOUNT_BADGE_ORDER].reverse().find((b) => b !== 'deleted' && counts[b] > 0) ?? 'synced';
  const records = (n: number) => `${n} ${n === 1 ? 'record' : 'records'}`;
  const parts = [
    counts.conflict && `${records(counts.conflict)} in conflict`,
    counts.rejected && `${records(counts.rejected)} refused by the platform`,
    counts.pending && `${records(counts.pending)} waiting to be sent`,
  ].filter(Boolean);
  const held = coverage.state;
  if (held !== 'complete') {
    // Nothing waits, but what is not here is not "Synced": it was never here to be.
    const absent =
      held === 'none'
        ? 'Not downloaded yet: only its entry in the account list is on this computer.'
        : `Partly downloaded: ${missingWords(coverage, account)} not on this computer yet.`;
    return {
      badge: badge === 'synced' ? (held === 'none' ? 'absent' : 'partial') : badge,
      hint: parts.length ? `In this account: ${parts.join(', ')}. ${absent}` : absent,
    };
  }
  return {
    badge,
    hint: parts.length
      ? `In this account: ${parts.join(', ')}.`
      : 'Everything in this account is on the platform.',
  };
}
