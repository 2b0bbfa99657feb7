// The Node layers share a module registry per worker (vitest.config.ts, `isolate: false`): a file
// that replaces a module with `vi.mock` would find the real one already imported by an earlier
// file, and pass or fail by the order the files ran in. Every such file runs on its own instead,
// listed in OWN_MODULES there; this test finds the ones that are not.

import { globSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OWN_MODULES } from '../../../vitest.config.ts';

const ROOT = join(import.meta.dirname, '../../..');

describe('the test files that replace a module', () => {
  it('each runs with a module registry of its own', () => {
    const nodeFiles = globSync('test/**/*.test.ts', { cwd: ROOT }).filter((f) => !f.startsWith('test/dom/'));
    const mocking = nodeFiles.filter((f) =>
      /\bvi\.(mock|doMock)\(/.test(readFileSync(join(ROOT, f), 'utf8')),
    );
    expect(mocking.sort()).toEqual([...OWN_MODULES].sort());
  });
});
