// The pulls a screen asks for and waits on: an account opened or kept offline, Home and Activity
// shown, older activity, a household's or the team's questionnaires, the forms, the reports. They
// run in the window that asks, at interactive priority, and are skipped offline or when the user
// and team signed in are not this store's.

import type { AdvisorDb } from '../../data/db.ts';
import { accountLabel } from '../../data/labels.ts';
import type { ReportedPulls } from '../diagnostics.ts';
import { emptyReport, type PullProgress, type PullReport } from '../pull/index.ts';
import { addReport } from '../pull/report.ts';
import type { PlatformAnswers } from './answers.ts';
import { answerDigest, changedParts, recordClosedAnswers } from './closed-answers.ts';
import { advisorRecordsDue, type AdvisorRecords } from './freshness.ts';
import { pullMeetingEngagements } from './meeting-engagements.ts';
import type { PullRuns } from './pull-runs.ts';

/** What asking for older activity found (`olderActivity`). */
export type OlderActivity = 'offline' | 'end' | 'more' | 'failed';

export interface OnDemandHost {
  db: AdvisorDb;
  pull: ReportedPulls;
  pulls: PullRuns;
  answers: PlatformAnswers;
  now: () => number;
  online: () => boolean;
  /** Whether the user and team signed in are this store's: another's answers are not for it. */
  signedInHere: () => Promise<boolean>;
}

export class OnDemandPulls {
  private readonly db: AdvisorDb;
  private readonly pull: ReportedPulls;
  private readonly pulls: PullRuns;
  private readonly answers: PlatformAnswers;
  private readonly now: () => number;
  private readonly online: () => boolean;
  private readonly signedInHere: () => Promise<boolean>;

  constructor(host: OnDemandHost) {
    this.db = host.db;
    this.pull = host.pull;
    this.pulls = host.pulls;
    this.answers = host.answers;
    this.now = host.now;
    this.online = host.online;
    this.signedInHere = host.signedInHere;
  }

  /** The user opens an account: it counts as recently opened, and is pulled before anything else. */
  async openAccount(localId: string): Promise<PullReport> {
    await this.db.accounts.update(localId, { openedAt: this.now() });
    return this.pullAccount(localId, 'Opening');
  }

  /** Keeps an account's details and sections on this computer (pulled now, then in the background). */
  async setAvailableOffline(localId: string, on: boolean): Promise<PullReport | null> {
    await this.db.accounts.update(localId, { availableOffline: on ? 1 : 0 });
    return on ? this.pullAccount(localId, 'Keeping offline:') : null;
  }

  /**
   * Home and Activity are shown: the advisor's feed (incremental, a sweep when due) and the
   * statistics for `range` are pulled now at interactive priority, each only when its last
   * successful pull is older than a few minutes (freshness.ts) unless `force` (a Refresh); skipped
   * offline, where the screens show what the store holds and since when.
   */
  async refreshAdvisorRecords(what: AdvisorRecords & { force?: boolean }): Promise<void> {
    if (!this.online() || !(await this.signedInHere())) return;
    const due = what.force ? what : await advisorRecordsDue(this.db, what, this.now());
    const priority = 'interactive' as const;
    if (due.stats) await this.pulls.run(null, () => this.pull.pullStats({ ...due.stats, priority }));
    if (due.feed) await this.pulls.run(null, () => this.pull.pullUserActivity({ priority }));
  }

  /**
   * The advisor reached the end of the activity stored here, the feed's or an account's
   * (`accountId`): one older page (of `type`, when the screen filters by it) at interactive
   * priority. `offline`: not asked (no network, or not signed in here); `end`: the platform has
   * nothing older; `more`: a page arrived, and more may follow; `failed`: asked, and it did not
   * come (the report's failures say why).
   */
  async olderActivity(what: { type?: string; accountId?: string }): Promise<OlderActivity> {
    if (!this.online() || !(await this.signedInHere())) return 'offline';
    const options = { ...(what.type ? { type: what.type } : {}), priority: 'interactive' as const };
    const { accountId } = what;
    const report = await this.pulls.run(null, () =>
      accountId === undefined
        ? this.pull.pullOlderUserActivity(options)
        : this.pull.pullOlderAccountActivity(accountId, options),
    );
    if (report.failures.length > 0 || report.teamMoved !== undefined || report.stopped) return 'failed';
    return report.olderEnd ? 'end' : 'more';
  }

  private async pullAccount(localId: string, verb: string): Promise<PullReport> {
    if (!this.online() || !(await this.signedInHere())) return { ...emptyReport(), skipped: true };
    const account = await this.db.accounts.get(localId);
    const label = `${verb} ${accountLabel(account)}`;
    return this.pulls.run({ label, accountId: localId }, (onProgress) =>
      this.countedPull(localId, onProgress),
    );
  }

  /** One account pulled whole at interactive priority, its requests answered of sent as its progress. */
  private async countedPull(localId: string, onProgress: (p: PullProgress) => void): Promise<PullReport> {
    const serverId = (await this.db.accounts.get(localId))?.serverId;
    const stop =
      typeof serverId === 'number' ? this.answers.countAccount(serverId, 'interactive', onProgress) : null;
    return this.pull.pullAccount(localId, { priority: 'interactive' }).finally(() => stop?.());
  }

  /** A household for a meeting: pulled whole, then its questionnaires (meeting-engagements.ts). */
  async preparedPull(localId: string, onProgress: (p: PullProgress) => void): Promise<PullReport> {
    const report = await this.countedPull(localId, onProgress);
    if (report.failures.length === 0 && !report.stopped)
      addReport(report, await pullMeetingEngagements(this.db, this.pull, localId));
    return report;
  }

  /**
   * The account pulled again after a close, and which of its parts the answers changed kept for
   * its workspace (coordinator/closed-answers.ts); nothing is kept when the pull did not arrive whole.
   */
  async pullClosedAnswers(localId: string, engagementId: string): Promise<void> {
    const before = await answerDigest(this.db, localId);
    const report = await this.pullAccount(localId, 'Answers of a closed questionnaire:');
    if (report.skipped || report.stopped || report.failures.length > 0) return;
    const parts = changedParts(before, await answerDigest(this.db, localId));
    await recordClosedAnswers(this.db, localId, engagementId, parts, this.now());
  }

  // ---- Engagements, on demand (the team's list also in the background; never every one's outputs) ----

  /** A household's engagements: its list, one request (the largest page the platform takes). */
  async pullEngagementsOf(localId: string): Promise<PullReport> {
    if (!this.online() || !(await this.signedInHere())) return { ...emptyReport(), skipped: true };
    return this.pull.pullEngagements({ accountId: localId, priority: 'interactive' });
  }

  /**
   * The team's engagements, when the Engagements area opens: what was sent or completed since
   * the last pull (two requests), every page when a sweep is due or `full` asks for one
   * (pull/engagement-list.ts).
   */
  async pullTeamEngagements(options: { full?: boolean; sweepAfterMs?: number } = {}): Promise<PullReport> {
    if (!this.online() || !(await this.signedInHere())) return { ...emptyReport(), skipped: true };
    return this.pull.pullEngagements({ ...options, priority: 'interactive' });
  }

  /**
   * One engagement opened: it, its documents, signatures and history, and its answers once
   * completed (4 requests, 5 when completed).
   */
  async openEngagement(id: string): Promise<PullReport> {
    if (!this.online() || !(await this.signedInHere())) return { ...emptyReport(), skipped: true };
    return this.pull.pullEngagement(id, { priority: 'interactive' });
  }

  /** Forms (0.0.1): every one of the user (`/user/forms`), or one household's; one request. */
  async pullFormsOf(localId?: string): Promise<PullReport> {
    if (!this.online() || !(await this.signedInHere())) return { ...emptyReport(), skipped: true };
    return this.pull.pullForms({ ...(localId ? { accountId: localId } : {}), priority: 'interactive' });
  }

  /** The team's report list (the Reports area, opened online), one request; skipped offline. */
  async pullReportList(): Promise<PullReport> {
    if (!this.online() || !(await this.signedInHere())) return { ...emptyReport(), skipped: true };
    return this.pull.pullReports({ priority: 'interactive' });
  }
}
