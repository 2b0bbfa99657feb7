// Pulls run as part of the sync state: it says "syncing" while one runs, shows its progress when
// it is one to show, and takes its outcome (a pull without a failure clears the last error; the
// platform answering again lets retries go without waiting out their backoff).

import type { PullProgress, PullReport } from '../pull/index.ts';
import type { PlatformAnswers } from './answers.ts';
import type { Shown } from './schedule.ts';
import type { SyncProgress } from './state.ts';

export interface PullRunsHost {
  answers: PlatformAnswers;
  /** The state moved. */
  changed(): void;
  fail(error: unknown): void;
  /** A pull ended without a failure; `asked`: it sent requests (the platform took part). */
  succeeded(asked: boolean): Promise<void>;
  /** The platform answers again, or takes our token again. */
  recovered(): void;
}

export class PullRuns {
  private readonly runs = new Set<Promise<PullReport>>();
  private readonly progress = new Map<string, SyncProgress>();

  constructor(private readonly host: PullRunsHost) {}

  /** A pull is under way. */
  get busy(): boolean {
    return this.runs.size > 0;
  }

  /** The progress of the pulls under way that are shown. */
  get shown(): SyncProgress[] {
    return [...this.progress.values()];
  }

  /** Resolves when every pull under way has ended, however. */
  async ended(): Promise<void> {
    await Promise.allSettled([...this.runs]);
  }

  /** Runs one pull as part of the state: syncing meanwhile, its progress (if `shown`), its outcome. */
  async run(
    shown: Shown | null,
    work: (onProgress: (p: PullProgress) => void) => Promise<PullReport>,
  ): Promise<PullReport> {
    const { answers } = this.host;
    const id = crypto.randomUUID();
    const wasUnreachable = answers.unreachable;
    const wasSignIn = answers.signInNeeded;
    const run = work((p) => {
      if (shown === null) return;
      this.progress.set(id, { id, ...shown, done: p.done, total: p.total });
      this.host.changed();
    });
    this.runs.add(run);
    this.host.changed();
    try {
      const report = await run;
      // Stopped by a sign-out: nothing to conclude, nothing to record.
      if (report.stopped) return report;
      if (report.failures.length === 0) await this.host.succeeded(report.requests > 0);
      if ((wasUnreachable && !answers.unreachable) || (wasSignIn && !answers.signInNeeded))
        this.host.recovered();
      return report;
    } catch (error) {
      this.host.fail(error);
      throw error;
    } finally {
      this.runs.delete(run);
      this.progress.delete(id);
      this.host.changed();
    }
  }
}
