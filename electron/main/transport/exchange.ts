// One HTTP exchange with the platform: the fetch with its bearer token, a timeout that is re-armed
// while a body streams, the caller's signal joined to it, and reads that always end on either.

import type { ApiFailure, HttpMethod } from '@shared/api/request.ts';
import { cancelledFailure, networkFailure, timeoutFailure } from './failures.ts';
import type { Clock } from './rate-limiter.ts';

/** One HTTP exchange in progress: the answer's head has arrived, its body may still be coming. */
export interface Exchange {
  response: Response;
  /** The token it was sent with (to name the rejected one after a 401). */
  token: string;
  /** The origin it was sent to: a token renewed after a 401 is bound to it. */
  origin: string;
  /** Fires on timeout or when the caller aborts. */
  signal: AbortSignal;
  /** Stops the timeout and forgets the caller's signal. */
  settle(): void;
  /** Restarts the timeout (while a body streams) or stops it (null). */
  rearm(timeoutMs: number | null): void;
  /** The failure an error thrown while reading this exchange stands for. */
  failureOf(error: unknown): ApiFailure;
}

/** A request's body as it is sent: JSON, or multipart when files are attached (bodies.ts). */
export type BodyPayload =
  { body: string; contentType: string } | { body: FormData; contentType: null } | null;

/** What one exchange sends, and how long it waits for the platform. */
export interface Sending {
  url: URL;
  method: HttpMethod;
  accept: string;
  body: BodyPayload;
  token: string;
  signal: AbortSignal | undefined;
  timeoutMs: number;
}

/** Fetches with a timeout bound to the caller's signal; the exchange, or the failure it came to. */
export async function openExchange(
  fetchImpl: typeof fetch,
  clock: Clock,
  sending: Sending,
): Promise<Exchange | ApiFailure> {
  const { url, token } = sending;
  const controller = new AbortController();
  const caller = sending.signal;
  let timedOut = false;
  let timer: unknown = null;
  const rearm = (ms: number | null) => {
    if (timer !== null) clock.clearTimeout(timer);
    timer =
      ms === null
        ? null
        : clock.setTimeout(() => {
            timedOut = true;
            controller.abort(new DOMException('The platform did not answer in time.', 'TimeoutError'));
          }, ms);
  };
  const onCallerAbort = () => controller.abort(caller?.reason);
  const settle = () => {
    rearm(null);
    caller?.removeEventListener('abort', onCallerAbort);
  };
  const failureOf = (error: unknown): ApiFailure =>
    timedOut
      ? timeoutFailure(sending.timeoutMs)
      : caller?.aborted
        ? cancelledFailure()
        : networkFailure(error);

  if (caller?.aborted) return cancelledFailure();
  caller?.addEventListener('abort', onCallerAbort, { once: true });
  rearm(sending.timeoutMs);
  const headers: Record<string, string> = { accept: sending.accept, authorization: `Bearer ${token}` };
  if (sending.body?.contentType) headers['content-type'] = sending.body.contentType;
  try {
    const response = await fetchImpl(url, {
      method: sending.method,
      headers,
      ...(sending.body ? { body: sending.body.body } : {}),
      signal: controller.signal,
      // A redirect could carry the token elsewhere; the interfaces do not redirect.
      redirect: 'manual',
    });
    return { response, token, origin: url.origin, signal: controller.signal, settle, rearm, failureOf };
  } catch (error) {
    settle();
    return failureOf(error);
  }
}

/**
 * The promise, or a rejection as soon as the signal fires. Node's fetch (undici 6) can leave a
 * read pending forever when the request is aborted after the whole body has arrived; racing the
 * signal makes a cancel or a timeout always end the read.
 */
export function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(asError(signal.reason));
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

const asError = (reason: unknown): Error =>
  reason instanceof Error ? reason : new DOMException('The operation was aborted.', 'AbortError');
