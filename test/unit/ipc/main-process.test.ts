// The Electron main process with Electron replaced by a recording stand-in: a second instance
// builds nothing, the installed app refuses debugging switches and offers no developer tools.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const electron = vi.hoisted(() => {
  const app = {
    isPackaged: true,
    requestSingleInstanceLock: vi.fn(() => false),
    quit: vi.fn(),
    exit: vi.fn(),
    whenReady: vi.fn(() => new Promise<void>(() => undefined)),
    on: vi.fn(),
    getVersion: () => '1.0.0',
    getPath: () => '/tmp/advisor-desk-test',
  };
  return {
    app,
    protocol: { registerSchemesAsPrivileged: vi.fn() },
    Menu: { buildFromTemplate: vi.fn((template: unknown) => ({ template })), setApplicationMenu: vi.fn() },
    BrowserWindow: vi.fn(),
    dialog: {},
    ipcMain: { handle: vi.fn() },
    session: {},
    shell: { openPath: vi.fn(), openExternal: vi.fn() },
    safeStorage: {},
  };
});
vi.mock('electron', () => ({ ...electron, default: electron }));
vi.mock('electron-store', () => ({ default: vi.fn() }));

beforeEach(() => {
  vi.resetModules();
  vi.clearAllMocks();
});

describe('single instance', () => {
  it('a second instance quits and builds nothing: no services, no bridge, no window', async () => {
    electron.app.requestSingleInstanceLock.mockReturnValue(false);
    await import('../../../electron/main/index.ts');
    expect(electron.app.quit).toHaveBeenCalledTimes(1);
    expect(electron.app.whenReady).not.toHaveBeenCalled();
    expect(electron.app.on).not.toHaveBeenCalled();
  });

  it('the first instance goes on to build the app once Electron is ready', async () => {
    electron.app.requestSingleInstanceLock.mockReturnValue(true);
    await import('../../../electron/main/index.ts');
    expect(electron.app.quit).not.toHaveBeenCalled();
    expect(electron.app.whenReady).toHaveBeenCalledTimes(1);
  });
});

describe('debugging switches', () => {
  const argv = process.argv;
  afterEach(() => {
    process.argv = argv;
    electron.app.isPackaged = true;
  });

  it('the installed app started with --remote-debugging-port quits before anything is built', async () => {
    process.argv = ['/opt/Advisor Desk/advisor-desk', '--remote-debugging-port=9222'];
    vi.spyOn(process.stderr, 'write').mockReturnValue(true);
    electron.app.requestSingleInstanceLock.mockReturnValue(true);
    await import('../../../electron/main/index.ts');
    expect(electron.app.exit).toHaveBeenCalledWith(1);
    expect(electron.app.requestSingleInstanceLock).not.toHaveBeenCalled();
    expect(electron.app.whenReady).not.toHaveBeenCalled();
  });

  it('a development build started with --inspect goes on', async () => {
    process.argv = ['/usr/bin/electron', '.', '--inspect'];
    electron.app.isPackaged = false;
    electron.app.requestSingleInstanceLock.mockReturnValue(true);
    await import('../../../electron/main/index.ts');
    expect(electron.app.exit).not.toHaveBeenCalled();
    expect(electron.app.whenReady).toHaveBeenCalledTimes(1);
  });
});

describe('the application menu', () => {
  type Item = { role?: string; label?: string; submenu?: Item[] };
  async function viewMenu(packaged: boolean): Promise<string[]> {
    electron.app.isPackaged = packaged;
    const { buildMenu } = await import('../../../electron/main/menu.ts');
    const { template } = buildMenu(() => null) as unknown as { template: Item[] };
    const view = template.find((item) => item.label === 'View' || item.role === 'viewMenu');
    expect(view, 'a View menu').toBeDefined();
    // The standard role menu includes developer tools; it must have been spelled out.
    expect(view?.role).toBeUndefined();
    return (view?.submenu ?? []).map((item) => item.role ?? item.label ?? '-');
  }

  it('offers developer tools only in development', async () => {
    expect(await viewMenu(false)).toContain('toggleDevTools');
    const installed = await viewMenu(true);
    expect(installed).not.toContain('toggleDevTools');
    expect(installed).toEqual(
      expect.arrayContaining(['reload', 'resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen']),
    );
  });
});
