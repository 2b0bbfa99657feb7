// The background's queue of households kept offline, as the sync panel lists it: which wait, which
// one is being updated with its requests answered of sent. The run itself is quiet (no progress
// bar in the frame for minutes); this is where the advisor can see what it does and how long.

import { accountLabel } from '../../data/labels.ts';
import type { AccountRow } from '../../data/model.ts';
import { accountPullRequests } from '../pull/account-data.ts';
import { membersOf } from '../pull/account-parts.ts';
import type { PlatformAnswers } from './answers.ts';
import type { HouseholdStep } from './state.ts';

export class OfflineQueue {
  private steps: HouseholdStep[] = [];
  private stopCounting: (() => void) | null = null;

  constructor(
    private readonly answers: PlatformAnswers,
    /** The queue moved. */
    private readonly changed: () => void,
  ) {}

  get households(): HouseholdStep[] {
    return this.steps.map((s) => ({ ...s }));
  }

  /** The run reached `due[at]`: the ones before it are done, it is under way, the rest wait. */
  readonly reached = (due: readonly AccountRow[], at: number): void => {
    this.stopCounting?.();
    this.stopCounting = null;
    this.steps = due.slice(at).map((account, i) => ({
      accountId: account.id,
      label: accountLabel(account),
      purpose: 'background',
      state: i === 0 ? 'getting' : 'waiting',
      done: 0,
      total: accountPullRequests(membersOf(account.meta)),
      reason: null,
    }));
    const current = this.steps[0];
    const serverId = due[at]?.serverId;
    if (current && typeof serverId === 'number')
      this.stopCounting = this.answers.countAccount(serverId, 'background', (p) => {
        current.done = p.done;
        current.total = Math.max(current.total, p.total ?? 0);
        this.changed();
      });
    this.changed();
  };

  /** The run ended, however: nothing waits any more. */
  clear(): void {
    this.stopCounting?.();
    this.stopCounting = null;
    if (this.steps.length === 0) return;
    this.steps = [];
    this.changed();
  }
}
