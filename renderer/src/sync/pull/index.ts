// Pulls from the platform into the local store within the request budget (DESIGN.md §3, "Pull and
// the request budget"). The engine is a facade over one module per idea, beside it:
// - the account list (account-list.ts) and the advisor's feed (feed.ts), both incremental by a
//   watermark with a periodic sweep (watermark.ts), paged with the largest page (paging.ts);
// - one account's details and sections (account-data.ts, account-parts.ts), its read-only extras
//   (account-extras.ts), and the accounts kept offline (offline-accounts.ts);
// - engagements (engagements.ts), forms, reports and statistics (user-records.ts), configuration
//   (config.ts) and the section forms' allowed values (definitions.ts).
// Every snapshot goes through `applySnapshots` (snapshots.ts), so a pull never overwrites a
// pending local change. The read-only records have no outbox: a pull stores what the server
// listed and removes what it no longer has.

import type { Priority } from '@shared/api/request.ts';
import type { AdvisorDb } from '../../data/db.ts';
import { pullAccountData } from './account-data.ts';
import { pullAccountActivity, pullOlderAccountActivity, pullAccountExtras } from './account-extras.ts';
import { pullAccountList } from './account-list.ts';
import { pullConfig } from './config.ts';
import { pullDefinitions } from './definitions.ts';
import { PullStopped, type PullContext } from './context.ts';
import { pullEngagements, type EngagementListOptions } from './engagement-list.ts';
import { pullEngagement } from './engagements.ts';
import { pullOlderUserActivity, pullUserActivity } from './feed.ts';
import { RECENT_ACCOUNTS, pullOfflineAccounts, type OfflineAccountsOptions } from './offline-accounts.ts';
import { PAGE_SIZES } from './paging.ts';
import { emptyReport, type PullProgress, type PullReport } from './report.ts';
import { pullForms, pullReports, pullStats } from './user-records.ts';
import type { Send } from '../send.ts';
import { TeamWatch } from '../team.ts';

export { ACCOUNT_LIST_STATE, type AccountListState } from './account-list.ts';
export { CONFIG_STATE } from './config.ts';
export { DEFINED_ENTITIES, DEFINITIONS_STATE } from './definitions.ts';
export { ENGAGEMENT_LIST_STATE, type EngagementListState } from './engagement-list.ts';
export { USER_ACTIVITY_STATE, type UserActivityState } from './feed.ts';
export { PAGE_SIZES, PAGE_SIZES_STATE, PAGE_SIZE_REFUSED_STATE } from './paging.ts';
export { emptyReport, type PullFailure, type PullProgress, type PullReport } from './report.ts';
export { applySnapshots, type SnapshotUpdate } from './snapshots.ts';
export type { OfflineAccountsOptions } from './offline-accounts.ts';

export interface PullEngineOptions {
  db: AdvisorDb;
  send: Send;
  /**
   * The signal of the session pulls run for, read when each pull starts: aborted (sign-out), every
   * pull of that session stops at once and writes nothing more (its report says `stopped`).
   */
  session?: () => AbortSignal | undefined;
  now?: () => number;
  /** Page sizes tried for the account list, largest first (the largest accepted is not published). */
  pageSizes?: readonly number[];
  /** A full sweep of the account list (to notice remote deletions) at least this often. Default 24 h. */
  sweepIntervalMs?: number;
  /** Configuration is pulled again after this long. Default 24 h. */
  configMaxAgeMs?: number;
  /** How many recently opened accounts `pullOfflineAccounts` keeps fresh. Default 10. */
  recentAccounts?: number;
  /** Accounts missing from a sweep that are confirmed (one request each) per sweep. Default 50. */
  deletionChecks?: number;
  /** Which team the platform has current (shared with the push); default: the engine's own. */
  team?: TeamWatch;
}

const DAY_MS = 24 * 60 * 60_000;

type ListOptions = { full?: boolean; priority?: Priority; onProgress?: (p: PullProgress) => void };

export class PullEngine {
  private readonly base: Omit<PullContext, 'signal'>;
  private readonly session: () => AbortSignal | undefined;
  private readonly accountPulls = new Map<string, { priority: Priority; done: Promise<PullReport> }>();

  constructor(options: PullEngineOptions) {
    this.session = options.session ?? (() => undefined);
    this.base = {
      db: options.db,
      send: options.send,
      now: options.now ?? Date.now,
      pageSizes: options.pageSizes?.length ? [...options.pageSizes] : PAGE_SIZES,
      sweepIntervalMs: options.sweepIntervalMs ?? DAY_MS,
      configMaxAgeMs: options.configMaxAgeMs ?? DAY_MS,
      recentAccounts: options.recentAccounts ?? RECENT_ACCOUNTS,
      deletionChecks: options.deletionChecks ?? 50,
      team: options.team ?? new TeamWatch(options.db, options.send),
    };
  }

  /**
   * Runs one pull in the current session: stopped by its end, it answers a report that says so
   * instead of throwing (what it wrote before stays; nothing after).
   */
  private async run(pull: (ctx: PullContext) => Promise<PullReport>): Promise<PullReport> {
    const ctx: PullContext = { ...this.base, signal: this.session() };
    try {
      return await pull(ctx);
    } catch (error) {
      if (error instanceof PullStopped) return { ...emptyReport(), stopped: true };
      throw error;
    }
  }

  /** The account list, newest change first, incremental with a sweep that notices remote deletions. */
  pullAccountList(options: ListOptions = {}): Promise<PullReport> {
    return this.run((ctx) => pullAccountList(ctx, options));
  }

  /**
   * One account with its details, sections and read-only extras (account-data.ts). Concurrent
   * pulls of one account share one run, unless the new one is interactive and the running one is not.
   */
  pullAccount(localId: string, options: { priority?: Priority } = {}): Promise<PullReport> {
    const priority = options.priority ?? 'background';
    const running = this.accountPulls.get(localId);
    if (running && (running.priority === priority || priority === 'background')) return running.done;
    const done = this.run((ctx) => pullAccountData(ctx, localId, priority)).finally(() => {
      if (this.accountPulls.get(localId)?.done === done) this.accountPulls.delete(localId);
    });
    this.accountPulls.set(localId, { priority, done });
    return done;
  }

  /** The accounts kept offline, favorites and recently opened ones, in the background. */
  pullOfflineAccounts(options: OfflineAccountsOptions = {}): Promise<PullReport> {
    return this.run((ctx) =>
      pullOfflineAccounts(ctx, (id) => this.pullAccount(id, { priority: 'background' }), options),
    );
  }

  /** Configuration, when older than `configMaxAgeMs` or `force`d. */
  pullConfig(options: { force?: boolean; priority?: Priority } = {}): Promise<PullReport> {
    return this.run((ctx) => pullConfig(ctx, options));
  }

  /**
   * The section forms' allowed values (`/define`), on the configuration's schedule (older than
   * `configMaxAgeMs`, or `force`d); skipped while no account of this store is on the platform.
   */
  pullDefinitions(options: { force?: boolean; priority?: Priority } = {}): Promise<PullReport> {
    return this.run((ctx) => pullDefinitions(ctx, options));
  }

  /** An account's member security, profile values and newest activity, on their own. */
  pullAccountExtras(localId: string, options: { priority?: Priority } = {}): Promise<PullReport> {
    return this.run((ctx) => pullAccountExtras(ctx, localId, options));
  }

  /** An account's activity, `pages` pages of it (default all). */
  pullAccountActivity(
    localId: string,
    options: { pages?: number; priority?: Priority } = {},
  ): Promise<PullReport> {
    return this.run((ctx) => pullAccountActivity(ctx, localId, options));
  }

  /** The engagement list, an account's (one request) or the team's (incremental, a sweep when due). */
  pullEngagements(options: EngagementListOptions = {}): Promise<PullReport> {
    return this.run((ctx) => pullEngagements(ctx, options));
  }

  /** One engagement and its outputs, when it is opened. */
  pullEngagement(id: string, options: { priority?: Priority } = {}): Promise<PullReport> {
    return this.run((ctx) => pullEngagement(ctx, id, options));
  }

  /** Forms, an account's or the user's. */
  pullForms(options: { accountId?: string; priority?: Priority } = {}): Promise<PullReport> {
    return this.run((ctx) => pullForms(ctx, options));
  }

  /** The metadata of the user's reports. */
  pullReports(options: { priority?: Priority } = {}): Promise<PullReport> {
    return this.run((ctx) => pullReports(ctx, options));
  }

  /** The advisor's feed, incremental with a sweep, as the account list. */
  pullUserActivity(options: ListOptions = {}): Promise<PullReport> {
    return this.run((ctx) => pullUserActivity(ctx, options));
  }

  /** One page of an account's activity older than the entries stored here (of one type when asked). */
  pullOlderAccountActivity(
    localId: string,
    options: { type?: string; priority?: Priority } = {},
  ): Promise<PullReport> {
    return this.run((ctx) => pullOlderAccountActivity(ctx, localId, options));
  }

  /** One page of the advisor's feed older than the entries stored here (of one type when asked). */
  pullOlderUserActivity(options: { type?: string; priority?: Priority } = {}): Promise<PullReport> {
    return this.run((ctx) => pullOlderUserActivity(ctx, options));
  }

  /** The advisor's statistics for a range of days. */
  pullStats(options: { start?: string; end?: string; priority?: Priority } = {}): Promise<PullReport> {
    return this.run((ctx) => pullStats(ctx, options));
  }
}
