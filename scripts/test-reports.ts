// The whole suite's reports (tested in test/unit/suite/): where vitest and Playwright write
// them, the mark of the run's start, and the closing line judged from reports of this run only.

import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface VitestReport {
  success: boolean;
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
}
interface PlaywrightReport {
  stats: { expected: number; unexpected: number; flaky: number; skipped: number };
  errors: unknown[];
}

/** The files of one run in `dir` (test-results/ in the suite). */
export function reportFiles(dir: string) {
  return {
    started: join(dir, 'run-started'),
    vitest: join(dir, 'vitest.json'),
    playwright: join(dir, 'playwright.json'),
  };
}

/**
 * Before the run: the last run's reports go, and the start is marked (the mark's own time, on the
 * same clock as the reports' times). A runner that then writes nothing (a config that fails to
 * load) leaves no report to be counted in its place.
 */
export function startRun(dir: string): void {
  const files = reportFiles(dir);
  mkdirSync(dir, { recursive: true });
  rmSync(files.vitest, { force: true });
  rmSync(files.playwright, { force: true });
  writeFileSync(files.started, `${new Date().toISOString()}\n`);
}

type Read<T> = { report: T } | { problem: string };

/** One runner's report if this run wrote it; else what is wrong with it, in words. */
function readReport<T>(runner: string, file: string, startedMs: number | null): Read<T> {
  if (!existsSync(file)) return { problem: `${runner} wrote no report (it did not run)` };
  if (startedMs === null)
    return { problem: `the run's start was not marked, so ${runner}'s report may be an old one` };
  if (statSync(file).mtimeMs < startedMs)
    return {
      problem: `${runner}'s report is older than this run (left by an earlier run): ${runner} did not report`,
    };
  try {
    return { report: JSON.parse(readFileSync(file, 'utf8')) as T };
  } catch {
    return { problem: `${runner}'s report is not JSON` };
  }
}

export interface Summary {
  /** "N passed, N failed" (", N skipped" when some were). */
  line: string;
  problems: string[];
  ok: boolean;
}

/** The suite's closing line from the reports in `dir`, failing when either runner failed, ran nothing or did not report in this run. */
/** `checksFailed`: the checks run beside the tests (scripts/suite.sh --checks) failed. */
export function summarize(dir: string, { checksFailed = false } = {}): Summary {
  const files = reportFiles(dir);
  const startedMs = existsSync(files.started) ? statSync(files.started).mtimeMs : null;
  const v = readReport<VitestReport>('vitest', files.vitest, startedMs);
  const p = readReport<PlaywrightReport>('Playwright', files.playwright, startedMs);
  const vitest = 'report' in v ? v.report : null;
  const playwright = 'report' in p ? p.report : null;

  const problems: string[] = [];
  if ('problem' in v) problems.push(v.problem);
  else if (!v.report.success) problems.push('vitest reported errors');
  if ('problem' in p) problems.push(p.problem);
  else if (p.report.errors.length > 0) problems.push('Playwright reported errors outside the tests');
  if (checksFailed) problems.push('the checks (typecheck or lint) failed: their output is above');

  const passed =
    (vitest?.numPassedTests ?? 0) + (playwright ? playwright.stats.expected + playwright.stats.flaky : 0);
  const failed = (vitest?.numFailedTests ?? 0) + (playwright?.stats.unexpected ?? 0);
  const skipped =
    (vitest ? vitest.numPendingTests + vitest.numTodoTests : 0) + (playwright?.stats.skipped ?? 0);
  return {
    line: `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`,
    problems,
    ok: problems.length === 0 && failed === 0 && passed > 0,
  };
}
