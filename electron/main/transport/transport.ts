// The only code that speaks HTTP to the platform's two interfaces: it builds the address, waits
// for the interface's request budget, sends the bearer token, renews it once after a 401, applies
// timeouts, honours Retry-After, and turns every outcome into one ApiResult. It never throws.
// Beside it: where a request may go (addresses.ts), what it carries and what the answer holds
// (bodies.ts), one fetch with its timeout (exchange.ts), and a file streamed on (downloads.ts).

import { setMaxListeners } from 'node:events';
import {
  priorityOf,
  type ApiFailure,
  type ApiName,
  type ApiRequest,
  type ApiResult,
  type HttpMethod,
  type Priority,
} from '@shared/api/request.ts';
import { routeOf } from '@shared/api/route.ts';
import { requestBudget } from '@shared/settings.ts';
import { downloadTarget, interfaceBase, requestAddress, signInServerPath } from './addresses.ts';
import { discard, encodeBody, readFailureBody, readSuccess } from './bodies.ts';
import { downloadAnswer, type DownloadAnswer, type DownloadOptions } from './downloads.ts';
import { openExchange, type BodyPayload, type Exchange } from './exchange.ts';
import {
  authFailure,
  cancelledFailure,
  mapFailure,
  networkFailure,
  refusedRequest,
  renewalUnreachable,
} from './failures.ts';
import { LimiterClosedError, RateLimiter, systemClock, type Clock } from './rate-limiter.ts';
import { isRenewalUnreachable, type TokenAnswer, type TokenSource } from './token-source.ts';

/** What the transport reads from the connection profile, on every request (settings may change). */
export interface TransportProfile {
  /** `authUrl`: the sign-in server, to which no request of the interfaces is sent (addresses.ts). */
  v2: { baseUrl: string; authUrl?: string };
  v0: { baseUrl: string; authUrl?: string };
  rateLimitPerMinute: number;
}

export interface TransportOptions {
  profile: () => TransportProfile;
  tokens: TokenSource;
  fetch?: typeof fetch;
  clock?: Clock;
  /** Per attempt, when the request does not say. Default 30 s. */
  defaultTimeoutMs?: number;
  /** Told of every request that fails (not of those the caller cancels): the diagnostics log. */
  onFailure?: (event: TransportFailureEvent) => void;
}

/** A request that failed: where it went (its route, ids taken out), how it failed, how long it took. */
export interface TransportFailureEvent {
  api: ApiName;
  method: HttpMethod;
  /** The path with its ids replaced (`routeOf`): never the path itself. */
  route: string;
  kind: ApiFailure['kind'];
  status: number | null;
  /** From the call to the answer, waiting for the budget included. */
  durationMs: number;
  retryAfterMs: number | null;
}

interface Attempt {
  api: ApiName;
  /** Built when the budget lets the request go, so a profile changed meanwhile is followed. */
  target: () => URL | ApiFailure;
  method: HttpMethod;
  accept: string;
  body: BodyPayload;
  priority: Priority;
  signal: AbortSignal | undefined;
  timeoutMs: number;
}

/** A token renewed after a 401, and the origin it was renewed to be sent to. */
interface Renewed {
  token: string;
  origin: string;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const METHODS: readonly string[] = ['GET', 'POST', 'PUT', 'DELETE'];

export class Transport {
  private readonly limiters: Record<ApiName, RateLimiter>;
  private readonly limits: Record<ApiName, number | null> = { v2: null, v0: null };
  private readonly fetch: typeof fetch;
  private readonly clock: Clock;
  private readonly defaultTimeoutMs: number;
  /** The signed-in session's requests: aborted on sign-out, so every one of them answers at once. */
  private session = sessionController();

  constructor(private readonly options: TransportOptions) {
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.clock = options.clock ?? systemClock;
    this.defaultTimeoutMs = validTimeout(options.defaultTimeoutMs) ?? DEFAULT_TIMEOUT_MS;
    this.limiters = {
      v2: new RateLimiter({ clock: this.clock }),
      v0: new RateLimiter({ clock: this.clock }),
    };
  }

  /** Sends one request to one interface. Resolves with the data or an ApiFailure; never rejects. */
  async request<T = unknown>(req: ApiRequest, signal?: AbortSignal): Promise<ApiResult<T>> {
    const started = this.clock.now();
    const ended = this.untilSignedOut(signal);
    const result = await this.requestOnce<T>(req, ended);
    if (!result.ok) this.failed(req?.api, req?.method, req?.path, result, started, ended);
    return result;
  }

  /**
   * Sign-out: every request of the session, in flight or waiting for the budget, answers at once
   * with a cancelled failure (downloads stop), and nothing of it reaches the platform after. The
   * requests that follow belong to the next session.
   */
  endSession(): void {
    this.session.abort(new DOMException('You signed out.', 'AbortError'));
    this.session = sessionController();
  }

  /** The caller's signal joined to the session's: either ends the request. */
  private untilSignedOut(signal: AbortSignal | undefined): AbortSignal {
    return signal ? AbortSignal.any([signal, this.session.signal]) : this.session.signal;
  }

  private async requestOnce<T>(req: ApiRequest, signal: AbortSignal | undefined): Promise<ApiResult<T>> {
    try {
      if (!isApiName(req?.api)) return refusedRequest('The request names no known interface (v2 or v0).');
      if (!METHODS.includes(req.method))
        return refusedRequest(`The method ${String(req.method)} is not supported.`);
      const target = () => this.resolvePath(req.api, req.path, req.query);
      const refused = target();
      if (!(refused instanceof URL)) return refused;
      const body = encodeBody(req);
      if (body !== null && 'ok' in body) return body;
      const exchanged = await this.exchange({
        api: req.api,
        target,
        method: req.method,
        // JSON first, so that errors come as JSON, but HTML and files are still welcome.
        accept: 'application/json, */*;q=0.8',
        body,
        priority: priorityOf(req.priority),
        signal,
        timeoutMs: validTimeout(req.timeoutMs) ?? this.defaultTimeoutMs,
      });
      if (!('response' in exchanged)) return exchanged;
      if (!exchanged.response.ok) return await this.failureOf(req.api, priorityOf(req.priority), exchanged);
      return await readSuccess<T>(exchanged, req.method);
    } catch {
      // Only a bug of ours gets here; the caller still gets an answer it can classify.
      return {
        ...networkFailure(),
        message: 'The request could not be completed because of an internal error.',
      };
    }
  }

  /**
   * Fetches a file of the platform, streaming. `url` is a path below the interface's base, or an
   * absolute address the interface returned (File.url …), accepted only on the origin of that
   * interface's base address, so the bearer token never goes anywhere else.
   */
  async download(url: string, options: DownloadOptions): Promise<DownloadAnswer | ApiFailure> {
    const started = this.clock.now();
    const signal = this.untilSignedOut(options?.signal);
    const answer = await this.downloadOnce(url, { ...options, signal });
    if (!answer.ok) this.failed(options?.api, 'GET', url, answer, started, signal);
    return answer;
  }

  private async downloadOnce(url: string, options: DownloadOptions): Promise<DownloadAnswer | ApiFailure> {
    try {
      const api = options?.api;
      if (!isApiName(api)) return refusedRequest('The download names no known interface (v2 or v0).');
      const target = () => this.resolveDownload(api, url);
      const refused = target();
      if (!(refused instanceof URL)) return refused;
      const timeoutMs = validTimeout(options.timeoutMs) ?? this.defaultTimeoutMs;
      const exchanged = await this.exchange({
        api,
        target,
        method: 'GET',
        accept: '*/*',
        body: null,
        priority: priorityOf(options.priority),
        signal: options.signal,
        timeoutMs,
      });
      if (!('response' in exchanged)) return exchanged;
      if (!exchanged.response.ok) return await this.failureOf(api, priorityOf(options.priority), exchanged);
      return downloadAnswer(exchanged, timeoutMs);
    } catch {
      return {
        ...networkFailure(),
        message: 'The download could not be started because of an internal error.',
      };
    }
  }

  /** Tells `onFailure` of a failed request, unless its caller cancelled it. */
  private failed(
    api: unknown,
    method: unknown,
    path: unknown,
    failure: ApiFailure,
    started: number,
    signal: AbortSignal | undefined,
  ): void {
    if (!this.options.onFailure || signal?.aborted || !isApiName(api) || !METHODS.includes(method as string))
      return;
    try {
      this.options.onFailure({
        api,
        method: method as HttpMethod,
        route: routeOf(typeof path === 'string' ? path : ''),
        kind: failure.kind,
        status: failure.status,
        durationMs: Math.max(0, this.clock.now() - started),
        retryAfterMs: failure.retryAfterMs,
      });
    } catch {
      // The log must never change what the caller gets.
    }
  }

  /** Until when an interface holds its requests after a 429 or 503 (epoch ms), or null. */
  pausedUntil(api: ApiName): number | null {
    return this.limiters[api].pausedUntilMs();
  }

  /**
   * The connection profile changed (perhaps to another platform): forget the old budgets and
   * pauses. Waiting requests are sent to the new addresses, with the tokens the source gives then.
   */
  profileChanged(): void {
    this.limits.v2 = null;
    this.limits.v0 = null;
    this.limiters.v2.reset();
    this.limiters.v0.reset();
  }

  /** Lets every waiting request go with a failure and refuses new ones. */
  dispose(): void {
    this.limiters.v2.dispose();
    this.limiters.v0.dispose();
  }

  /** Sends with the current token; after a 401, renews it once and sends once more. */
  private async exchange(attempt: Attempt): Promise<Exchange | ApiFailure> {
    // Signed out (or the token cannot be renewed now): fail at once, not after a wait for the budget.
    const target = attempt.target();
    if (!(target instanceof URL)) return target;
    const ready = await this.tokenFor(attempt.api, target.origin);
    if (typeof ready !== 'string') return ready;

    const first = await this.send(attempt, null);
    if (!('response' in first) || first.response.status !== 401) return first;
    await discard(first);

    let answer: TokenAnswer;
    try {
      answer = await this.options.tokens.refreshAfterUnauthorized(attempt.api, first.token, first.origin);
    } catch {
      answer = null;
    }
    // The auth server could not be reached: keep the sign-in and try again later.
    if (isRenewalUnreachable(answer)) return renewalUnreachable();
    if (typeof answer !== 'string' || answer === '')
      return authFailure('Your session has ended. Sign in again to continue.', 401);
    const second = await this.send(attempt, { token: answer, origin: first.origin });
    if (!('response' in second) || second.response.status !== 401) return second;
    await discard(second);
    return authFailure('The platform refused the renewed sign-in. Sign in again to continue.', 401);
  }

  /**
   * The token to send to `origin`, or the failure that stands for not having one: "sign in" when
   * the source has none, a network failure when it could not renew an expired one just now.
   */
  private async tokenFor(api: ApiName, origin: string): Promise<string | ApiFailure> {
    let answer: TokenAnswer;
    try {
      answer = await this.options.tokens.accessToken(api, origin);
    } catch {
      answer = null;
    }
    if (typeof answer === 'string' && answer !== '') return answer;
    return isRenewalUnreachable(answer) ? renewalUnreachable() : notSignedIn();
  }

  /**
   * One attempt: wait for the budget, then build the address, take the token (the current one, or
   * the renewed one after a 401) and fetch with a timeout bound to the caller's signal.
   */
  private async send(attempt: Attempt, renewed: Renewed | null): Promise<Exchange | ApiFailure> {
    const limiter = this.limiterFor(attempt.api);
    try {
      await limiter.acquire(attempt.priority, attempt.signal);
    } catch (error) {
      return error instanceof LimiterClosedError
        ? { ...networkFailure(), message: 'Advisor Desk is closing; the request was not sent.' }
        : cancelledFailure();
    }
    const url = attempt.target();
    if (!(url instanceof URL)) return url;
    // The token is asked for the origin it goes to; a renewed one only goes where it was renewed for.
    const token =
      renewed?.origin === url.origin ? renewed.token : await this.tokenFor(attempt.api, url.origin);
    if (typeof token !== 'string') return token;

    return openExchange(this.fetch, this.clock, {
      url,
      method: attempt.method,
      accept: attempt.accept,
      body: attempt.body,
      token,
      signal: attempt.signal,
      timeoutMs: attempt.timeoutMs,
    });
  }

  /**
   * Reads an error answer and pauses the interface when the platform asks us to wait: the requests
   * of this priority and the less urgent ones (rate-limiter.ts, pauseUntil).
   */
  private async failureOf(api: ApiName, priority: Priority, exchange: Exchange): Promise<ApiFailure> {
    const { response } = exchange;
    const body = await readFailureBody(exchange);
    const now = this.clock.now();
    const failure = mapFailure({ status: response.status, headers: response.headers, body }, now);
    if (
      (failure.kind === 'rate-limited' || failure.kind === 'unavailable') &&
      failure.retryAfterMs !== null
    ) {
      this.limiterFor(api).pauseUntil(now + failure.retryAfterMs, priority);
    }
    return failure;
  }

  /** The interface's limiter, following the profile's limit as it changes. */
  private limiterFor(api: ApiName): RateLimiter {
    const limiter = this.limiters[api];
    // A broken profile value must not lift the limit: the platform's published one then.
    const wanted = requestBudget(this.options.profile());
    if (this.limits[api] !== wanted) {
      this.limits[api] = wanted;
      limiter.setLimit(wanted);
    }
    return limiter;
  }

  private base(api: ApiName): URL | ApiFailure {
    return interfaceBase(api, this.options.profile()[api]?.baseUrl);
  }

  /** Base + path + query, or a failure when the path would leave the interface. */
  private resolvePath(api: ApiName, path: unknown, query: ApiRequest['query']): URL | ApiFailure {
    const base = this.base(api);
    const url = base instanceof URL ? requestAddress(base, path, query) : base;
    if (!(url instanceof URL)) return url;
    const { v2, v0 } = this.options.profile();
    const signIn = signInServerPath(url, [v2?.authUrl, v0?.authUrl]);
    return signIn
      ? refusedRequest(`The request path ${JSON.stringify(path)} is refused: ${signIn}; nothing was sent.`)
      : url;
  }

  /**
   * The address a download of `url` would fetch, or why it may not: only the interfaces' file
   * addresses (files/file-addresses.ts), so the bearer token goes nowhere else on the origin.
   * Nothing is sent either way; callers check before they prepare anything.
   */
  downloadAddress(api: ApiName, url: unknown): URL | ApiFailure {
    try {
      if (!isApiName(api)) return refusedRequest('The download names no known interface (v2 or v0).');
      return this.resolveDownload(api, url);
    } catch {
      return refusedRequest('The file address is not valid.');
    }
  }

  private resolveDownload(api: ApiName, address: unknown): URL | ApiFailure {
    const base = this.base(api);
    return base instanceof URL ? downloadTarget(api, base, address) : base;
  }
}

/** One listener per request in flight, however many: not a leak, so no warning past ten. */
function sessionController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}

const notSignedIn = () => authFailure('You are not signed in to the platform. Sign in to continue.');

const isApiName = (value: unknown): value is ApiName => value === 'v2' || value === 'v0';

function validTimeout(ms: unknown): number | null {
  return typeof ms === 'number' && Number.isFinite(ms) && ms > 0 ? Math.min(ms, 2 ** 31 - 1) : null;
}
