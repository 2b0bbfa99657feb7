// The port every platform call of the sync engine goes through: `bridge().api.request` in the app,
// the main-side Transport in Node tests and the chaos runner. A request carries the signal of the
// session it belongs to: on sign-out it is aborted, and every send still waiting answers at once.

import type { ApiFailure, ApiRequest, ApiResult } from '@shared/api/request.ts';

export type Send = (req: ApiRequest, signal?: AbortSignal) => Promise<ApiResult>;

/** What an aborted send answers: nothing more is known of the request (as a lost connection). */
export function cancelledAnswer(): ApiFailure {
  return {
    ok: false,
    kind: 'network',
    status: null,
    message: 'The request was cancelled: you signed out.',
    fields: {},
    retryAfterMs: null,
  };
}

/** One promise per signal that resolves when it fires: one listener, however many requests wait. */
const endings = new WeakMap<AbortSignal, Promise<ApiFailure>>();

function endingOf(signal: AbortSignal): Promise<ApiFailure> {
  let ending = endings.get(signal);
  if (!ending) {
    ending = new Promise((resolve) => {
      if (signal.aborted) resolve(cancelledAnswer());
      else signal.addEventListener('abort', () => resolve(cancelledAnswer()), { once: true });
    });
    endings.set(signal, ending);
  }
  return ending;
}

/**
 * The port's answer, or the cancelled one as soon as `signal` fires: a port that cannot carry the
 * signal (the Bridge over IPC or HTTP) still lets the caller go at once. An answer that comes
 * after the abort is dropped.
 */
export async function untilAborted(
  answer: Promise<ApiResult>,
  signal: AbortSignal | undefined,
): Promise<ApiResult> {
  if (!signal) return answer;
  // The answer is not awaited once the session ended; its failure must not go unhandled.
  answer.catch(() => undefined);
  const result = await Promise.race([answer, endingOf(signal)]);
  return signal.aborted ? cancelledAnswer() : result;
}
