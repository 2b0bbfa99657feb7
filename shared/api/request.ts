// What the renderer may ask of either interface, and the one result type every answer comes back
// as. Both sides import this: the main-process transport builds results, the renderer reads them.

export type ApiName = 'v2' | 'v0';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * The order requests wait for the budget in: `immediate` is one action the user just took and
 * waits on (a delete, a team switch), ahead of the many requests of an `interactive` read (an
 * account opened: about twenty); then uploads, then background pulls.
 */
export type Priority = 'immediate' | 'interactive' | 'upload' | 'background';
export const PRIORITIES: readonly Priority[] = ['immediate', 'interactive', 'upload', 'background'];

/**
 * The priority a request waits with, however it came (over the bridge, from the renderer's lanes):
 * none is interactive, an unknown one background. The transport and the preview's bridge lanes
 * both read it so, and must agree: a lane that ranked a request otherwise than the budget does
 * would hold back the very request the budget lets go first.
 */
export const priorityOf = (value: unknown): Priority =>
  value === undefined
    ? 'interactive'
    : PRIORITIES.includes(value as Priority)
      ? (value as Priority)
      : 'background';

export interface UploadFile {
  /** Multipart field name (`file` for every upload of the 0.0.1 interface). */
  field: string;
  name: string;
  type: string;
  bytes: Uint8Array;
}

export interface ApiRequest {
  api: ApiName;
  method: HttpMethod;
  /** Path below the interface's base, starting with `/` (`/accounts/12`). */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  /** JSON body; with `files`, its top-level fields become multipart fields. */
  body?: unknown;
  files?: UploadFile[];
  priority?: Priority;
  /** Defaults to 30 s; uploads may need more. */
  timeoutMs?: number;
}

/** The kinds of failure every request is answered with, one of them. */
export const API_ERROR_KINDS = [
  'network',
  'timeout',
  'auth',
  'forbidden',
  'not-found',
  'validation',
  'rate-limited',
  'server',
  'unavailable',
] as const;
export type ApiErrorKind = (typeof API_ERROR_KINDS)[number];

export interface ApiSuccess<T = unknown> {
  ok: true;
  status: number;
  data: T;
}

export interface ApiFailure {
  ok: false;
  kind: ApiErrorKind;
  /** HTTP status, or null when no answer arrived. */
  status: number | null;
  /** The server's message, or ours in plain words when there was none. */
  message: string;
  /** Validation messages by field (`client.email`, `current-value` …), from either error body. */
  fields: Record<string, string[]>;
  /** When to try again, from Retry-After or our own estimate; null when retrying will not help. */
  retryAfterMs: number | null;
  /**
   * For a `network` failure, what the error showed of this computer's network: `down` when it has
   * no way out (no route, no name server answers), `up` when something on the way answered (the
   * connection was refused or cut, a certificate was shown) and only the platform did not. Absent
   * when it cannot be told (a timeout, an unknown error).
   */
  network?: 'down' | 'up';
}

export type ApiResult<T = unknown> = ApiSuccess<T> | ApiFailure;

/** Failures worth retrying later with the same request. */
export function isRetryable(failure: ApiFailure): boolean {
  return failure.retryAfterMs !== null;
}
