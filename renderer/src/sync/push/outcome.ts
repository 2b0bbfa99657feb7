// How the push classifies every answer (DESIGN.md §3, the table under Push), in ONE table
// (VERDICTS): what sending one operation came to, and what the engine does with each failure.

import type { ApiErrorKind, ApiFailure, ApiRequest } from '@shared/api/request.ts';
import type { ConflictRow, Operation, OperationError } from '../../data/model.ts';
import type { Snapshot } from '../requests.ts';
import type { Pass } from './pass.ts';

export type Verdict = 'retry' | 'sign-in' | 'rejected' | 'deleted-on-server' | 'gone';

/** What the engine does with each kind of failure (DESIGN.md §3, the table under Push). */
const VERDICTS: Record<ApiErrorKind, Verdict | ((op: Operation) => Verdict)> = {
  network: 'retry',
  timeout: 'retry',
  'rate-limited': 'retry',
  server: 'retry',
  unavailable: 'retry',
  // The transport has already tried a refresh: only signing in again helps, for every operation.
  auth: 'sign-in',
  forbidden: 'rejected',
  validation: 'rejected',
  // A delete that finds nothing has what the user wanted: "recreate or discard?" would offer no
  // real choice about a record they chose to delete. A create, an upload, a file removal or a PIN
  // reset meets 404 only when its account, member or item is gone, which sending again cannot
  // cure, and they hold nothing to recreate the record from.
  // A close or reopen of an engagement (a resend or close of a form) deleted meanwhile has nothing
  // left to change.
  'not-found': (op) =>
    ['delete', 'closeEngagement', 'reopenEngagement', 'resendForm', 'closeForm'].includes(op.kind)
      ? 'gone'
      : op.kind === 'update'
        ? 'deleted-on-server'
        : 'rejected',
};

export function verdictOf(op: Operation, failure: ApiFailure): Verdict {
  const entry = VERDICTS[failure.kind];
  return typeof entry === 'function' ? entry(op) : entry;
}

/**
 * Failures after which a write may have been applied: no answer, or a 5xx the server may have
 * given after committing. An operation that met one stays `inflight` (uncertain): nothing is
 * merged into it, and a create is looked for on the server before it is sent again. 429 and 503
 * are refusals before any work, so they leave the operation certain.
 */
const UNCERTAIN: ReadonlySet<ApiErrorKind> = new Set(['network', 'timeout', 'server']);

export type Outcome =
  /** `effects`: fields the write changed on the server besides those it sent (a conversion moves the stage). */
  | { type: 'done'; raw: Snapshot; adopted: boolean; effects?: readonly string[] }
  | { type: 'gone' }
  | { type: 'conflict'; raw: Snapshot; fields: ConflictRow['fields'] }
  /**
   * `teamAsked`: the platform's team was asked already (a pull that found the record gone had it
   * confirmed; or asking failed, and that failure is the outcome): settle does not ask again.
   * `uncertain`: the write may have landed, in this try or an earlier unanswered one. An operation
   * that was uncertain stays so until an answer or the lookup settles it: a failure before anything
   * was sent (a read, the team check) leaves it as it was, or its create would go again unlooked-for.
   */
  | { type: 'failed'; failure: ApiFailure; uncertain: boolean; teamAsked?: boolean }
  | { type: 'wait' };

/** A failure found here rather than answered by the platform. */
export const failure = (kind: ApiErrorKind, message: string, status: number | null = null): ApiFailure => ({
  ok: false,
  kind,
  status,
  message,
  fields: {},
  retryAfterMs: null,
});

export const goneFromServer = () => failure('not-found', 'The record was deleted on the server.', 404);

export const errorOf = (f: ApiFailure): OperationError => ({
  kind: f.kind,
  status: f.status,
  message: f.message,
  fields: f.fields,
});

/** A failed write: the pass forgets what it read of that record, since the write may have landed. */
export function failedWrite(failure: ApiFailure, uncertain: boolean, pass: Pass, read: ApiRequest): Outcome {
  const landed = UNCERTAIN.has(failure.kind);
  if (landed) pass.forget(read);
  return { type: 'failed', failure, uncertain: uncertain || landed };
}

/** An operation that cannot be sent as it is: refused here, as the platform would refuse it. */
export function refuse(message: string): Outcome {
  return { type: 'failed', failure: failure('validation', message), uncertain: false };
}
