#!/usr/bin/env bash
# The whole suite. `npm test` (with --checks): the build, then the checks, vitest and Playwright
# side by side, then the closing line. `npm run test:suite`: the same without the checks.
#
# The end-to-end tests spend most of their time waiting (on the app's sync, on the platform's
# budget, on Chromium), not computing; vitest computes, and ends well before them. Run one after
# the other, the checks and the tests left a core idle for minutes. So the checks run beside the
# tests at the lowest priority (nice 19): they take the CPU the tests leave idle and never slow a
# test's own waits; on a quiet machine they end inside the end-to-end run.
#
# Playwright's lines stream as they come. vitest's output and the checks' are kept in files and
# printed whole once Playwright has ended, so the three never interleave. The summary reads both
# test reports (scripts/test-reports.ts) and prints the closing line; any runner or check failing
# fails the run.
set -uo pipefail
cd "$(dirname "$0")/.."

PATH="$PWD/node_modules/.bin:$PATH"
checks=0
[ "${1:-}" = --checks ] && checks=1
vitest_log="$(mktemp)"
checks_log="$(mktemp)"
trap 'rm -f "$vitest_log" "$checks_log"' EXIT

tsx scripts/test-summary.ts --start || exit 1

start=$SECONDS
# The end-to-end tests run the built app: build first (seconds), so that they never test an old one.
electron-vite build >"$checks_log" 2>&1 || {
  cat "$checks_log"
  echo "── electron-vite build: FAILED"
  exit 1
}
echo "── electron-vite build: ok, $((SECONDS - start)) s"

checks_rc=0
if [ "$checks" = 1 ]; then
  nice -n 19 bash scripts/checks.sh >"$checks_log" 2>&1 &
  checks_pid=$!
fi
(
  vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json >"$vitest_log" 2>&1
  echo "── vitest: exit $?, $((SECONDS - start)) s" >>"$vitest_log"
) &
vitest_pid=$!

playwright test
echo "── playwright: exit $?, $((SECONDS - start)) s"

wait "$vitest_pid"
cat "$vitest_log"
if [ "$checks" = 1 ]; then
  wait "$checks_pid"
  checks_rc=$?
  cat "$checks_log"
  echo "── checks: $([ "$checks_rc" = 0 ] && echo ok || echo FAILED), $((SECONDS - start)) s"
fi
if [ "$checks_rc" = 0 ]; then tsx scripts/test-summary.ts; else tsx scripts/test-summary.ts --checks-failed; fi
