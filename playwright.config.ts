// End-to-end tests: the browser preview in Debian's Chromium (never a browser Playwright downloads).

import { execFileSync } from 'node:child_process';
import { defineConfig } from '@playwright/test';

function chromium(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  try {
    return execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('Chromium is not installed: run `apt-get install -y chromium` (or set CHROMIUM_PATH).');
  }
}

export default defineConfig({
  testDir: 'test/e2e',
  // Waits, not assertions: a passing test takes no longer for them. Under a second load (two
  // cores shared with another run) the sign-in round trip alone took over 10 s, failing tests
  // that pass on a quiet machine; these bounds hold them at 3x that.
  timeout: 120_000,
  expect: { timeout: 30_000 },
  // Each test has its own sandbox platform and preview host (test/e2e/fixtures.ts), so tests run
  // side by side. They mostly wait (the app's sync, the platform's budget, Chromium's frames): one
  // worker used 440 s of CPU over 780 s; two workers ran the specs in 7.1 min against 10 in one,
  // with vitest beside them (scripts/suite.sh). More would crowd two cores.
  workers: 2,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  outputDir: 'test-results/playwright',
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: chromium(),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    trace: 'retain-on-failure',
    // The spinning icons (the sync status while a sync runs, pi-spin) keep Chromium drawing 60
    // frames a second, composited in software here (no GPU): with them still, the same specs used
    // a fifth less CPU (42-46 s against 34-36 s for accounts and sign-in), CPU that vitest and the
    // checks beside them need. primeicons stops them under reduced motion; nothing else changes
    // (PrimeVue's dialogs and overlays animate as for everyone, their focus after it included).
    reducedMotion: 'reduce',
  },
});
