// The households prepared for a meeting, kept in the signed-in identity's store (one meta row), so
// that Home and the "Prepare for a meeting" dialog still list them after the app restarts. A
// preparation ends when the advisor clears the list.

import { fullyHere } from '../../data/coverage.ts';
import type { AdvisorDb } from '../../data/db.ts';
import { accountLabel } from '../../data/labels.ts';
import { accountPullRequests } from '../pull/account-data.ts';
import { membersOf } from '../pull/account-parts.ts';
import type { HouseholdStep } from './state.ts';

/** Meta key of the preparation under way or done. */
export const PREPARED_KEY = 'meeting.prepared';

/** One household of the preparation as it was last known here. */
export interface PreparedHousehold {
  accountId: string;
  /** When the advisor chose it (ms). */
  preparedAt: number;
  /** When it became ready offline (ms); null or absent (kept by an earlier version): not known. */
  readyAt?: number | null;
  /** `getting` is kept as `waiting`: a pull cut short by a restart goes again. */
  state: 'waiting' | 'ready' | 'failed';
  reason: string | null;
  /** Its stored files kept offline when it became ready (null: not known, or not ready). */
  files: number | null;
}

export async function readPrepared(db: AdvisorDb): Promise<PreparedHousehold[]> {
  const value = (await db.meta.get(PREPARED_KEY))?.value as { households?: unknown } | undefined;
  return Array.isArray(value?.households) ? (value.households as PreparedHousehold[]) : [];
}

/** When each household was chosen and when it became ready (ms), by local account id. */
export interface PreparedTimes {
  chosenAt: ReadonlyMap<string, number>;
  readyAt: ReadonlyMap<string, number>;
}

/** The steps as they are kept: the times each was chosen and became ready, its state, its files once ready. */
export async function writePrepared(
  db: AdvisorDb,
  steps: readonly HouseholdStep[],
  times: PreparedTimes,
  now: number,
): Promise<void> {
  const households: PreparedHousehold[] = steps.map((s) => ({
    accountId: s.accountId,
    preparedAt: times.chosenAt.get(s.accountId) ?? now,
    readyAt: s.state === 'ready' ? (times.readyAt.get(s.accountId) ?? now) : null,
    state: s.state === 'getting' ? 'waiting' : s.state,
    reason: s.reason,
    files: s.state === 'ready' ? (s.files?.total ?? 0) : null,
  }));
  await db.meta.put({ key: PREPARED_KEY, value: { households } });
}

/** A kept household as a step, with when it was chosen and when it became ready (null: not ready, or not known). */
export interface KeptStep {
  step: HouseholdStep;
  preparedAt: number;
  readyAt: number | null;
}

/**
 * The kept list as steps, each as the store has it now: one whose account is gone leaves the list;
 * one kept ready whose parts are no longer all here (a part removed since) is said so, to be tried
 * again. Waiting ones wait; failed ones keep their reason.
 */
export async function preparedSteps(db: AdvisorDb): Promise<KeptStep[]> {
  const out: KeptStep[] = [];
  for (const kept of await readPrepared(db)) {
    const account = await db.accounts.get(kept.accountId);
    if (!account) continue;
    const total = accountPullRequests(membersOf(account.meta));
    const step: HouseholdStep = {
      accountId: kept.accountId,
      label: accountLabel(account),
      purpose: 'meeting',
      state: kept.state,
      done: kept.state === 'ready' ? total : 0,
      total,
      reason: kept.reason,
      files: kept.state === 'ready' && kept.files !== null ? { done: kept.files, total: kept.files } : null,
    };
    if (kept.state === 'ready' && !fullyHere(account))
      Object.assign(step, { state: 'failed', done: 0, files: null, reason: NOT_ALL_HERE });
    out.push({
      step,
      preparedAt: kept.preparedAt,
      readyAt: step.state === 'ready' ? (kept.readyAt ?? null) : null,
    });
  }
  return out;
}

const NOT_ALL_HERE = 'Parts of it are no longer on this computer; try again.';
