// The Electron main process: one instance, one window loading the renderer from app://advisor-desk,
// the security checklist of DESIGN.md §4, and the Bridge served over validated IPC.

import { join } from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, Menu, protocol, session, shell } from 'electron';
import Store from 'electron-store';
import { BRIDGE_CHANNEL_NAMES } from '@shared/bridge-schema.ts';
import { sandboxProfile } from '@shared/settings.ts';
import { UPDATE_CHECK_INTERVAL_MS } from '@shared/updates.ts';
import { startupFacts } from './diagnostics/diagnostics-log.ts';
import { electronLogFile } from './diagnostics/log-file.ts';
import { removeOldOpenedCopies } from './files/opened-copies.ts';
import { APP_HOST, APP_ORIGIN, APP_SCHEME } from './ipc/sender.ts';
import { registerBridge } from './ipc/validated-ipc.ts';
import { refusedDebugSwitch } from './launch-guard.ts';
import { buildMenu } from './menu.ts';
import { serveRenderer } from './protocol.ts';
import { privateFolder } from './private-files.ts';
import { SafeStorageSecretStore } from './secret-store.ts';
import { describeAddressChange } from './settings/address-change.ts';
import { createServices, type MainServices } from './services.ts';
import { CONTENT_SECURITY_POLICY, isSafeExternalUrl, opensExternally } from './security.ts';
import { electronUpdateChecker } from './updates/electron-update-checker.ts';
import { updatePublicKey } from './updates/update-signature.ts';

// Registered before `ready`: a standard, secure scheme gives the renderer a stable origin, so
// IndexedDB data survives updates (DESIGN.md §2).
protocol.registerSchemesAsPrivileged([
  {
    scheme: APP_SCHEME,
    privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: false },
  },
]);

let mainWindow: BrowserWindow | null = null;

/** `platformBases`: the interfaces' base addresses now (a sandbox's loopback preview may open). */
function harden(platformBases: () => string[]): void {
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] },
    });
  });
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-navigate', (e) => e.preventDefault());
    contents.on('will-attach-webview', (e) => e.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      if (opensExternally(url, platformBases())) void shell.openExternal(url);
      return { action: 'deny' };
    });
  });
}

function createWindow(services: MainServices): BrowserWindow {
  const saved = services.settings.windowBounds();
  const win = new BrowserWindow({
    width: saved?.width ?? 1280,
    height: saved?.height ?? 820,
    ...(saved?.x !== undefined && saved.y !== undefined ? { x: saved.x, y: saved.y } : {}),
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Advisor Desk',
    webPreferences: {
      preload: join(import.meta.dirname, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      // No developer tools in the installed app (DESIGN.md §4): they would open the local data.
      devTools: !app.isPackaged,
      spellcheck: true,
    },
  });
  if (saved?.maximized) win.maximize();
  const remember = () => {
    if (win.isDestroyed()) return;
    services.settings.setWindowBounds({ ...win.getNormalBounds(), maximized: win.isMaximized() });
  };
  win.on('resize', remember);
  win.on('move', remember);
  win.on('close', remember);
  win.once('ready-to-show', () => win.show());
  void win.loadURL(`${APP_ORIGIN}/index.html`);
  return win;
}

/** Once Electron is ready: the services, the bridge over them, the menu and the window. */
async function startApp(): Promise<void> {
  const userData = app.getPath('userData');
  privateFolder(userData);
  const cacheDir = join(userData, 'files');
  // Copies handed to a viewer in an earlier run go once a day old (the rest go at sign-out).
  void removeOldOpenedCopies(cacheDir);
  const services = createServices({
    // settings.json is the user's alone (0600), in the app's data folder, made 0700 above.
    settingsStore: new Store({ name: 'settings', configFileMode: 0o600 }),
    secrets: await SafeStorageSecretStore.open(join(userData, 'secrets')),
    openExternal: async (url) => {
      if (!isSafeExternalUrl(url, { allowLoopbackHttp: true })) return false;
      await shell.openExternal(url);
      return true;
    },
    chooseSavePath: async (name) => {
      const result = await dialog.showSaveDialog({ defaultPath: join(app.getPath('downloads'), name) });
      return result.canceled || !result.filePath ? null : result.filePath;
    },
    // Moving the app to other servers forgets the saved sign-in: asked in a native dialog, over the window.
    confirmAddressChange: async (change) => {
      const question = describeAddressChange(change);
      const answer = mainWindow
        ? await dialog.showMessageBox(mainWindow, question)
        : await dialog.showMessageBox(question);
      return answer.response === 0;
    },
    cacheDir,
    // A private copy of the user's file (opened-copies.ts): the system's viewer for its type opens it.
    openPath: (path) => shell.openPath(path),
    // The system's place for an app's logs (~/Library/Logs/Advisor Desk, …\AppData\Roaming\Advisor Desk\logs, ~/.config/Advisor Desk/logs).
    logFile: electronLogFile(join(app.getPath('logs'), 'diagnostics.log')),
    defaultProfile: sandboxProfile(process.env.ADVISOR_SANDBOX_URL),
    // Only the installed app updates itself, and only when built with the key that verifies an
    // update's signature (electron.vite.config.ts); a development build never looks.
    ...(app.isPackaged ? updateCheck() : {}),
  });
  services.diagnostics.started(
    startupFacts(
      { appVersion: app.getVersion(), electron: process.versions.electron, chrome: process.versions.chrome },
      services.settings.profile(),
    ),
  );
  serveRenderer(protocol, join(import.meta.dirname, '../renderer'), APP_HOST);
  harden(() => {
    const { v2, v0 } = services.settings.profile();
    return [v2.baseUrl, v0.baseUrl];
  });
  registerBridge(ipcMain, BRIDGE_CHANNEL_NAMES, services.handlers);
  Menu.setApplicationMenu(buildMenu(() => mainWindow));
  mainWindow = createWindow(services);
  // Security fixes reach the installed app from the update address in the settings (off until set).
  const { updates } = services;
  if (updates) {
    const check = () => void updates.check().then((result) => services.diagnostics.updateChecked(result));
    check();
    setInterval(check, UPDATE_CHECK_INTERVAL_MS).unref();
  }
  // Exports still under way leave no temporary file beside the file the user chose.
  let exportsEnded = false;
  app.on('will-quit', (event) => {
    if (exportsEnded) return;
    event.preventDefault();
    void services.exports.cancelAll().finally(() => {
      exportsEnded = true;
      app.quit();
    });
  });
  app.on('second-instance', () => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) mainWindow = createWindow(services);
  });
}

/** The update check of the installed app, or none when this build has no update key. */
function updateCheck() {
  const key = updatePublicKey(__UPDATE_PUBLIC_KEY__);
  return key ? { updateChecker: electronUpdateChecker(key) } : { updatesUnverifiable: true };
}

function main(): void {
  // The installed app under a debugger would run another program's code as the app: quit at once.
  const debugSwitch = refusedDebugSwitch(process.argv, app.isPackaged);
  if (debugSwitch) {
    process.stderr.write(`Advisor Desk does not start with ${debugSwitch}.\n`);
    app.exit(1);
    return;
  }
  // Another instance holds the lock: it shows its window ('second-instance') and this one quits,
  // building nothing (no second settings store, secret store or bridge on the same files).
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  void app.whenReady().then(startApp);
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
}

main();
