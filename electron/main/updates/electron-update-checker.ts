// The update check of the installed app: electron-updater against the generic feed set in the
// settings, downloading in the background and installing when the app quits.

import electronUpdater from 'electron-updater';
import type { UpdateChecker } from './update-service.ts';

export function electronUpdateChecker(): UpdateChecker {
  // electron-updater is CommonJS: its named exports are read from the default export.
  const { autoUpdater } = electronUpdater;
  autoUpdater.autoDownload = true;
  autoUpdater.autoInstallOnAppQuit = true;
  return {
    async check(feedUrl) {
      autoUpdater.setFeedURL({ provider: 'generic', url: feedUrl });
      await autoUpdater.checkForUpdatesAndNotify();
    },
  };
}
