// The suite's closing line counts only reports its own run wrote: a report left by an earlier run
// (a runner whose config failed to load writes none) is a failure that says so.

import { mkdtempSync, rmSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reportFiles, startRun, summarize } from '../../../scripts/test-reports.ts';

const VITEST_OK = {
  success: true,
  numPassedTests: 10,
  numFailedTests: 0,
  numPendingTests: 1,
  numTodoTests: 0,
};
const PLAYWRIGHT_OK = { stats: { expected: 3, unexpected: 0, flaky: 0, skipped: 0 }, errors: [] };

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'test-reports-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const write = (file: string, report: unknown) => writeFileSync(file, JSON.stringify(report));
/** Sets a file's time `secondsAgo` before now, as a file left by an earlier run has. */
const age = (file: string, secondsAgo: number) => {
  const at = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(file, at, at);
};

describe("the suite's closing line", () => {
  it('counts both reports of this run', () => {
    const files = reportFiles(dir);
    startRun(dir);
    write(files.vitest, VITEST_OK);
    write(files.playwright, PLAYWRIGHT_OK);
    expect(summarize(dir)).toEqual({ line: '13 passed, 0 failed, 1 skipped', problems: [], ok: true });
  });

  it('fails a run whose tests all passed when the checks beside them failed', () => {
    const files = reportFiles(dir);
    startRun(dir);
    write(files.vitest, VITEST_OK);
    write(files.playwright, PLAYWRIGHT_OK);
    const summary = summarize(dir, { checksFailed: true });
    expect(summary.ok).toBe(false);
    expect(summary.line).toBe('13 passed, 0 failed, 1 skipped');
    expect(summary.problems).toEqual(['the checks (typecheck or lint) failed: their output is above']);
  });

  it('refuses a report older than the run: the runner that wrote none this time fails the run', () => {
    const files = reportFiles(dir);
    startRun(dir);
    write(files.vitest, VITEST_OK);
    // Playwright's config failed to load: its report is the one an earlier run left.
    write(files.playwright, PLAYWRIGHT_OK);
    age(files.playwright, 600);
    const summary = summarize(dir);
    expect(summary.ok).toBe(false);
    expect(summary.problems).toEqual([
      "Playwright's report is older than this run (left by an earlier run): Playwright did not report",
    ]);
    expect(summary.line).toBe('10 passed, 0 failed, 1 skipped');
  });

  it('fails when a runner wrote no report', () => {
    startRun(dir);
    write(reportFiles(dir).vitest, VITEST_OK);
    const summary = summarize(dir);
    expect(summary.ok).toBe(false);
    expect(summary.problems).toEqual(['Playwright wrote no report (it did not run)']);
  });

  it("fails when the run's start was not marked (a report cannot be told new from old)", () => {
    const files = reportFiles(dir);
    write(files.vitest, VITEST_OK);
    write(files.playwright, PLAYWRIGHT_OK);
    const summary = summarize(dir);
    expect(summary.ok).toBe(false);
    expect(summary.problems).toHaveLength(2);
    expect(summary.problems[0]).toMatch(/start was not marked/);
  });

  it('fails on a failed test and on a run with no test', () => {
    const files = reportFiles(dir);
    startRun(dir);
    write(files.vitest, { ...VITEST_OK, success: false, numPassedTests: 9, numFailedTests: 1 });
    write(files.playwright, PLAYWRIGHT_OK);
    expect(summarize(dir)).toMatchObject({ line: '12 passed, 1 failed, 1 skipped', ok: false });

    startRun(dir);
    write(files.vitest, { ...VITEST_OK, numPassedTests: 0, numPendingTests: 0 });
    write(files.playwright, { ...PLAYWRIGHT_OK, stats: { ...PLAYWRIGHT_OK.stats, expected: 0 } });
    expect(summarize(dir)).toMatchObject({ line: '0 passed, 0 failed', problems: [], ok: false });
  });
});

describe('the start of a run', () => {
  it("removes the last run's reports and marks the start", () => {
    const files = reportFiles(dir);
    write(files.vitest, VITEST_OK);
    write(files.playwright, PLAYWRIGHT_OK);
    startRun(dir);
    expect(existsSync(files.vitest)).toBe(false);
    expect(existsSync(files.playwright)).toBe(false);
    expect(existsSync(files.started)).toBe(true);
  });
});
