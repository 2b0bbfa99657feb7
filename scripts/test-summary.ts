// Prints the closing line of the whole suite ("N passed, N failed") from the JSON reports of
// vitest and Playwright, and fails when either failed or ran nothing.
import { existsSync, readFileSync } from 'node:fs';

interface VitestReport {
  success: boolean;
  numTotalTests: number;
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
}
interface PlaywrightReport {
  stats: { expected: number; unexpected: number; flaky: number; skipped: number };
  errors: unknown[];
}

const read = <T>(file: string): T | null =>
  existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : null;
const vitest = read<VitestReport>('test-results/vitest.json');
const playwright = read<PlaywrightReport>('test-results/playwright.json');

const problems: string[] = [];
if (!vitest) problems.push('vitest wrote no report (it did not run)');
else if (!vitest.success) problems.push('vitest reported errors');
if (!playwright) problems.push('Playwright wrote no report (it did not run)');
else if (playwright.errors.length > 0) problems.push('Playwright reported errors outside the tests');

const passed =
  (vitest?.numPassedTests ?? 0) + (playwright ? playwright.stats.expected + playwright.stats.flaky : 0);
const failed = (vitest?.numFailedTests ?? 0) + (playwright?.stats.unexpected ?? 0);
const skipped =
  (vitest ? vitest.numPendingTests + vitest.numTodoTests : 0) + (playwright?.stats.skipped ?? 0);

for (const p of problems) console.error(`Test run problem: ${p}.`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(problems.length > 0 || failed > 0 || passed === 0 ? 1 : 0);
