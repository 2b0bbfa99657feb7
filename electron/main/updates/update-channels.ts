// The Bridge's `updates` channels over the settings and the update service: the state of updates
// for the Settings screen, and saving the update address (checked by the settings service, a new
// one confirmed by the advisor there).

import type { UpdateStatus } from '@shared/updates.ts';
import type { BridgeHandlers } from '../bridge/handlers.ts';
import type { SettingsService } from '../settings/settings-service.ts';
import type { UpdateService } from './update-service.ts';

export function updateChannels(
  settings: Pick<SettingsService, 'updateFeedUrl' | 'setUpdateFeedUrl'>,
  /** Null where this copy never looks for updates (the browser preview, a development build). */
  updates: Pick<UpdateService, 'lastCheck'> | null,
  /** An installed build without the key that verifies updates (it never looks for one). */
  unverifiable = false,
): Pick<BridgeHandlers, 'updates.status' | 'updates.setFeed'> {
  const status = (): UpdateStatus => ({
    feedUrl: settings.updateFeedUrl(),
    checks: updates !== null,
    last: updates?.lastCheck() ?? null,
    ...(unverifiable ? { unverifiable: true as const } : {}),
  });
  return {
    'updates.status': () => Promise.resolve(status()),
    'updates.setFeed': async (address) => {
      const saved = await settings.setUpdateFeedUrl(address);
      return saved.ok ? { ok: true, status: status() } : saved;
    },
  };
}
