#!/usr/bin/env bash
# The whole suite (npm run test:suite): vitest and Playwright side by side, then the closing line.
# The end-to-end tests spend most of their time waiting (on the app's sync, on the platform's
# budget, on Chromium), not computing; vitest computes. Run one after the other they left a core
# idle for minutes; side by side the vitest layers end inside the end-to-end run. Playwright's
# lines stream as they come; vitest's output is printed whole once Playwright has ended (it is
# kept in a file meanwhile, so the two never interleave). Either runner failing is counted by the
# summary, which reads both reports (scripts/test-reports.ts) and fails the run.
set -uo pipefail
cd "$(dirname "$0")/.."

PATH="$PWD/node_modules/.bin:$PATH"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT

tsx scripts/test-summary.ts --start || exit 1

start=$SECONDS
(
  vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json >"$log" 2>&1
  echo "── vitest: exit $?, $((SECONDS - start)) s" >>"$log"
) &
vitest_pid=$!

playwright test
echo "── playwright: exit $?, $((SECONDS - start)) s"

wait "$vitest_pid"
cat "$log"
tsx scripts/test-summary.ts
