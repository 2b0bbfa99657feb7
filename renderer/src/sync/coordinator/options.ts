// What a SyncCoordinator is made with: the store, the `Send` port, and the window's ports (the Web
// Lock, the channel to the other windows, its events), each with a default for the browser.

import type { ApiResult } from '@shared/api/request.ts';
import type { AdvisorDb } from '../../data/db.ts';
import type { StoreIdentity } from '../../data/identity/index.ts';
import type { SyncDiagnostics } from '../diagnostics.ts';
import type { PullEngineOptions } from '../pull/index.ts';
import type { PushOptions } from '../push/index.ts';
import type { Send } from '../send.ts';
import type { PreparationHost } from './preparation.ts';
import type { SyncChannel, SyncEvents, SyncLocks } from './windows.ts';

export interface SyncCoordinatorOptions {
  db: AdvisorDb;
  send: Send;
  /** The Web Lock and the BroadcastChannel of the sync. Default: the store's own (`syncName`). */
  name?: string;
  /** How often the worker pulls in the background (account list, offline accounts). Default 5 min. */
  backgroundIntervalMs?: number;
  now?: () => number;
  push?: Omit<PushOptions, 'db' | 'send' | 'now' | 'online'>;
  pull?: Omit<PullEngineOptions, 'db' | 'send' | 'now'>;
  /** `navigator.locks`; null: this coordinator is the only worker. */
  locks?: SyncLocks | null;
  /** Opens the channel shared with the other windows; null: no other windows. */
  channel?: ((name: string) => SyncChannel) | null;
  /** The window's events; null: none. */
  events?: SyncEvents | null;
  /**
   * Whether the system says there is a network: `navigator.onLine` (always where there is no
   * navigator). While it says no, nothing is pushed or pulled and the phase is offline.
   */
  online?: () => boolean;
  /** Sees every answer of the platform (the connectivity indicator). */
  observe?: (result: ApiResult) => void;
  /** Where the pull and push reports go (the diagnostics log); none: not reported. */
  diagnostics?: SyncDiagnostics;
  /**
   * The user and team signed in now (null: nobody). Only operations stamped with it are sent;
   * the others are held as they are. Default: the store's own identity (Node tests, chaos).
   */
  identity?: () => StoreIdentity | null;
  /** Keeps a prepared household's stored files offline (`bridge().files.keep`); none: not kept. */
  keepFiles?: PreparationHost['keepFiles'];
}

export const SYNC_NAME = 'advisor-desk-sync';

/**
 * The lock and channel of one store's windows: windows of other identities (another team, another
 * user in another window) each have their own worker and never hear each other's outbox.
 */
export function syncName(storeName: string): string {
  return `${SYNC_NAME}:${storeName}`;
}
