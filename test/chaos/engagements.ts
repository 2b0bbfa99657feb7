// Questionnaires in the chaos scenario: what the advisor sent, closed and reopened, and the check
// once everything settled: every send on the platform exactly once (per account, member and
// template, as many engagements made during the run as sends that were not taken back), and each
// engagement closed or reopened here in the state last asked.

import type { AdvisorDb } from '../../renderer/src/data/db.ts';
import type { State } from '../platform/model.ts';

type Report = (kind: 'duplicates' | 'lost', message: string) => void;

export class EngagementIntents {
  /** Engagements on the platform before the run: none of them was sent here. */
  private before = new Set<string>();
  /** Sends not taken back, by `${account local id}|${member}|${template id}`. */
  private readonly sends = new Map<string, number>();
  /** The last wish for each engagement closed or reopened here. */
  private readonly wishes = new Map<string, 'COMPLETED' | 'NEW'>();

  started(state: State): void {
    this.before = new Set(state.engagements.map((e) => e.id));
  }

  sent(accountId: string, member: string, templateId: string, delta = 1): void {
    const key = `${accountId}|${member}|${templateId}`;
    this.sends.set(key, (this.sends.get(key) ?? 0) + delta);
  }

  wished(engagementId: string, status: 'COMPLETED' | 'NEW'): void {
    this.wishes.set(engagementId, status);
  }

  /** A close or reopen taken back: nothing is asked of that engagement any more. */
  forget(engagementId: string): void {
    this.wishes.delete(engagementId);
  }

  async check(db: AdvisorDb, state: State, report: Report): Promise<void> {
    for (const [key, count] of this.sends) {
      const [accountId, member, templateId] = key.split('|') as [string, string, string];
      const serverId = (await db.accounts.get(accountId))?.serverId;
      const account = state.accounts.find((a) => a.id === serverId);
      const memberId = member === 'coclient' ? account?.coclient?.id : account?.client.id;
      const made = state.engagements.filter(
        (e) =>
          !this.before.has(e.id) &&
          e.account_id === serverId &&
          e.member_id === memberId &&
          e.template_id === templateId,
      ).length;
      const name = `questionnaire ${templateId} to the ${member} of account ${accountId}`;
      if (made > count) report('duplicates', `${name}: sent ${count} times here, ${made} on the platform`);
      if (made < count) report('lost', `${name}: sent ${count} times here, ${made} on the platform`);
    }
    for (const [id, status] of this.wishes) {
      const theirs = state.engagements.find((e) => e.id === id);
      if (theirs && theirs.status !== status)
        report(
          'lost',
          `engagement ${id} was last ${status === 'NEW' ? 'reopened' : 'closed'} here but is ${theirs.status}`,
        );
    }
  }
}
