// The sync's reports for the diagnostics log: each pull the coordinator runs (what, for which
// account id, how long, its counts and failures by route) and each push pass and queued change
// (ids, outcome, failure kind and status). Built here from named fields only, never from a
// record's content or the platform's messages, and sent through the Bridge's `diagnostics.report`,
// whose schema admits nothing else.

import { API_ERROR_KINDS, type ApiErrorKind } from '@shared/api/request.ts';
import { routeOf } from '@shared/api/route.ts';
import type { DiagnosticsEntry } from '@shared/bridge-schema.ts';
import type { PullEngine, PullReport } from './pull/index.ts';
import type { PushEngine, PushEvent } from './push/index.ts';

/** The port to the log: `bridge().diagnostics.report` in the app. */
export type SyncDiagnostics = (entry: DiagnosticsEntry) => unknown;

/** The pulls the coordinator runs, each reported when it ends. */
export type ReportedPulls = Pick<
  PullEngine,
  | 'pullConfig'
  | 'pullDefinitions'
  | 'pullAccountList'
  | 'pullOfflineAccounts'
  | 'pullAccount'
  | 'pullEngagements'
  | 'pullEngagement'
  | 'pullUserActivity'
  | 'pullOlderUserActivity'
  | 'pullOlderAccountActivity'
  | 'pullStats'
  | 'pullForms'
  | 'pullReports'
>;

type PullName = Extract<DiagnosticsEntry, { type: 'pull' }>['pull'];
type Failure = { kind: ApiErrorKind | 'unreadable'; status: number | null };

const FAILURE_KINDS: readonly string[] = [...API_ERROR_KINDS, 'unreadable'] satisfies Failure['kind'][];

/** The engine's pulls, timed and reported (the engine itself when there is no log). */
export function reportingPulls(
  engine: PullEngine,
  report: SyncDiagnostics | undefined,
  now: () => number = () => performance.now(),
): ReportedPulls {
  if (!report) return engine;
  const timed = async (pull: PullName, accountId: string | null, run: () => Promise<PullReport>) => {
    const started = now();
    const result = await run();
    deliver(report, pullEntry(pull, accountId, result, now() - started));
    return result;
  };
  return {
    pullConfig: (options) => timed('config', null, () => engine.pullConfig(options)),
    pullDefinitions: (options) => timed('definitions', null, () => engine.pullDefinitions(options)),
    pullAccountList: (options) => timed('account-list', null, () => engine.pullAccountList(options)),
    pullOfflineAccounts: (options) =>
      timed('offline-accounts', null, () => engine.pullOfflineAccounts(options)),
    pullAccount: (localId, options) => timed('account', localId, () => engine.pullAccount(localId, options)),
    pullEngagements: (options = {}) =>
      timed('engagements', options.accountId ?? null, () => engine.pullEngagements(options)),
    // An engagement's id is the platform's, which the log does not need: the pull's counts say enough.
    pullEngagement: (id, options) => timed('engagement', null, () => engine.pullEngagement(id, options)),
    pullUserActivity: (options) => timed('feed', null, () => engine.pullUserActivity(options)),
    pullOlderUserActivity: (options) => timed('feed', null, () => engine.pullOlderUserActivity(options)),
    pullOlderAccountActivity: (localId, options) =>
      timed('account', localId, () => engine.pullOlderAccountActivity(localId, options)),
    pullStats: (options) => timed('stats', null, () => engine.pullStats(options)),
    pullForms: (options = {}) => timed('forms', options.accountId ?? null, () => engine.pullForms(options)),
    pullReports: (options) => timed('reports', null, () => engine.pullReports(options)),
  };
}

/** Reports the push's passes that sent something and what became of each change; returns the unsubscribe. */
export function reportPushes(push: PushEngine, report: SyncDiagnostics | undefined): () => void {
  if (!report) return () => undefined;
  return push.onEvent((event) => {
    const entry = pushEntry(event);
    if (entry) deliver(report, entry);
  });
}

export function pullEntry(
  pull: PullName,
  accountId: string | null,
  report: PullReport,
  durationMs: number,
): DiagnosticsEntry {
  return {
    type: 'pull',
    pull,
    ...(accountId ? { accountId } : {}),
    durationMs: Math.max(0, Math.round(durationMs)),
    requests: report.requests,
    records: report.records,
    written: report.written,
    removed: report.removed,
    flagged: report.flagged,
    skipped: report.skipped,
    failures: report.failures.slice(0, 50).map((f) => ({
      route: routeOf(f.path),
      ...failureOf(f),
    })),
  };
}

export function pushEntry(event: PushEvent): DiagnosticsEntry | null {
  switch (event.type) {
    case 'pass': {
      const { requests, synced, adopted, retried, rejected, conflicts, remaining, needsSignIn } =
        event.report;
      // The loop passes often with nothing to send: only passes that spoke to the platform count.
      if (requests === 0) return null;
      return {
        type: 'push',
        requests,
        synced,
        adopted,
        retried,
        rejected,
        conflicts,
        remaining,
        needsSignIn,
      };
    }
    case 'synced':
      return change(event, event.adopted ? 'adopted' : 'synced');
    case 'retry':
      return { ...change(event, 'retry'), failure: failureOf(event.error) };
    case 'rejected':
      return { ...change(event, 'rejected'), failure: failureOf(event.error) };
    case 'conflict':
      return change(event, event.deletedOnServer ? 'deleted-on-server' : 'conflict');
    default:
      // `needs-sign-in` and `error` carry words only: the transport's failures are logged main-side.
      return null;
  }
}

type Outcome = Extract<DiagnosticsEntry, { type: 'change' }>['outcome'];

function change(
  event: Extract<PushEvent, { opId: string }>,
  outcome: Outcome,
): Extract<DiagnosticsEntry, { type: 'change' }> {
  return { type: 'change', outcome, table: event.table, opId: event.opId, recordId: event.recordId };
}

/** Kind and status only: the platform's message may repeat what the user typed. */
function failureOf(error: { kind: string; status: number | null }): Failure {
  const status =
    typeof error.status === 'number' && error.status >= 100 && error.status <= 599 ? error.status : null;
  return {
    kind: FAILURE_KINDS.includes(error.kind) ? (error.kind as Failure['kind']) : 'unreadable',
    status,
  };
}

/** The log must never slow or break the sync: sent without waiting, failures dropped. */
function deliver(report: SyncDiagnostics, entry: DiagnosticsEntry): void {
  void Promise.resolve()
    .then(() => report(entry))
    .catch(() => undefined);
}
