// The whole suite's bookends (npm run test:suite): `--start` clears the last run's reports and marks
// the start; without it, prints the closing line ("N passed, N failed") from this run's reports of
// vitest and Playwright, and fails when either failed, ran nothing or left no report of this run,
// or when `--checks-failed` says the checks run beside them (scripts/suite.sh) failed.
import { startRun, summarize } from './test-reports.ts';

const DIR = 'test-results';

if (process.argv.includes('--start')) {
  startRun(DIR);
} else {
  const summary = summarize(DIR, { checksFailed: process.argv.includes('--checks-failed') });
  for (const problem of summary.problems) console.error(`Test run problem: ${problem}.`);
  console.log(summary.line);
  process.exit(summary.ok ? 0 : 1);
}
