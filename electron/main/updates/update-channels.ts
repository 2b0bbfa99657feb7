// The Bridge's `updates` channels over the settings and the update service: the state of updates
// for the Settings screen, and saving the update address (checked by the settings service).

import type { UpdateStatus } from '@shared/updates.ts';
import type { BridgeHandlers } from '../bridge/handlers.ts';
import type { SettingsService } from '../settings/settings-service.ts';
import type { UpdateService } from './update-service.ts';

export function updateChannels(
  settings: Pick<SettingsService, 'updateFeedUrl' | 'setUpdateFeedUrl'>,
  /** Null where this copy never looks for updates (the browser preview, a development build). */
  updates: Pick<UpdateService, 'lastCheck'> | null,
): Pick<BridgeHandlers, 'updates.status' | 'updates.setFeed'> {
  const status = (): UpdateStatus => ({
    feedUrl: settings.updateFeedUrl(),
    checks: updates !== null,
    last: updates?.lastCheck() ?? null,
  });
  return {
    'updates.status': () => Promise.resolve(status()),
    'updates.setFeed': (address) => {
      const saved = settings.setUpdateFeedUrl(address);
      return Promise.resolve(saved.ok ? { ok: true, status: status() } : saved);
    },
  };
}
