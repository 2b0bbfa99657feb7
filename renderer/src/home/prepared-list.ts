// The households prepared for a meeting as Home lists them: the preparation kept in the store (it
// survives a restart), each household's readiness from what the store holds, its changes waiting
// to be sent, and — for one moving in this session — the sync's live step instead.

import type { AdvisorDb } from '../data/db.ts';
import type { OperationState } from '../data/model.ts';
import { preparedSteps, type KeptStep } from '../sync/coordinator/prepared.ts';
import type { HouseholdStep } from '../sync/coordinator/state.ts';

export interface PreparedList {
  kept: KeptStep[];
  /** Changes waiting to be sent, by household (local account id); absent: none. */
  pending: Record<string, number>;
}

const WAITING: OperationState[] = ['queued', 'inflight', 'retry'];

/** The kept preparation and the changes of its households waiting to be sent (one read). */
export function preparedList(db: AdvisorDb): Promise<PreparedList> {
  return db.transaction('r', [db.meta, db.accounts, db.outbox, db.sectionItems, db.singles], async () => {
    const kept = await preparedSteps(db);
    const ids = new Set(kept.map((k) => k.step.accountId));
    const pending: Record<string, number> = {};
    for (const op of await db.outbox.where('state').anyOf(WAITING).toArray()) {
      const owner =
        op.table === 'accounts'
          ? op.recordId
          : op.table === 'sectionItems'
            ? (await db.sectionItems.get(op.recordId))?.accountId
            : (await db.singles.get(op.recordId))?.accountId;
      if (owner && ids.has(owner)) pending[owner] = (pending[owner] ?? 0) + 1;
    }
    return { kept, pending };
  });
}

/**
 * The steps to show: each kept household, replaced by its live step while this session moves it
 * (the store is written on each change of state, the live step also counts its parts); a live
 * one not written yet comes last.
 */
export function withLiveSteps(kept: readonly KeptStep[], live: readonly HouseholdStep[]): HouseholdStep[] {
  const meeting = live.filter((s) => s.purpose === 'meeting');
  const shown = kept.map((k) => meeting.find((s) => s.accountId === k.step.accountId) ?? k.step);
  return [...shown, ...meeting.filter((s) => !kept.some((k) => k.step.accountId === s.accountId))];
}
