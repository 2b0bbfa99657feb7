// One sync worker across windows: the window that holds the Web Lock runs the sync, the others
// observe. Windows talk over a BroadcastChannel: the worker shares its activity, an observer asks
// it to rearm, and every outbox event is relayed (a change made in an observer wakes the worker's
// push at once; `whenSynced` in an observer hears the worker's answer). Each port defaults to the
// browser's, and is null where there is none (Node tests, the chaos runner).

import { onOutbox, signalOutbox, type OutboxEvent } from '../../data/changes/index.ts';
import type { AdvisorDb } from '../../data/db.ts';
import type { Activity } from './state.ts';

/** The part of the Web Locks API used here (`navigator.locks`). */
export interface SyncLocks {
  request(
    name: string,
    options: { signal?: AbortSignal },
    callback: (lock: unknown) => Promise<void>,
  ): Promise<unknown>;
}

/** The part of BroadcastChannel used here. */
export interface SyncChannel {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  close(): void;
}

/** Where `online`, `offline` and `focus` arrive (the window). */
export interface SyncEvents {
  addEventListener(type: string, listener: () => void): void;
  removeEventListener(type: string, listener: () => void): void;
}

export interface WindowPorts {
  locks: SyncLocks | null;
  channel: ((name: string) => SyncChannel) | null;
  events: SyncEvents | null;
  online: () => boolean;
}

interface HostGlobals {
  navigator?: { onLine?: boolean; locks?: SyncLocks };
  window?: SyncEvents;
  BroadcastChannel?: new (name: string) => SyncChannel;
}

/** The ports given, the browser's for those left undefined (null turns one off). */
export function windowPorts(given: {
  locks?: SyncLocks | null | undefined;
  channel?: ((name: string) => SyncChannel) | null | undefined;
  events?: SyncEvents | null | undefined;
  online?: (() => boolean) | undefined;
}): WindowPorts {
  const host = globalThis as unknown as HostGlobals;
  const Channel = host.BroadcastChannel;
  return {
    locks: given.locks !== undefined ? given.locks : (host.navigator?.locks ?? null),
    channel: given.channel !== undefined ? given.channel : Channel ? (name) => new Channel(name) : null,
    events: given.events !== undefined ? given.events : (host.window ?? null),
    online: given.online ?? (() => host.navigator?.onLine ?? true),
  };
}

export type WindowMessage =
  /** A window starts: the worker answers with its activity. */
  | { type: 'hello' }
  /** The worker's activity; null when it stops being the worker. */
  | { type: 'activity'; activity: Activity | null }
  /** To the worker: rearm the push (after a sign-in: and catch up with a pull). */
  | { type: 'rearm'; signedIn: boolean }
  /** From the worker: the push moved operations; read the store again. */
  | { type: 'stored' }
  /** To the worker: send now, and answer `sent` with this id once the pass that sends has ended. */
  | { type: 'send-now'; id: string }
  /** From the worker: the pass that `send-now` asked for has ended. */
  | { type: 'sent'; id: string }
  | { type: 'outbox'; event: OutboxEvent };

/** What the coordinator hears from the other windows (outbox events are relayed here). */
export type PeerMessage = Exclude<WindowMessage, { type: 'outbox' }>;

/** Outbox events that came from another window: signalled here, never sent back. */
const relayed = new WeakSet<OutboxEvent>();

/** This window's link to the others: the lock, the channel and the window's events. */
export class WindowLink {
  private channel: SyncChannel | null = null;
  private abort: AbortController | null = null;
  private postedKey = '';

  constructor(
    private readonly db: AdvisorDb,
    private readonly name: string,
    private readonly ports: WindowPorts,
  ) {}

  /**
   * Opens the channel: the other windows' messages go to `receive` (their outbox events are
   * signalled here first), and this window's outbox events go to them. Returns the teardown.
   */
  connect(receive: (message: PeerMessage) => void): (() => void) | null {
    const channel = this.ports.channel?.(this.name) ?? null;
    if (!channel) return null;
    // Node keeps a process alive for an open channel; a window does not need that either.
    (channel as { unref?: () => void }).unref?.();
    channel.addEventListener('message', (event) => {
      const message = event.data as WindowMessage;
      if (message.type === 'outbox') {
        relayed.add(message.event);
        signalOutbox(this.db, message.event);
      } else receive(message);
    });
    this.channel = channel;
    const off = onOutbox(this.db, (event) => {
      if (!relayed.has(event)) this.post({ type: 'outbox', event });
    });
    return () => {
      off();
      channel.close();
      this.channel = null;
    };
  }

  /** Whether the other windows can be reached (a channel is open). */
  get connected(): boolean {
    return this.channel !== null;
  }

  post(message: WindowMessage): void {
    if (message.type === 'activity') this.postedKey = JSON.stringify(message.activity);
    this.channel?.postMessage(message);
  }

  /** The worker's activity, to the others, when it is not what they last heard. */
  postActivity(activity: Activity): void {
    if (JSON.stringify(activity) !== this.postedKey) this.post({ type: 'activity', activity });
  }

  /**
   * Runs `work` once this window holds the lock, at once where there are no locks; the lock is
   * held until `work` ends. `fail` hears a lock that could not be had.
   */
  hold(work: () => Promise<void>, fail: (error: unknown) => void): Promise<void> {
    if (!this.ports.locks) return work();
    const abort = new AbortController();
    this.abort = abort;
    return this.ports.locks.request(this.name, { signal: abort.signal }, work).then(
      () => undefined,
      (error: unknown) => {
        // Stopped while waiting for the lock: nothing went wrong.
        if (!abort.signal.aborted) fail(error);
      },
    );
  }

  /** Stops waiting for the lock (a held lock is released by the end of its work). */
  letGo(): void {
    this.abort?.abort();
    this.abort = null;
  }

  /** Listens to the window's `online`, `offline` and `focus`; returns the teardowns. */
  listen(handlers: Record<'online' | 'offline' | 'focus', () => void>): (() => void)[] {
    const target = this.ports.events;
    if (!target) return [];
    return Object.entries(handlers).map(([type, handler]) => {
      target.addEventListener(type, handler);
      return () => target.removeEventListener(type, handler);
    });
  }
}
