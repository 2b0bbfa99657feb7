// One run of the app in the chaos scenario, from its start to its death: its connection to the
// local database and the real engines over it, and a kill that stops everything at once.

import type { AdvisorDb } from '../../renderer/src/data/db.ts';
import { PullEngine } from '../../renderer/src/sync/pull/index.ts';
import { PushEngine, type PushEvent } from '../../renderer/src/sync/push/index.ts';
import type { ApiRequest, ApiResult } from '@shared/api/request.ts';
import type { SandboxClient } from '../support/sandbox-client.ts';
import type { Random } from '../platform/random.ts';
import { openDb } from '../support/store.ts';

/** A promise that never settles: what the code of a killed app waits on. */
const NEVER = new Promise<never>(() => undefined);

/** The engine's clock: the wall clock plus the time the scenario lets pass, so that retries fall due. */
export class Clock {
  private offset = 0;
  readonly now = (): number => Date.now() + this.offset;
  advance(ms: number): void {
    this.offset += ms;
  }
}

/** What a life of the app reports to the scenario. */
export interface Host {
  readonly advisor: SandboxClient;
  readonly clock: Clock;
  readonly engineRandom: Random;
  countRequest(): void;
  onPushEvent(event: PushEvent): void;
  problem(message: string): void;
}

/**
 * One run of the app, from its start to its death: a connection to the local database and the two
 * engines over it. A kill stops its traffic at once: requests not sent yet are never sent, answers
 * not received yet are never read, and every promise of the old engines is abandoned.
 */
export class Life {
  readonly db: AdvisorDb;
  readonly push: PushEngine;
  readonly pull: PullEngine;
  killed = false;
  private pushing: Promise<void> | null = null;
  private pulling: Promise<void> | null = null;
  /** A kill set to happen at the `left`-th next request, that request sent (`afterSend`) or not. */
  private fuse: { left: number; afterSend: boolean } | null = null;
  private onKill: (() => void) | null = null;
  /** Requests handed to the transport and not answered yet, the dead app's included. */
  private readonly sent = new Set<Promise<unknown>>();

  constructor(
    private readonly host: Host,
    dbName: string,
  ) {
    this.db = openDb(dbName);
    const send = (req: ApiRequest) => this.send(req);
    this.push = new PushEngine({
      db: this.db,
      send,
      now: host.clock.now,
      random: () => host.engineRandom.next(),
      backoff: { baseMs: 1_000, maxMs: 60_000 },
    });
    this.pull = new PullEngine({ db: this.db, send, now: host.clock.now });
    this.push.onEvent((event) => host.onPushEvent(event));
  }

  private async send(req: ApiRequest): Promise<ApiResult> {
    if (this.killed) return NEVER;
    if (this.fuse && --this.fuse.left <= 0) {
      const { afterSend } = this.fuse;
      this.kill();
      if (!afterSend) return NEVER;
      // It reaches the platform, which may apply it; its answer reaches no one.
      this.host.countRequest();
      void this.transport(req);
      return NEVER;
    }
    this.host.countRequest();
    const res = await this.transport(req);
    return this.killed ? NEVER : res;
  }

  private transport(req: ApiRequest): Promise<ApiResult> {
    const request = this.host.advisor.transport.request(req);
    const tracked = request.finally(() => this.sent.delete(tracked));
    this.sent.add(tracked);
    return request;
  }

  /**
   * Waits until the platform is done with every request this app sent: a restarted app starts
   * seconds after the old process died, and by then the platform has applied or dropped what
   * that process had sent. (A request landing after the new app looked for it is a window no
   * client can close without idempotency keys, which neither interface has: DESIGN.md §3.)
   */
  async sentSettled(): Promise<void> {
    while (this.sent.size > 0) await Promise.allSettled([...this.sent]);
  }

  /** Starts a push pass in the background, unless one is running. */
  startPush(): void {
    if (this.pushing || this.killed) return;
    this.pushing = this.guard('push', this.push.run()).finally(() => (this.pushing = null));
  }

  /** Starts a pull in the background: one account, or the account list. */
  startPull(accountId: string | null, full: boolean): void {
    if (this.pulling || this.killed) return;
    const pull = accountId
      ? this.pull.pullAccount(accountId, { priority: 'interactive' })
      : this.pull.pullAccountList({ full });
    this.pulling = this.guard('pull', pull).finally(() => (this.pulling = null));
  }

  /** Waits for the background work (only for a living app: a killed one never finishes). */
  async idle(): Promise<void> {
    await this.pushing;
    await this.pulling;
  }

  /**
   * Dies at the `requests`-th next request, sent or not, or after `ms` when the engine sends
   * nothing meanwhile; then the database connection closes, as it does when the process ends.
   */
  async killAfter(requests: number, afterSend: boolean, ms: number): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => this.kill(), ms);
      this.onKill = () => {
        clearTimeout(timer);
        resolve();
      };
      this.fuse = { left: requests, afterSend };
    });
    this.db.close();
  }

  private kill(): void {
    if (this.killed) return;
    this.killed = true;
    this.onKill?.();
  }

  /** Background work must not fail; after a kill its failures (a closed database) are expected. */
  private guard(what: string, work: Promise<unknown>): Promise<void> {
    return work.then(
      () => undefined,
      (error: unknown) => {
        if (!this.killed) this.host.problem(`the ${what} failed: ${String(error)}`);
      },
    );
  }
}
