// Every end-to-end test gets a fresh sandbox platform and a browser-preview host pointed at it.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { startPreviewHost, type PreviewHost } from '../../electron/preview/host.ts';
import { sandboxProfile } from '../../shared/settings.ts';
import { startPlatform, type Platform } from '../platform/server.ts';

export interface Servers {
  platform: Platform;
  host: PreviewHost;
}

export const test = base.extend<{ servers: Servers }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture needs from this pattern
  servers: async ({}, use) => {
    const platform = await startPlatform({ port: 0, seed: 5, accounts: 40, rateLimit: 60 });
    const dataDir = mkdtempSync(join(tmpdir(), 'advisor-preview-'));
    const host = await startPreviewHost({
      port: 0,
      rendererDir: resolve('out/renderer'),
      dataDir,
      defaultProfile: sandboxProfile(platform.url),
    });
    await use({ platform, host });
    await host.close();
    await platform.close();
    rmSync(dataDir, { recursive: true, force: true });
  },
});

export { expect };

/** Signs in through the platform's own page, opened by the app in a new tab. */
export async function signIn(
  page: Page,
  email = 'advisor@sandbox.test',
  password = 'sandbox',
): Promise<Page> {
  const popup = page.waitForEvent('popup');
  await page.getByTestId('sign-in').click();
  const tab = await popup;
  await tab.getByLabel('Email').fill(email);
  await tab.getByLabel('Password').fill(password);
  await tab.getByRole('button', { name: 'Sign in' }).click();
  return tab;
}
