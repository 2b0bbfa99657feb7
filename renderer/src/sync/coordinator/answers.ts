// What the platform's answers tell the sync state: whether it can be reached, whether it still
// takes our sign-in (per interface), and how far an account's pull has come (its requests
// answered of sent).

import { reachShownBy } from '@shared/api/connection.ts';
import type { ApiName, ApiRequest, ApiResult, Priority } from '@shared/api/request.ts';
import type { PullProgress } from '../pull/index.ts';
import type { Send } from '../send.ts';

/**
 * Counts the requests of one account pull: after the account itself, all its parts go out at
 * once, so "answered of sent" is its progress (the pull engine reports none within an account).
 */
class AccountRequests {
  sent = 0;
  answered = 0;
  private readonly path: RegExp;

  constructor(
    serverId: number,
    private readonly priority: Priority,
    private readonly onProgress: (p: PullProgress) => void,
  ) {
    this.path = new RegExp(`^/accounts/${serverId}(/|$)`);
  }

  counts(req: ApiRequest): boolean {
    return req.method === 'GET' && req.priority === this.priority && this.path.test(req.path);
  }

  report(): void {
    this.onProgress({ done: this.answered, total: this.sent });
  }
}

export class PlatformAnswers {
  /** The last request found no platform (network or timeout). */
  unreachable = false;
  /** The last request failed for want of a network (Reach.noWayOut in @shared/api/connection.ts). */
  noWayOut = false;
  private readonly authFailed = new Set<ApiName>();
  private readonly counters = new Set<AccountRequests>();
  /** Numbers the requests as they are sent. */
  private sent = 0;
  /**
   * The newest reading of the platform's reach: the number of the newest request whose answer
   * set it, or the count of requests sent when the system found a network. A failure of a request
   * sent before it (one under way as the network came back) tells of an older moment.
   */
  private readAt = 0;

  constructor(
    private readonly port: Send,
    /** Hears every answer (the state moves with it); `result` null when the port threw. */
    private readonly heard: (result: ApiResult | null) => void,
  ) {}

  /** The platform refused our token and it could not be renewed. */
  get signInNeeded(): boolean {
    return this.authFailed.size > 0;
  }

  /** After a sign-in: the refused token is forgotten. */
  signedIn(): void {
    this.authFailed.clear();
  }

  /** The system found a network since: what the last failure showed of it no longer holds. */
  networkFound(): void {
    this.noWayOut = false;
    this.readAt = this.sent;
  }

  /** Counts the requests of a pull of one account as its progress, until the returned stop. */
  countAccount(serverId: number, priority: Priority, onProgress: (p: PullProgress) => void): () => void {
    const counter = new AccountRequests(serverId, priority, onProgress);
    this.counters.add(counter);
    return () => this.counters.delete(counter);
  }

  /** Every request of both engines: counted for progress, and read for the connection and the sign-in. */
  async send(req: ApiRequest, signal?: AbortSignal): Promise<ApiResult> {
    const counters = [...this.counters].filter((c) => c.counts(req));
    for (const counter of counters) {
      counter.sent++;
      counter.report();
    }
    const number = ++this.sent;
    let result: ApiResult | null = null;
    try {
      result = await this.port(req, signal);
      return result;
    } finally {
      // A port that throws is taken for a lost connection, as the engines take it; a request
      // cancelled by a sign-out tells nothing of the platform.
      if (!signal?.aborted) this.note(req.api, result, number);
      for (const counter of counters) {
        counter.answered++;
        counter.report();
      }
    }
  }

  private note(api: ApiName, result: ApiResult | null, number: number): void {
    // Any answer, even a refusal, shows the platform is reachable now. A failure to reach it
    // tells of when its request was sent: it stands unless a newer reading came meanwhile.
    const shown = reachShownBy(result);
    const answered = !shown.platformSilent && !shown.noWayOut;
    if (answered || number > this.readAt) {
      this.unreachable = shown.platformSilent;
      this.noWayOut = shown.noWayOut;
      this.readAt = Math.max(this.readAt, number);
    }
    if (result && !result.ok && result.kind === 'auth') this.authFailed.add(api);
    else if (result?.ok) this.authFailed.delete(api);
    this.heard(result);
  }
}
