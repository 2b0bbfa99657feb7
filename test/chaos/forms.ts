// Forms (0.0.1) in the chaos scenario: what the advisor sent, resent and closed, and the check once
// everything settled: every send on the platform exactly once (per account, recipients and
// template, as many forms made during the run as sends not taken back), no resend made twice, and
// each form closed here closed there.

import type { AdvisorDb } from '../../renderer/src/data/db.ts';
import type { State } from '../platform/model.ts';

type Report = (kind: 'duplicates' | 'lost', message: string) => void;

const roles = (recipients: readonly { role: string }[]) =>
  recipients
    .map((r) => r.role)
    .sort()
    .join('+');

export class FormIntents {
  /** Forms on the platform before the run (`account:key`): none of them was sent here. */
  private before = new Set<string>();
  private resentBefore = 0;
  /** Sends not taken back, by `${account local id}|${recipients}|${template key}`. */
  private readonly sends = new Map<string, number>();
  /** Resends not taken back (the assistant resends none). */
  private resends = 0;
  /** Forms closed here. */
  private readonly closed = new Set<string>();

  started(state: State): void {
    this.before = new Set(state.forms.map((f) => `${f.account_id}:${f.key}`));
    this.resentBefore = state.userActivities.filter((a) => a.type === 'form.resent').length;
  }

  sent(accountId: string, recipients: readonly string[], templateKey: string, delta = 1): void {
    const key = `${accountId}|${[...recipients].sort().join('+')}|${templateKey}`;
    this.sends.set(key, (this.sends.get(key) ?? 0) + delta);
  }

  resent(delta = 1): void {
    this.resends += delta;
  }

  closing(formId: string, on = true): void {
    if (on) this.closed.add(formId);
    else this.closed.delete(formId);
  }

  async check(db: AdvisorDb, state: State, report: Report): Promise<void> {
    for (const [key, count] of this.sends) {
      const [accountId, recipients, templateKey] = key.split('|') as [string, string, string];
      const serverId = (await db.accounts.get(accountId))?.serverId;
      const templateId = state.templates.find((t) => t.key === templateKey)?.id;
      const made = state.forms.filter(
        (f) =>
          !this.before.has(`${f.account_id}:${f.key}`) &&
          f.account_id === serverId &&
          f.template_id === templateId &&
          roles(f.recipients) === recipients,
      ).length;
      const name = `form ${templateKey} to the ${recipients} of account ${accountId}`;
      if (made > count) report('duplicates', `${name}: sent ${count} times here, ${made} on the platform`);
      if (made < count) report('lost', `${name}: sent ${count} times here, ${made} on the platform`);
    }
    const resent = state.userActivities.filter((a) => a.type === 'form.resent').length - this.resentBefore;
    if (resent > this.resends)
      report('duplicates', `forms were resent ${this.resends} times here, ${resent} on the platform`);
    for (const id of this.closed) {
      const theirs = state.forms.find((f) => `${f.account_id}:${f.key}` === id);
      if (theirs && theirs.status !== 'CLOSED')
        report('lost', `form ${id} was closed here but is ${theirs.status}`);
    }
  }
}
