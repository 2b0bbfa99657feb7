// `npm start`: the sandbox platform with sample data (kept in .platform-data/ across restarts) and
// the app connected to it: the Electron app where its program can be installed, otherwise the
// same app as the browser preview, with one line saying why.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { build } from 'electron-vite';
import { startPreviewHost } from '../electron/preview/host.ts';
import { sandboxProfile } from '../shared/settings.ts';
import { startPlatform, type Platform } from '../test/platform/server.ts';

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

/** The Electron program, installing it first if the package's download never ran; or why not. */
function electronProgram(): { path: string } | { reason: string } {
  let packageDir: string;
  try {
    packageDir = dirname(require.resolve('electron/package.json'));
  } catch {
    return { reason: 'the electron package is not installed (run npm install)' };
  }
  const installed = () => existsSync(join(packageDir, 'path.txt'));
  if (!installed()) {
    console.log('Installing the Electron program …');
    const run = spawnSync(process.execPath, [join(packageDir, 'install.js')], {
      stdio: 'ignore',
      timeout: 180_000,
    });
    if (!installed())
      return {
        reason: run.error ? run.error.message : 'its download failed (no access to its download server)',
      };
  }
  try {
    return { path: require('electron') as string };
  } catch (error) {
    return { reason: (error as Error).message.split('\n')[0] ?? 'it does not start' };
  }
}

/** The same build as `npm run build`: main, preload and renderer into out/. */
async function buildApp(): Promise<void> {
  await build({ configFile: resolve('electron.vite.config.ts'), logLevel: 'warn' });
}

const platform = await platformOn(4010);
console.log(`Sandbox platform listening on ${platform.url} (users: advisor@sandbox.test / sandbox)`);
await buildApp();
const electron = electronProgram();
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
} else {
  const host = await previewOn(5174);
  console.log(
    `Electron cannot run here (${electron.reason}); serving the same app as the browser preview: open ${host.url}`,
  );
  stop = () => host.close();
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
