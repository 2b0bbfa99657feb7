// The project's own command lines (npm run platform, npm run chaos) answer --help with their
// usage, and a bad option or value with one line naming it, the usage, and exit status 2: never a
// stack trace, and nothing started.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');
const run = (script: string, ...args: string[]) =>
  spawnSync(join(ROOT, 'node_modules/.bin/tsx'), [script, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });

describe.each([
  ['npm run platform', 'test/platform/main.ts', '--accounts', 'many'],
  ['npm run chaos', 'test/chaos/run.ts', '--ops', 'many'],
])('%s', (command, script, option, value) => {
  it('prints its usage for --help and exits 0', () => {
    const r = run(script, '--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`Usage: ${command} -- [options]`);
    expect(r.stdout).toContain(option);
  });

  it('refuses an unknown option by name, with the usage, and exits 2', () => {
    const r = run(script, '--bogus');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("Unknown option '--bogus'");
    expect(r.stderr).toContain(`Usage: ${command}`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses a value that is not a number, naming the option and the value', () => {
    const r = run(script, option, value);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${option} must be a number`);
    expect(r.stderr).toContain('“many”');
  });
});
