#!/usr/bin/env bash
# The app against the sandbox platform with sample data, from a fresh clone: Node 24 (scripts/node.sh),
# the packages when node_modules is missing or older than the lock, then `npm start`.
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/node.sh

# npm writes node_modules/.package-lock.json on every install: older than the lock means the lock
# changed since (a pull, a switch of branch).
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
exec npm start
