// The layers of DESIGN.md §2 are lint rules (eslint.config.js, `layers()`): a wrong import fails
// `npm run lint`. Each case lints one import, placed in a real file of the repository, with the
// project's own ESLint configuration, and says whether the layers rule fires.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: ROOT });

/** The layers rule's messages for a file at `file` (a real one: type-aware rules need it in a tsconfig) importing `spec`. */
async function layerMessages(file: string, spec: string): Promise<string[]> {
  expect(existsSync(join(ROOT, file)), `${file} is no longer there: pick another file of that layer`).toBe(
    true,
  );
  const statement = `import '${spec}';\n`;
  const code = file.endsWith('.vue')
    ? `<script setup lang="ts">\n${statement}</script>\n\n<template><div /></template>\n`
    : statement;
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
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
      'renderer/src/common/bridge.ts',
      '../../../electron/main/transport/transport.ts',
      'only through the Bridge',
    ],
    ['renderer/src/workspace/ItemDialog.vue', '../../../test/platform/server.ts', 'only through the Bridge'],
    ['renderer/src/sync/ids.ts', '../../../test/unit/data/helpers.ts', 'only through the Bridge'],
    ['renderer/src/common/bridge.ts', 'electron', 'neither Electron nor Node'],
    ['renderer/src/common/bridge.ts', '@shared/bridge.ts', null],
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
  'no component imports a view': [
    ['renderer/src/workspace/ItemDialog.vue', './AccountWorkspaceView.vue', 'is imported by the router only'],
    ['renderer/src/shell/CommandPalette.vue', '../accounts/AccountListView.vue', 'by the router only'],
    ['renderer/src/workspace/workspace.ts', '../settings/SettingsView.vue', 'by the router only'],
    ['renderer/src/workspace/ItemDialog.vue', './RecordForm.vue', null],
    ['renderer/src/shell/router.ts', '../accounts/AccountListView.vue', null],
  ],
};

describe('the layers, enforced by lint', { timeout: 120_000 }, () => {
  for (const [zone, zoneCases] of Object.entries(cases))
    it(zone, async () => {
      for (const [file, spec, says] of zoneCases) {
        const messages = await layerMessages(file, spec);
        if (says === null) expect(messages, `${file} may import ${spec}`).toEqual([]);
        else expect(messages.join('\n'), `${file} importing ${spec}`).toContain(says);
      }
    });
});
