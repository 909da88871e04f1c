#!/usr/bin/env bash
# npm test: from nothing to every test level. Installs what is missing, starts the test services,
# runs the static checks, then the unit, integration and end-to-end tests.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/ensure-dependencies.sh
# The web explorer's browser tests need its build and a Chromium.
bash scripts/ensure-web-build.sh
bash scripts/ensure-chromium.sh
# The gateway test runs deploy/compose's nginx configuration in front of the test stack.
bash scripts/ensure-nginx.sh
bash scripts/services/up.sh test
source scripts/services/env.sh test
export NODE_ENV=test LOG_LEVEL="${LOG_LEVEL:-warn}"

npm run --silent check

report=$(mktemp)
trap 'rm -f "$report"' EXIT
set +e
npx vitest run --reporter=default --reporter=json --outputFile.json="$report" "$@"
status=$?
set -e
# The closing summary counts failed files too: a file that fails to load leaves no failed test behind.
npx tsx scripts/print-test-summary.ts "$report" "$status" || true
exit "$status"
