// How many platform calls the browser preview's HTTP bridge keeps open at once, by priority. A
// browser opens at most six connections to one host, and a call stays open in the preview host
// while it waits for the request budget: unchecked, a pull's twenty waiting requests hold all six
// and the user's delete queues in the browser behind them, out of reach of the budget's priorities.

import { PRIORITIES, priorityOf, type Priority } from '@shared/api/request.ts';

/**
 * Calls open at once (of any priority) below which a call of this priority may start. Uploads and
 * background stop at two, interactive reads at three; the user's immediate request always finds the
 * fourth; and two connections stay free for the page's own files and the other bridge calls.
 */
export const OPEN_AT_MOST: Readonly<Record<Priority, number>> = {
  immediate: 4,
  interactive: 3,
  upload: 2,
  background: 2,
};

interface Waiting {
  start: () => void;
  /** Answers the call without starting it (sign-out). */
  drop: () => void;
}

export class BridgeLanes {
  private open = 0;
  private readonly queues: Waiting[][] = PRIORITIES.map(() => []);

  /** Calls open now, and calls waiting for a lane. */
  get counts(): { open: number; waiting: number } {
    return { open: this.open, waiting: this.queues.reduce((n, q) => n + q.length, 0) };
  }

  /**
   * Runs `call` once a lane of its priority is free: the most urgent first, in order within each.
   * Dropped before it starts (`dropWaiting`), the call answers `dropped()` (without one, it fails)
   * and never reaches the host.
   */
  run<T>(priority: unknown, call: () => Promise<T>, dropped?: () => T): Promise<T> {
    const rank = PRIORITIES.indexOf(priorityOf(priority));
    return new Promise<T>((resolve, reject) => {
      (this.queues[rank] as Waiting[]).push({
        start: () => {
          this.open++;
          Promise.resolve()
            .then(call)
            .then(resolve, reject)
            .finally(() => {
              this.open--;
              this.next();
            });
        },
        drop: () =>
          dropped ? resolve(dropped()) : reject(new Error('The session ended before this call started.')),
      });
      this.next();
    });
  }

  /**
   * The session ended: every call still waiting for a lane answers as dropped at once. None may
   * reach the host afterwards, where it would go out under whoever signs in next.
   */
  dropWaiting(): void {
    for (const queue of this.queues) for (const waiting of queue.splice(0)) waiting.drop();
  }

  /** Starts every waiting call a lane is free for, most urgent first. */
  private next(): void {
    for (;;) {
      const rank = this.queues.findIndex((q) => q.length > 0);
      if (rank < 0 || this.open >= OPEN_AT_MOST[PRIORITIES[rank] as Priority]) return;
      (this.queues[rank] as Waiting[]).shift()?.start();
    }
  }
}
