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
    { role: 'viewMenu' },
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
