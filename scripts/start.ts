// `npm start`: the sandbox platform with sample data (kept in .platform-data/ across restarts) and
// the app connected to it: the Electron app where its program can be installed and shown,
// otherwise the same app as the browser preview, opened in the system's browser, with one line
// saying why. Since Electron 42 the electron package downloads its program on first use, not at
// `npm install`: this is where that happens.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { build } from 'electron-vite';
import { startPreviewHost } from '../electron/preview/host.ts';
import { sandboxProfile } from '@shared/settings.ts';
import { SANDBOX_PASSWORD } from '../test/platform/seed.ts';
import { startPlatform, type Platform } from '../test/platform/server.ts';
import { browserOpener, downloadFailure, hasDisplay, startMessage } from './start-output.ts';

const require = createRequire(import.meta.url);

async function platformOn(port: number): Promise<Platform> {
  try {
    return await startPlatform({ port, dataFile: resolve('.platform-data/state.json') });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    console.log(`Port ${port} is taken; the sandbox platform takes a free one instead.`);
    return startPlatform({ port: 0, dataFile: resolve('.platform-data/state.json') });
  }
}

/** The Electron program, installed first if it is missing; or why it cannot run here. */
function electronProgram(): { path: string } | { reason: string } {
  let packageDir: string;
  try {
    packageDir = dirname(require.resolve('electron/package.json'));
  } catch {
    return { reason: 'the electron package is not installed (run npm install)' };
  }
  // Where the package's own installer (install.js) puts the program and says so.
  const program = () => {
    const pathFile = join(packageDir, 'path.txt');
    if (!existsSync(pathFile)) return null;
    const path = join(packageDir, 'dist', readFileSync(pathFile, 'utf8'));
    return existsSync(path) ? path : null;
  };
  if (!program()) {
    console.log('Installing the Electron program…');
    const run = spawnSync(process.execPath, [join(packageDir, 'install.js')], {
      encoding: 'utf8',
      timeout: 300_000,
    });
    if (!program()) return { reason: downloadFailure(`${run.error?.message ?? ''}\n${run.stderr ?? ''}`) };
  }
  // Installed for when there is one; a window needs a display.
  if (!hasDisplay(process.platform, process.env)) return { reason: 'there is no display to show its window' };
  return { path: program() as string };
}

/** The same build as `npm run build`: main, preload and renderer into out/. */
async function buildApp(): Promise<void> {
  await build({ configFile: resolve('electron.vite.config.ts'), logLevel: 'warn' });
}

/** Opens the page in the system's browser where there is one; never fails when there is not. */
function openInBrowser(url: string): boolean {
  const opener = browserOpener(url, process.platform, process.env);
  if (!opener) return false;
  try {
    const child = spawn(opener.command, opener.args, { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}

const platform = await platformOn(4010);
await buildApp();
const electron = electronProgram();
const users = platform.control.dump().users.map((user) => user.email);
let stop: () => Promise<void>;

if ('path' in electron) {
  const child = spawn(electron.path, ['.'], {
    stdio: 'inherit',
    env: { ...process.env, ADVISOR_SANDBOX_URL: platform.url },
  });
  child.on('exit', () => void shutdown());
  stop = () => {
    child.kill();
    return Promise.resolve();
  };
  print({ kind: 'electron' });
} else {
  const host = await previewOn(5174);
  stop = () => host.close();
  // The address with its one-time token: whoever opens it first gets the page.
  const address = host.openUrl();
  const opened = openInBrowser(address);
  print({ kind: 'preview', url: address, whyNotElectron: electron.reason, opened });
}

function print(app: Parameters<typeof startMessage>[0]['app']): void {
  const lines = startMessage({ platformUrl: platform.url, users, password: SANDBOX_PASSWORD, app });
  console.log(lines.join('\n'));
}

async function previewOn(port: number) {
  const options = {
    rendererDir: resolve('out/renderer'),
    dataDir: resolve('.preview-data'),
    defaultProfile: sandboxProfile(platform.url),
  };
  try {
    return await startPreviewHost({ ...options, port });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    return startPreviewHost({ ...options, port: 0 });
  }
}

let closing = false;
async function shutdown(): Promise<void> {
  if (closing) return;
  closing = true;
  await stop();
  await platform.close();
  process.exit(0);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void shutdown());
