// The browser preview's data folder holds the settings, the diagnostics log, downloads and cached
// files: the user's alone, as the installed app's are. Folders 0700, files 0600, also when an
// earlier run left them 0755 and 0644. (POSIX modes: skipped on Windows.)

import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sandboxProfile } from '@shared/settings.ts';
import { startPreviewHost, type PreviewHost } from '../../electron/preview/host.ts';

const mode = (path: string) => statSync(path).mode & 0o777;
const dirs: string[] = [];
let host: PreviewHost | null = null;

afterEach(async () => {
  await host?.close();
  host = null;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function start(dataDir: string, root: string): Promise<PreviewHost> {
  mkdirSync(join(root, 'renderer'), { recursive: true });
  writeFileSync(join(root, 'renderer', 'preview.html'), '<!doctype html><title>t</title>');
  return startPreviewHost({
    port: 0,
    rendererDir: join(root, 'renderer'),
    dataDir,
    defaultProfile: sandboxProfile('http://127.0.0.1:9'),
  });
}

/** Resolves once `test` holds (electron-log writes its file a moment after the entry). */
async function until(test: () => boolean): Promise<void> {
  const end = Date.now() + 5000;
  while (!test()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const exists = (path: string) => {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
};

describe.skipIf(process.platform === 'win32')('the browser preview’s data folder', () => {
  it('is made 0700, with settings.json and the log 0600 and logs/ 0700', async () => {
    const root = mkdtempSync(join(tmpdir(), 'preview-modes-'));
    dirs.push(root);
    const data = join(root, '.preview-data');
    host = await start(data, root);
    await host.services.settings.setPreferences(host.services.settings.preferences());
    await until(() => exists(join(data, 'logs', 'diagnostics.log')));

    expect(mode(data)).toBe(0o700);
    expect(mode(join(data, 'settings.json'))).toBe(0o600);
    expect(mode(join(data, 'logs'))).toBe(0o700);
    expect(mode(join(data, 'logs', 'diagnostics.log'))).toBe(0o600);
  });

  it('makes private what an earlier run left readable by others', async () => {
    const root = mkdtempSync(join(tmpdir(), 'preview-modes-'));
    dirs.push(root);
    const data = join(root, '.preview-data');
    mkdirSync(join(data, 'logs'), { recursive: true, mode: 0o755 });
    writeFileSync(join(data, 'settings.json'), '{}', { mode: 0o644 });
    writeFileSync(join(data, 'logs', 'diagnostics.log'), '', { mode: 0o644 });
    writeFileSync(join(data, 'logs', 'diagnostics.old.log'), '', { mode: 0o644 });
    for (const folder of [data, join(data, 'logs')]) chmodSync(folder, 0o755);

    host = await start(data, root);

    expect(mode(data)).toBe(0o700);
    expect(mode(join(data, 'logs'))).toBe(0o700);
    expect(mode(join(data, 'settings.json'))).toBe(0o600);
    expect(mode(join(data, 'logs', 'diagnostics.log'))).toBe(0o600);
    expect(mode(join(data, 'logs', 'diagnostics.old.log'))).toBe(0o600);
  });
});
