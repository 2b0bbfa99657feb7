// What the checks skip: the bundled configs electron-vite and Vite write beside their config while
// loading it, and remove. vitest's tests that load those configs run beside ESLint and Prettier
// (scripts/suite.sh); a fresh clone's run failed when ESLint listed such a file and it was gone
// before ESLint read it.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');
const TEMPORARY = [
  'electron.vite.config.ts.1796185839967-a2dd8217cda18.mjs',
  'vite.config.ts.timestamp-1796185839967-a2dd8.mjs',
];

describe('the checks skip the build’s temporary configs', () => {
  it('ESLint ignores them', async () => {
    const eslint = new ESLint({ cwd: ROOT });
    for (const name of TEMPORARY) expect(await eslint.isPathIgnored(join(ROOT, name)), name).toBe(true);
    // …and not the config itself.
    expect(await eslint.isPathIgnored(join(ROOT, 'electron.vite.config.ts'))).toBe(false);
  });

  it('Prettier ignores them', () => {
    // `--file-info` reads .prettierignore as `prettier --check .` does.
    for (const name of TEMPORARY) {
      const info = JSON.parse(
        execFileSync(join(ROOT, 'node_modules/.bin/prettier'), ['--file-info', name], {
          cwd: ROOT,
          encoding: 'utf8',
        }),
      ) as { ignored: boolean };
      expect(info.ignored, name).toBe(true);
    }
  });
});
