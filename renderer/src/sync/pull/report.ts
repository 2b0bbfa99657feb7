// What one pull did, counted as it goes: requests sent (probes and failures included) against
// records received, rows written and removed, and the requests that failed.

import type { ApiErrorKind, ApiResult } from '@shared/api/request.ts';

export interface PullFailure {
  path: string;
  kind: ApiErrorKind | 'unreadable';
  status: number | null;
  message: string;
}

/** What one pull did: requests sent (probes and failures included) against records received. */
export interface PullReport {
  requests: number;
  /** Server records received (accounts, items, single sections, member details). */
  records: number;
  /** Local rows created or changed. */
  written: number;
  /** Local rows removed because the server no longer has them. */
  removed: number;
  /** Rows gone from the server but kept, flagged `deletedOnServer`, because changes are pending here. */
  flagged: number;
  /** True when nothing was asked because the data was fresh enough. */
  skipped: boolean;
  failures: PullFailure[];
  /** The session ended (sign-out) during the pull: it stopped there and wrote nothing more. */
  stopped?: true;
  /**
   * The platform's current team when it was found not to be the store's (switched on another
   * device): what the pull read was that team's, and none of it was written (sync/team.ts).
   */
  teamMoved?: number;
  /** A pull of one older page (feed.ts `pullOlderUserActivity`): nothing older is left to ask for. */
  olderEnd?: true;
}

export interface PullProgress {
  done: number;
  /** Null while the total is unknown (an incremental pull stops before the end of the list). */
  total: number | null;
}

export const emptyReport = (): PullReport => ({
  requests: 0,
  records: 0,
  written: 0,
  removed: 0,
  flagged: 0,
  skipped: false,
  failures: [],
});

export function addReport(into: PullReport, from: PullReport): void {
  into.requests += from.requests;
  into.records += from.records;
  into.written += from.written;
  into.removed += from.removed;
  into.flagged += from.flagged;
  into.failures.push(...from.failures);
  if (from.stopped) into.stopped = true;
  if (from.teamMoved !== undefined) into.teamMoved = from.teamMoved;
}

/** Records a failed request in the report; null, for the caller to return. */
export function failed(report: PullReport, path: string, result: ApiResult): null {
  if (!result.ok)
    report.failures.push({ path, kind: result.kind, status: result.status, message: result.message });
  return null;
}

/** Records an answer of an unexpected shape in the report; null, for the caller to return. */
export function unreadable(report: PullReport, path: string): null {
  report.failures.push({
    path,
    kind: 'unreadable',
    status: null,
    message: 'The platform answered in an unexpected shape.',
  });
  return null;
}
