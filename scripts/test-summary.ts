// Prints the closing line of a test run ("N passed, N failed") from vitest's JSON report, so that
// any reader of the log sees the count without knowing vitest's own format.
import { readFileSync } from 'node:fs';

const file = process.argv[2] ?? 'test-results/vitest.json';
interface VitestReport {
  success: boolean;
  numTotalTests: number;
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
}

const report = JSON.parse(readFileSync(file, 'utf8')) as VitestReport;
const skipped = report.numPendingTests + report.numTodoTests;
console.log(
  `${report.numPassedTests} passed, ${report.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}`,
);
// `success` is false also for errors outside any test (an unhandled rejection, a file that failed to load).
process.exit(!report.success || report.numFailedTests > 0 || report.numTotalTests === 0 ? 1 : 0);
