// The worker's background pulls: configuration (daily), the account list and the team's
// engagement list (incremental), the forms' allowed values (daily), then the accounts kept offline
// (quietly: their queue is listed in the sync panel), one step after another, at start and every
// interval (and on reconnect and after a sign-in, when the coordinator asks).
// One run at a time: asking during a run joins it.

import type { ReportedPulls } from '../diagnostics.ts';
import type { PullProgress, PullReport } from '../pull/index.ts';
import type { OfflineQueue } from './offline-queue.ts';
import type { SyncProgress } from './state.ts';

/** How a pull's progress is shown. */
export type Shown = Pick<SyncProgress, 'label' | 'accountId'>;

export interface BackgroundHost {
  /** The pull engine, reported to the diagnostics log when there is one. */
  pull: ReportedPulls;
  intervalMs: number;
  /** Whether a run may start or go on: this window is the worker (and, to start, online). */
  worker(): boolean;
  online(): boolean;
  /** Runs one pull as part of the sync state (syncing meanwhile, its progress, its outcome). */
  pulling(
    shown: Shown | null,
    work: (onProgress: (p: PullProgress) => void) => Promise<PullReport>,
  ): Promise<PullReport>;
  /** Without the platform, or without a valid sign-in, the next steps would fail the same way. */
  stuck(): boolean;
  /** The run started or ended: the state moves. */
  changed(): void;
  /** The households kept offline that this run updates, as the sync panel lists them. */
  queue: Pick<OfflineQueue, 'reached' | 'clear'>;
  /** Whether the platform's current team is the store's (asked again when it last was not). */
  teamHere(): Promise<boolean>;
}

export class BackgroundPulls {
  private timer: ReturnType<typeof setInterval> | null = null;
  private current: Promise<void> | null = null;

  constructor(private readonly host: BackgroundHost) {}

  /** A run is under way (the state counts it as syncing as a whole: no "idle" between its steps). */
  get running(): boolean {
    return this.current !== null;
  }

  /** Runs every interval from now on, until `stop`. */
  every(): void {
    this.timer = setInterval(() => void this.run(), this.host.intervalMs);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  run(): Promise<void> {
    if (!this.host.worker() || !this.host.online()) return Promise.resolve();
    this.current ??= this.steps().finally(() => {
      this.current = null;
      this.host.changed();
    });
    return this.current;
  }

  private async steps(): Promise<void> {
    const { pull, queue } = this.host;
    const steps: [Shown | null, (onProgress: (p: PullProgress) => void) => Promise<PullReport>][] = [
      [null, () => pull.pullConfig({ priority: 'background' })],
      [
        { label: 'Updating the account list', accountId: null },
        (onProgress) => pull.pullAccountList({ priority: 'background', onProgress }),
      ],
      // The team's questionnaires, incremental: two requests, every page only when a sweep is due
      // (daily), so that the Engagements area is current offline too. Never their answers and files.
      [null, () => pull.pullEngagements({ priority: 'background' })],
      // After the list: the definitions are asked under one of its accounts (pull/definitions.ts).
      [null, () => pull.pullDefinitions({ priority: 'background' })],
      // Minutes at the budget's pace (about 21 requests an account): no progress in the frame; the
      // sync panel lists its queue instead.
      [null, () => pull.pullOfflineAccounts({ onQueue: queue.reached }).finally(() => queue.clear())],
    ];
    // Another team's list and accounts are not this store's to pull.
    if (!(await this.host.teamHere())) return;
    for (const [shown, step] of steps) {
      if (!this.host.worker()) return;
      const report = await this.host.pulling(shown, step).catch(() => null);
      if (!report || report.stopped || this.host.stuck()) return;
    }
  }
}
