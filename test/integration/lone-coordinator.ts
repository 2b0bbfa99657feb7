// One window's sync coordinator as the integration tests drive it: alone (no Web Lock, no channel
// to other windows, no window events), online, its background pulls an hour apart so that only
// the first runs during a test.

import { SyncCoordinator, type SyncCoordinatorOptions } from '../../renderer/src/sync/coordinator/index.ts';

export function loneCoordinator(
  options: Pick<SyncCoordinatorOptions, 'db' | 'send'> & Partial<SyncCoordinatorOptions>,
): SyncCoordinator {
  return new SyncCoordinator({
    locks: null,
    channel: null,
    events: null,
    online: () => true,
    backgroundIntervalMs: 60 * 60_000,
    ...options,
  });
}
