// The update check of the installed app: electron-updater against the feed set in the settings,
// taking its metadata only when signed with the key built into the app (signed-feed-provider.ts),
// downloading in the background and installing when the app quits.

import electronUpdater from 'electron-updater';
import type { KeyObject } from 'node:crypto';
import { signedFeedProvider } from './signed-feed-provider.ts';
import type { UpdateChecker } from './update-service.ts';

export function electronUpdateChecker(key: KeyObject): UpdateChecker {
  // electron-updater is CommonJS: its named exports are read from the default export.
  const { autoUpdater } = electronUpdater;
  autoUpdater.autoDownload = true;
  autoUpdater.autoInstallOnAppQuit = true;
  const updateProvider = signedFeedProvider(key);
  return {
    async check(feedUrl) {
      autoUpdater.setFeedURL({ provider: 'custom', updateProvider, url: feedUrl });
      await autoUpdater.checkForUpdatesAndNotify();
    },
  };
}
