// Every way a request can fail, turned into the one ApiFailure shape: the kind the sync engine
// classifies by (DESIGN.md §3, Push), the server's message or ours in plain words, the field
// messages of either interface's error body, and when it is worth trying again.

import type { ApiErrorKind, ApiFailure } from '@shared/api/request.ts';
import { isPlainObject } from '@shared/is-plain-object.ts';
import { AnyErrorBody } from '@shared/wire/errors.ts';

/** Our own estimate of when to try again, when the platform does not say (Retry-After). */
export const DEFAULT_RETRY_MS = {
  network: 5_000,
  timeout: 10_000,
  'rate-limited': 30_000,
  server: 10_000,
  unavailable: 30_000,
} as const;

/** A Retry-After longer than this is taken as this: a broken header must not stall an interface for days. */
export const MAX_RETRY_AFTER_MS = 60 * 60_000;

const MAX_MESSAGE = 500;
const MAX_FIELDS = 200;
const MAX_MESSAGES_PER_FIELD = 20;

export type HeadersLike = Headers | Record<string, string | string[] | undefined> | null | undefined;

/** What came back from the platform, as far as a failure cares. */
export interface HttpAnswer {
  status: number;
  headers?: HeadersLike;
  /** The body as text (anything else is tolerated and read as best it can be). */
  body?: unknown;
}

const PLAIN: Record<ApiErrorKind, string> = {
  network: 'The platform could not be reached. Check the network connection.',
  timeout: 'The platform did not answer in time.',
  auth: 'Your sign-in is no longer valid. Sign in again.',
  forbidden: 'You do not have the permission needed for this action.',
  'not-found': 'The platform has no such record; it may have been deleted.',
  validation: 'The platform refused the data. Check the fields and try again.',
  'rate-limited': 'Too many requests were sent to the platform; waiting before sending more.',
  server: 'The platform met a problem. It will be tried again later.',
  unavailable:
    'The platform is temporarily unavailable, perhaps for maintenance. It will be tried again later.',
};

const PLAIN_BY_STATUS: Record<number, string> = {
  400: 'The platform could not read the request.',
  405: 'The platform does not allow this action on this record.',
  410: 'The record no longer exists on the platform.',
  413: 'The data or file is too large for the platform.',
  415: 'The platform does not accept this kind of content.',
};

/**
 * The kind of a failed answer, from its status.
 *
 * 400, 413 and 415 are `validation` along with 422: each says the request as we built it is
 * refused (unreadable JSON, a body or file over the size limit, a content type the platform does
 * not take). Sending the same request again cannot succeed, so like a 422 it is shown to the user
 * with the record instead of being retried. Other 4xx statuses (409, 412 …) are treated the same
 * way; 408 (the server gave up waiting for our request) is a `timeout` and is retried.
 * Statuses outside 4xx/5xx (a redirect we do not follow, a malformed status) are `server`.
 */
export function kindOfStatus(status: number): ApiErrorKind {
  switch (status) {
    case 401:
      return 'auth';
    case 403:
      return 'forbidden';
    case 404:
    case 405:
    case 410:
      return 'not-found';
    case 408:
      return 'timeout';
    case 429:
      return 'rate-limited';
    case 503:
      return 'unavailable';
  }
  if (status >= 400 && status < 500) return 'validation';
  return 'server';
}

/** Reads one header from a Headers object or a plain record, case-insensitively; never throws. */
export function headerOf(headers: HeadersLike, name: string): string | null {
  try {
    if (!headers || typeof headers !== 'object') return null;
    if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name);
    const wanted = name.toLowerCase();
    for (const [key, value] of Object.entries(headers)) {
      if (key.toLowerCase() !== wanted) continue;
      const first: unknown = Array.isArray(value) ? value[0] : value;
      return typeof first === 'string' ? first : null;
    }
  } catch {
    // A header object that throws is as good as no header.
  }
  return null;
}

/** Retry-After as milliseconds from `now`: delay-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (text === '') return null;
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(text)) ms = Math.ceil(Number(text) * 1000);
  else if (/[a-z]/i.test(text)) ms = Date.parse(text) - now;
  else return null;
  if (!Number.isFinite(ms)) return null;
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, ms));
}

export interface ErrorBody {
  /** The server's own message, cleaned up; null when it gave none. */
  message: string | null;
  fields: Record<string, string[]>;
}

/**
 * Reads either interface's error body, and tolerates anything else (HTML, plain text, empty,
 * wrong types):
 * - version 2 (Laravel style): `{"message": "…", "errors": {"client.email": ["…"]}}`
 * - version 0.0.1: `{"status": "Unprocessable Entity", "code": 422, "messages": "…" | ["<field> is required.", …]}`,
 *   where the field of each message is its first word (`current-value`, `client.first_name`).
 */
export function parseErrorBody(body: unknown): ErrorBody {
  const empty: ErrorBody = { message: null, fields: {} };
  try {
    const data = typeof body === 'string' ? parseJson(body) : body;
    if (data === NOT_JSON) return { message: plainTextMessage(body as string), fields: {} };
    if (typeof data === 'string') return { message: clean(data), fields: {} };
    if (Array.isArray(data)) return fromMessageList(data);
    const read = AnyErrorBody.safeParse(data);
    if (!read.success) return empty;
    // The body as received (the schema's copy would drop a field named `__proto__`).
    const received = data as AnyErrorBody;

    const fields = new Map<string, string[]>();
    if (isPlainObject(received.errors)) {
      for (const [field, value] of Object.entries(received.errors)) {
        for (const text of stringsOf(value)) addField(fields, field, text);
      }
    } else if (Array.isArray(received.errors)) {
      for (const text of stringsOf(received.errors)) addField(fields, fieldOf(text), text);
    }
    const list = Array.isArray(received.messages) ? stringsOf(received.messages) : [];
    for (const text of list) addField(fields, fieldOf(text), text);

    const nested = isPlainObject(received.error) ? received.error.message : undefined;
    const message =
      clean(received.message) ??
      clean(typeof received.messages === 'string' ? received.messages : undefined) ??
      clean(list.join(' ')) ??
      clean(received.error_description) ??
      clean(nested) ??
      clean(received.detail) ??
      clean(received.error) ??
      clean(received.title);
    return { message, fields: toRecord(fields) };
  } catch {
    return empty;
  }
}

/** The failure for an answer with an error status. Never throws, whatever it is given. */
export function mapFailure(answer: HttpAnswer, now: number = Date.now()): ApiFailure {
  try {
    const status =
      typeof answer?.status === 'number' && Number.isInteger(answer.status) ? answer.status : null;
    const kind = status === null ? 'server' : kindOfStatus(status);
    const parsed = parseErrorBody(answer?.body);
    return {
      ok: false,
      kind,
      status,
      message: parsed.message ?? plainMessage(kind, status),
      fields: parsed.fields,
      retryAfterMs: retryHint(kind, status, answer?.headers, now),
    };
  } catch {
    return failure('server', null, PLAIN.server);
  }
}

/** No answer arrived: refused, reset, unknown host, bad certificate … */
export function networkFailure(cause?: unknown): ApiFailure {
  const codes = errorCodes(cause);
  const reason = networkReason(codes);
  const message = reason
    ? `The platform could not be reached: ${reason}. Check the network connection.`
    : PLAIN.network;
  const network = networkShown(codes);
  return { ...failure('network', null, message), ...(network ? { network } : {}) };
}

export function timeoutFailure(timeoutMs?: number): ApiFailure {
  const message =
    timeoutMs !== undefined && timeoutMs >= 1000
      ? `The platform did not answer within ${Math.round(timeoutMs / 1000)} s.`
      : PLAIN.timeout;
  return failure('timeout', null, message);
}

/**
 * The caller gave up (its AbortSignal fired). Whether the platform saw the request is unknown, so
 * it reads as a network failure worth trying again.
 */
export function cancelledFailure(): ApiFailure {
  return failure('network', null, 'The request was cancelled before the platform answered.');
}

/** Sign-in needed: no token, or the refresh after a 401 failed. */
export function authFailure(message: string = PLAIN.auth, status: number | null = null): ApiFailure {
  return failure('auth', status, message);
}

/**
 * The token ran out and the auth server could not be reached to renew it: nothing was sent. Like
 * any network failure it is tried again later; the sign-in is kept (only a refused refresh ends it).
 */
export function renewalUnreachable(): ApiFailure {
  return failure(
    'network',
    null,
    'Your sign-in could not be renewed because the sign-in server cannot be reached. You stay signed in; it will be tried again when the connection is back.',
  );
}

/**
 * A request we refuse to send (a path that leaves the interface, a body that cannot be encoded):
 * a bug in the caller, never worth retrying.
 */
export function refusedRequest(message: string): ApiFailure {
  return failure('validation', null, message);
}

/** The platform answered 2xx but the body could not be read as it said it was. */
export function unreadableAnswer(status: number): ApiFailure {
  return failure('server', status, 'The platform sent an answer that could not be read.');
}

function failure(kind: ApiErrorKind, status: number | null, message: string): ApiFailure {
  return {
    ok: false,
    kind,
    status,
    message,
    fields: {},
    retryAfterMs: kind in DEFAULT_RETRY_MS ? DEFAULT_RETRY_MS[kind as keyof typeof DEFAULT_RETRY_MS] : null,
  };
}

function plainMessage(kind: ApiErrorKind, status: number | null): string {
  if (status !== null && PLAIN_BY_STATUS[status]) return PLAIN_BY_STATUS[status];
  if (status !== null && status >= 300 && status < 400)
    return 'The platform redirected the request elsewhere. Check the interface addresses in the connection settings.';
  if (status !== null && (status < 400 || status > 599))
    return `The platform gave an unexpected answer (status ${status}).`;
  return PLAIN[kind];
}

function retryHint(
  kind: ApiErrorKind,
  status: number | null,
  headers: HeadersLike,
  now: number,
): number | null {
  if (kind === 'rate-limited' || kind === 'unavailable') {
    return parseRetryAfter(headerOf(headers, 'retry-after'), now) ?? DEFAULT_RETRY_MS[kind];
  }
  if (kind === 'network' || kind === 'timeout') return DEFAULT_RETRY_MS[kind];
  // A 5xx is worth another try; a redirect or a malformed status is not going to change.
  if (kind === 'server' && status !== null && status >= 500 && status <= 599) return DEFAULT_RETRY_MS.server;
  return null;
}

/**
 * The system error codes of a fetch failure: undici's TypeError carries them in its `cause` chain,
 * and a connection tried on several addresses (IPv6 and IPv4) in an AggregateError's `errors`.
 */
function errorCodes(cause: unknown): string[] {
  const codes: string[] = [];
  const visit = (error: unknown, depth: number) => {
    if (depth > 5 || !isPlainObject(error)) return;
    if (typeof error.code === 'string') codes.push(error.code);
    if (Array.isArray(error.errors)) for (const each of error.errors) visit(each, depth + 1);
    visit(error.cause, depth + 1);
  };
  visit(cause, 0);
  return codes;
}

function networkReason(codes: string[]): string | null {
  for (const code of codes) {
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return "the platform's address could not be found";
    if (code === 'ECONNREFUSED') return 'the connection was refused';
    if (code === 'ECONNRESET' || code === 'EPIPE' || code.startsWith('UND_ERR_SOCKET'))
      return 'the connection was closed before the answer arrived';
    if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return 'the connection timed out';
    if (code === 'ENETUNREACH' || code === 'EHOSTUNREACH') return 'the network is unreachable';
    if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|TLS/.test(code))
      return "the platform's certificate could not be verified";
  }
  return null;
}

/** Codes that say this computer has no network: no route out, or no name server answers. */
const NETWORK_DOWN = new Set(['ENETUNREACH', 'ENETDOWN', 'EAI_AGAIN']);
/** Codes that say something on the way answered: the network is up, the platform is not answering. */
const NETWORK_UP = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE']);

/**
 * What a failure shows of this computer's network (ApiFailure.network). An unknown name
 * (ENOTFOUND) is left open: a name server said so, or none could be asked, depending on the system;
 * so is a timeout, and an unreachable host (EHOSTUNREACH) that may be the platform's alone.
 */
function networkShown(codes: string[]): ApiFailure['network'] {
  if (codes.some((code) => NETWORK_DOWN.has(code))) return 'down';
  const up = codes.some(
    (code) =>
      NETWORK_UP.has(code) ||
      code.startsWith('UND_ERR_SOCKET') ||
      /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|TLS/.test(code),
  );
  return up ? 'up' : undefined;
}

const NOT_JSON = Symbol('not JSON');

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}

/** A short plain-text body (a proxy's "Bad Gateway") is a message; HTML and long text are not. */
function plainTextMessage(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed.length === 0 || trimmed.length > 200 || /[<>{}[\]]/.test(trimmed)) return null;
  return clean(trimmed);
}

function fromMessageList(list: unknown[]): ErrorBody {
  const fields = new Map<string, string[]>();
  const texts = stringsOf(list);
  for (const text of texts) addField(fields, fieldOf(text), text);
  return { message: clean(texts.join(' ')), fields: toRecord(fields) };
}

function stringsOf(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  const out: string[] = [];
  for (const item of list) {
    const text = clean(item);
    if (text !== null) out.push(text);
  }
  return out;
}

/** The field a version 0.0.1 message is about: its first word (`current-value is required.`). */
function fieldOf(text: string): string | null {
  const match = /^([\w.[\]*-]+)[:,]?\s+\S/.exec(text);
  return match?.[1] ?? null;
}

function addField(fields: Map<string, string[]>, field: string | null, text: string): void {
  if (field === null || field === '') return;
  const name = field.slice(0, 200);
  const list = fields.get(name);
  if (list) {
    if (list.length < MAX_MESSAGES_PER_FIELD) list.push(text);
  } else if (fields.size < MAX_FIELDS) {
    fields.set(name, [text]);
  }
}

/** Object.fromEntries defines own properties, so a field named `__proto__` stays a field. */
const toRecord = (fields: Map<string, string[]>): Record<string, string[]> => Object.fromEntries(fields);

// eslint-disable-next-line no-control-regex -- control characters are exactly what must go
const CONTROL = /[\u0000-\u001f\u007f]+/g;

/** A string fit to show: no control characters, spaces collapsed, bounded; null when there is nothing. */
function clean(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value.replace(CONTROL, ' ').replace(/\s+/g, ' ').trim();
  if (text === '') return null;
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE - 1)}…` : text;
}
