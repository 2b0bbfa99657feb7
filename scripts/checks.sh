#!/usr/bin/env bash
# The checks (npm run checks, and npm test beside the tests): typecheck (tsc, vue-tsc) and lint
# (eslint, prettier), side by side. Each is one process on one core. Each one's output is printed
# whole once all have ended, in this order, with its time; any failure fails the whole.
set -uo pipefail
cd "$(dirname "$0")/.."

PATH="$PWD/node_modules/.bin:$PATH"
logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT
names=(tsc vue-tsc eslint prettier)
declare -A commands=(
  [tsc]='tsc --noEmit -p tsconfig.json'
  [vue-tsc]='vue-tsc --noEmit -p tsconfig.web.json'
  [eslint]='eslint . --max-warnings 0'
  [prettier]='prettier --check . --log-level warn'
)

for name in "${names[@]}"; do
  (
    start=$SECONDS
    # shellcheck disable=SC2086 # each command is words without quoting.
    ${commands[$name]} >"$logs/$name.log" 2>&1
    echo "$? $((SECONDS - start))" >"$logs/$name.done"
  ) &
done
wait

failed=0
for name in "${names[@]}"; do
  read -r rc seconds <"$logs/$name.done"
  echo "── ${commands[$name]}: $([ "$rc" = 0 ] && echo ok || echo "FAILED ($rc)"), ${seconds} s"
  cat "$logs/$name.log"
  [ "$rc" = 0 ] || failed=1
done
exit "$failed"
