// The application menu: the usual roles, plus the app's own entries.

import { app, Menu, shell, type BrowserWindow, type MenuItemConstructorOptions } from 'electron';

export function buildMenu(window: () => BrowserWindow | null): Menu {
  const isMac = process.platform === 'darwin';
  const template: MenuItemConstructorOptions[] = [
    ...(isMac ? [{ role: 'appMenu' as const }] : []),
    {
      label: 'File',
      submenu: [
        {
          label: 'Settings',
          accelerator: 'CmdOrCtrl+,',
          click: () => void window()?.webContents.executeJavaScript("location.hash = '#/settings'"),
        },
        { type: 'separator' },
        isMac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    { label: 'View', submenu: viewItems(app.isPackaged) },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [
        { label: `Advisor Desk ${app.getVersion()}`, enabled: false },
        { label: 'Open data folder', click: () => void shell.openPath(app.getPath('userData')) },
      ],
    },
  ];
  return Menu.buildFromTemplate(template);
}

/**
 * The standard View menu, except that developer tools are offered only in development: in the
 * installed app they would open the local data and the bridge to anyone at the keyboard.
 */
export function viewItems(packaged: boolean): MenuItemConstructorOptions[] {
  return [
    { role: 'reload' },
    { role: 'forceReload' },
    ...(packaged ? [] : [{ role: 'toggleDevTools' } as const]),
    { type: 'separator' },
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ];
}
