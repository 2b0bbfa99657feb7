// The pulls a screen asks for (sync/coordinator/on-demand.ts, preparation.ts), run by the window's
// coordinator as writes to the local store: a storage failure while keeping what arrived (a full
// disk …) shows in the sync status in plain words (the sync store's `save`). Most are skipped
// offline; each resolves with what it pulled.

import type { OlderActivity, SyncCoordinator } from '../sync/coordinator/index.ts';
import type { PullReport } from '../sync/pull/index.ts';
import { useSyncStore } from './sync.ts';

function pulled<T>(pull: (coordinator: SyncCoordinator) => Promise<T>): Promise<T> {
  const sync = useSyncStore();
  return sync.save(() => pull(sync.coordinator()));
}

/** The user opens an account: it counts as recently opened, and is pulled before anything else. */
export const openAccount = (localId: string): Promise<PullReport> => pulled((c) => c.openAccount(localId));

/** An account kept on this computer (pulled now, then in the background), or no longer. */
export const setAvailableOffline = (localId: string, on: boolean): Promise<PullReport | null> =>
  pulled((c) => c.setAvailableOffline(localId, on));

/** The forms (0.0.1) of the team, or of one household, from the platform (one request; online only). */
export const pullForms = (localId?: string): Promise<PullReport> => pulled((c) => c.pullFormsOf(localId));

/** A household's questionnaires, one request; skipped offline. */
export const pullEngagementsOf = (localId: string): Promise<PullReport> =>
  pulled((c) => c.pullEngagementsOf(localId));

/** The platform's report list (the Reports area), one request; skipped offline. */
export const pullReportList = (): Promise<PullReport> => pulled((c) => c.pullReportList());

/**
 * The team's questionnaires (the Engagements area): what is new since the last pull, every page
 * when a sweep is due (`sweepAfterMs`, else the sync's interval) or `full` asks for one; skipped
 * offline.
 */
export const pullTeamEngagements = (
  options: { full?: boolean; sweepAfterMs?: number } = {},
): Promise<PullReport> => pulled((c) => c.pullTeamEngagements(options));

/** One questionnaire opened: its answers, documents, signatures and history; skipped offline. */
export const openEngagement = (id: string): Promise<PullReport> => pulled((c) => c.openEngagement(id));

/**
 * The feed and the statistics in `range` pulled now (Home, Activity) when older than a few
 * minutes, or whatever their age with `force` (a Refresh); nothing offline.
 */
export const refreshAdvisorRecords = (what: {
  feed?: boolean;
  stats?: { start: string; end: string };
  force?: boolean;
}): Promise<void> => pulled((c) => c.refreshAdvisorRecords(what));

/** One page of the feed's or an account's activity older than what is stored ("Load older"). */
export const olderActivity = (what: { type?: string; accountId?: string }): Promise<OlderActivity> =>
  pulled((c) => c.olderActivity(what));

/** Prepares households for a meeting: kept offline, pulled whole one after another, with progress. */
export const prepareForMeeting = (localIds: readonly string[]): Promise<void> =>
  pulled((c) => c.prepareForMeeting(localIds));

/** A household whose preparation failed is tried again. */
export const retryPreparation = (localId: string): Promise<void> =>
  pulled((c) => c.retryPreparation(localId));

/** The households prepared (ready or failed) leave the list: the preparation ends. */
export const clearPrepared = (): Promise<void> => pulled((c) => c.clearPrepared());
