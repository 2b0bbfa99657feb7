// The layers of DESIGN.md §2 are lint rules (the zones of eslint.layers.js, the package rules and
// the cycle rule of eslint.config.js): a wrong import fails `npm run lint`. Each case lints one
// import, placed in a file of the repository, with the project's own ESLint configuration, and
// says whether a layers rule fires.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');
const LAYER_RULES = ['no-restricted-imports', 'layers/imports', 'import-x/no-cycle'];
/**
 * The project's configuration with only the layer rules, and without type information: none of
 * them reads types, and building the TypeScript program for each case made this file the suite's
 * slowest (100 s). So a file of a folder that does not exist yet, which no tsconfig holds, is
 * linted the same way as any other.
 */
const eslint = new ESLint({
  cwd: ROOT,
  overrideConfig: { languageOptions: { parserOptions: { project: false, projectService: false } } },
  ruleFilter: ({ ruleId }) => LAYER_RULES.includes(ruleId),
});
/** Files in folders nobody placed yet (no file of the repository is there to check for). */
const NEW_FOLDERS = ['tools/', 'renderer/src/calendar/'];

/** The layer rules' messages for a file at `file` (a real one, unless in a new folder) importing `spec`. */
async function layerMessages(file: string, spec: string): Promise<string[]> {
  const unplaced = NEW_FOLDERS.some((folder) => file.startsWith(folder));
  expect(
    unplaced || existsSync(join(ROOT, file)),
    `${file} is no longer there: pick another file of that layer`,
  ).toBe(true);
  const statement = `import '${spec}';\n`;
  const code = file.endsWith('.vue')
    ? `<script setup lang="ts">\n${statement}</script>\n\n<template><div /></template>\n`
    : statement;
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, file) });
  return (result?.messages ?? []).filter((m) => LAYER_RULES.includes(m.ruleId ?? '')).map((m) => m.message);
}

/** [file, import, what the rule says (a part of its message), or null when the import is allowed]. */
type Case = [file: string, spec: string, says: string | null];

const cases: Record<string, Case[]> = {
  'shared/ imports nothing of the project': [
    ['shared/sections.ts', '../renderer/src/data/model.ts', 'shared/ imports nothing of the project'],
    ['shared/api/request.ts', '../../electron/main/transport/transport.ts', 'shared/ imports nothing'],
    ['shared/sections.ts', '../test/platform/model.ts', 'shared/ imports nothing'],
    ['shared/sections.ts', 'vue', 'no Electron, Node, DOM or Vue'],
    ['shared/sections.ts', 'electron', 'no Electron, Node, DOM or Vue'],
    ['shared/sections.ts', './finance.ts', null],
    ['shared/sections.ts', 'zod', null],
  ],
  'the renderer imports neither electron/ nor test/': [
    [
      'renderer/src/common/ago.ts',
      '../../../electron/main/transport/transport.ts',
      'only through the Bridge',
    ],
    ['renderer/src/workspace/ItemDialog.vue', '../../../test/platform/server.ts', 'only through the Bridge'],
    ['renderer/src/sync/ids.ts', '../../../test/unit/data/helpers.ts', 'only through the Bridge'],
    ['renderer/src/common/ago.ts', 'electron', 'neither Electron nor Node'],
    ['renderer/src/common/ago.ts', '@shared/bridge.ts', null],
  ],
  'the data layer imports neither the sync engine nor Vue': [
    ['renderer/src/data/db.ts', '../sync/pull/index.ts', 'beneath the sync engine'],
    ['renderer/src/data/db.ts', 'vue', 'no Vue'],
    ['renderer/src/data/db.ts', 'pinia', 'no Vue'],
    ['renderer/src/data/db.ts', '../common/sync.ts', 'beneath the features'],
    ['renderer/src/data/db.ts', 'dexie', null],
    ['renderer/src/data/db.ts', './model.ts', null],
    ['renderer/src/sync/ids.ts', '../data/db.ts', null],
    ['renderer/src/sync/ids.ts', 'vue', 'no Vue'],
  ],
  'nothing outside test/ and scripts/ imports test/platform/': [
    ['electron/main/index.ts', '../../test/platform/server.ts', 'neither the renderer nor the tests'],
    ['playwright.config.ts', './test/platform/server.ts', 'Only test/ and scripts/'],
    ['scripts/start.ts', '../test/platform/server.ts', null],
    ['test/chaos/app.ts', '../platform/server.ts', null],
  ],
  'a feature imports only what lies beneath it, and the components of a child it mounts': [
    ['renderer/src/engagements/SendButton.vue', '../workspace/ItemDialog.vue', 'A feature imports only'],
    ['renderer/src/forms/form-words.ts', '../workspace/counts.ts', 'A feature imports only'],
    ['renderer/src/accounts/QualityScore.vue', '../engagements/display.ts', 'A feature imports only'],
    ['renderer/src/workspace/ExportMenu.vue', '../reports/reports.ts', 'A feature imports only'],
    ['renderer/src/shell/areas.ts', '../calendar/calendar.ts', 'renderer/src/calendar/ is in no layer'],
    ['renderer/src/workspace/ExportMenu.vue', '../reports/AccountReportDialog.vue', null],
    ['renderer/src/engagements/SendButton.vue', '../household/userConfig.ts', null],
    ['renderer/src/accounts/QualityScore.vue', '../commands/keyboard.ts', null],
    ['renderer/src/shell/areas.ts', '../workspace/counts.ts', null],
  ],
  'what the features share imports none of them': [
    ['renderer/src/household/values.ts', '../workspace/counts.ts', 'household/ is shared by the features'],
    ['renderer/src/commands/sync-panel.ts', '../sync-status/elsewhere.ts', 'commands/ is shared'],
    ['renderer/src/export/household.ts', '../workspace/definitions.ts', 'export/ makes files'],
    ['renderer/src/export/household.ts', '../household/values.ts', null],
    ['renderer/src/household/values.ts', '../common/ago.ts', null],
  ],
  'common/ imports no feature': [
    ['renderer/src/common/ago.ts', '../export/household-export.ts', 'common/ is beneath the features'],
    ['renderer/src/common/ListTable.vue', '../accounts/BoardColumn.vue', 'common/ is beneath the features'],
    ['renderer/src/common/ago.ts', '../household/values.ts', 'common/ is beneath the features'],
    ['renderer/src/common/ago.ts', '../sync/ids.ts', null],
  ],
  'a folder in no layer fails until it is placed': [
    ['tools/probe.ts', '../test/platform/server.ts', 'tools/ is in no layer'],
    ['tools/probe.ts', '../test/unit/data/helpers.ts', 'tools/ is in no layer'],
    ['renderer/src/calendar/CalendarView.vue', '../../../test/unit/data/helpers.ts', 'is in no layer'],
    ['renderer/src/calendar/CalendarView.vue', '../common/ago.ts', 'renderer/src/calendar/ is in no layer'],
  ],
  'an import cycle fails': [
    ['renderer/src/household/workspace.ts', './coverage.ts', 'Dependency cycle'],
    ['renderer/src/workspace/RecordForm.vue', './ItemDialog.vue', 'Dependency cycle'],
    ['renderer/src/household/workspace.ts', './values.ts', null],
  ],
  'no component imports a view': [
    ['renderer/src/workspace/ItemDialog.vue', './AccountWorkspaceView.vue', 'is imported by the router only'],
    ['renderer/src/shell/CommandPalette.vue', '../accounts/AccountListView.vue', 'by the router only'],
    ['renderer/src/household/workspace.ts', '../settings/SettingsView.vue', 'by the router only'],
    ['renderer/src/workspace/ItemDialog.vue', './RecordForm.vue', null],
    ['renderer/src/shell/router.ts', '../accounts/AccountListView.vue', null],
  ],
};

describe('the layers, enforced by lint', { timeout: 240_000 }, () => {
  for (const [zone, zoneCases] of Object.entries(cases))
    it(zone, async () => {
      for (const [file, spec, says] of zoneCases) {
        const messages = await layerMessages(file, spec);
        if (says === null) expect(messages, `${file} may import ${spec}`).toEqual([]);
        else expect(messages.join('\n'), `${file} importing ${spec}`).toContain(says);
      }
    });
});
