// Copies the curated screenshots of the end-to-end run (test-results/screenshots/, git-ignored)
// into docs/screenshots/, which the README links. Run after `npm run test:e2e`.

import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

const FROM = 'test-results/screenshots';
const TO = 'docs/screenshots';
const SCREENS = [
  'offline-meeting-accounts-list',
  'offline-meeting-workspace-pending',
  'offline-meeting-section-form',
  'offline-meeting-refused',
  'offline-meeting-sync-panel',
  'offline-meeting-conflict',
  'income-form',
  'not-downloaded-household',
  'cash-flow',
  'prepare-meeting-progress',
  'prepare-meeting-two-ready',
  'command-palette',
  'command-palette-household',
  'export-menu',
  'meeting-summary-dialog',
  'stored-files',
  'forms-list',
  'forms-tab',
  'forms-send-dialog',
  'reports',
  'engagements-list',
  'engagements-answers',
  'engagements-preview',
  'home',
  'activity',
];

mkdirSync(TO, { recursive: true });
const missing: string[] = [];
for (const screen of SCREENS)
  for (const theme of ['light', 'dark']) {
    const name = `${screen}-${theme}.png`;
    if (existsSync(join(FROM, name))) copyFileSync(join(FROM, name), join(TO, name));
    else missing.push(name);
  }
console.log(`${SCREENS.length * 2 - missing.length} screenshots copied to ${TO}/`);
if (missing.length) {
  console.error(`missing (run the end-to-end tests first): ${missing.join(', ')}`);
  process.exitCode = 1;
}
