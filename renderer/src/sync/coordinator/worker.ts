// Which window is the sync worker (windows.ts): the one that holds the store's Web Lock runs the
// push loop and the background pulls until it lets go; the others observe, hear the worker's
// activity, and ask it over the channel to rearm or to send now.

import type { PushEngine } from '../push/index.ts';
import type { BackgroundPulls } from './schedule.ts';
import type { Activity } from './state.ts';
import type { PeerMessage, WindowLink } from './windows.ts';

/** What the election needs of its coordinator. */
export interface WorkerHost {
  windows: WindowLink;
  push: PushEngine;
  background: BackgroundPulls;
  /** Between `start` and `stop`. */
  running(): boolean;
  /** This run's session: its abort ends every request at once. */
  session(): AbortSignal;
  /** This window's activity, to share while it works. */
  activity(): Activity;
  changed(): void;
  fail(error: unknown): void;
  /** The push no longer sends (the worker stopped working). */
  pushEnded(): void;
  resumePreparation(): void;
  rearm(): Promise<void>;
  signedIn(): Promise<void>;
  /** The store moved in another window: read it again. */
  readStore(): void;
}

export class WorkerElection {
  /** This window holds the lock and runs the sync. */
  worker = false;
  /** The worker's activity, in an observing window. */
  remote: Activity | null = null;
  private held: Promise<void> | null = null;
  private release: (() => void) | null = null;
  /** This observing window's "send now" requests, waiting for the worker's `sent`, by id. */
  private readonly sendNowAsked = new Map<string, () => void>();

  constructor(private readonly host: WorkerHost) {}

  /** Stands for the lock: works once this window holds it (at once where there are no locks). */
  stand(): void {
    this.held = this.host.windows.hold(
      () => this.work(),
      (error) => this.host.fail(error),
    );
  }

  /** Lets go of the lock: the work ends (the push its pass first) and the lock passes on. */
  async letGo(): Promise<void> {
    this.host.windows.letGo();
    this.release?.();
    await this.held;
  }

  /** Stopped: nothing is held, and what was asked of a worker is answered here. */
  reset(): void {
    this.held = this.release = null;
    this.remote = null;
    this.answerSendNow(() => Promise.resolve());
  }

  /** "Send now" from an observing window: resolves once the worker's pass has ended. */
  askWorkerToSend(): Promise<void> {
    if (!this.host.running() || !this.host.windows.connected) return Promise.resolve();
    const id = crypto.randomUUID();
    return new Promise((resolve) => {
      this.sendNowAsked.set(id, resolve);
      this.host.windows.post({ type: 'send-now', id });
    });
  }

  /** No worker will answer them now (this window works or stops): they are answered here. */
  private answerSendNow(send: () => Promise<unknown>): void {
    for (const [id, resolve] of [...this.sendNowAsked]) {
      this.sendNowAsked.delete(id);
      void send().finally(resolve);
    }
  }

  /** Runs while this window holds the lock: the push loop and the background pulls, until `stop`. */
  private async work(): Promise<void> {
    const { push, background, windows } = this.host;
    if (!this.host.running()) return;
    const released = new Promise<void>((resolve) => (this.release = resolve));
    this.worker = true;
    this.remote = null;
    push.start(this.host.session());
    // Asked of the worker before this window became it: the pass is this window's now.
    this.answerSendNow(() => push.sendNow());
    background.every();
    this.host.changed();
    // The preparation kept in the store (a restart): listed again, and what waited goes on first.
    this.host.resumePreparation();
    void background.run();
    await released;
    background.stop();
    // The next worker must find no operation of ours in flight: the push ends its pass first.
    await push.stop();
    this.worker = false;
    this.host.pushEnded();
    windows.post({ type: 'activity', activity: null });
    this.host.changed();
  }

  /** A message of another window of this store. */
  receive(message: PeerMessage): void {
    const { windows } = this.host;
    switch (message.type) {
      case 'hello':
        if (this.worker) windows.post({ type: 'activity', activity: this.host.activity() });
        return;
      case 'activity':
        if (this.worker) return;
        this.remote = message.activity;
        this.host.changed();
        return;
      case 'rearm':
        if (this.worker) void (message.signedIn ? this.host.signedIn() : this.host.rearm());
        return;
      case 'send-now':
        if (this.worker)
          void this.host.push.sendNow().then(() => windows.post({ type: 'sent', id: message.id }));
        return;
      case 'sent':
        this.sendNowAsked.get(message.id)?.();
        this.sendNowAsked.delete(message.id);
        return;
      case 'stored':
        this.host.readStore();
    }
  }
}
