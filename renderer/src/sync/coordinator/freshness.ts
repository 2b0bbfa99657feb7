// How fresh the advisor's records must be before Home and Activity ask again: opening either within
// a few minutes of the last successful pull (its `pulledAt` in the pull state meta rows) costs no
// request; a Refresh asks regardless. The screens say "as of" that pull in any case.

import type { AdvisorDb } from '../../data/db.ts';
import { userStats } from '../../data/queries/index.ts';
import { readMeta } from '../pull/context.ts';
import { USER_ACTIVITY_STATE, type UserActivityState } from '../pull/feed.ts';

/** Below this age (ms) since the last successful pull, opening a screen does not pull again. */
export const ADVISOR_RECORDS_MIN_AGE_MS = 5 * 60_000;

export interface AdvisorRecords {
  feed?: boolean;
  stats?: { start: string; end: string };
}

/** What of `what` is due at `now`: older than the minimum age, never pulled, or another range. */
export async function advisorRecordsDue(
  db: AdvisorDb,
  what: AdvisorRecords,
  now: number,
  minAgeMs = ADVISOR_RECORDS_MIN_AGE_MS,
): Promise<AdvisorRecords> {
  const stale = (at: number | null | undefined) => typeof at !== 'number' || now - at >= minAgeMs || at > now;
  const due: AdvisorRecords = {};
  if (what.stats) {
    const held = await userStats(db);
    if (!held || held.start !== what.stats.start || held.end !== what.stats.end || stale(held.pulledAt))
      due.stats = what.stats;
  }
  if (what.feed) {
    const state = await readMeta<Partial<UserActivityState>>(db, USER_ACTIVITY_STATE, {});
    if (stale(state.pulledAt)) due.feed = true;
  }
  return due;
}
