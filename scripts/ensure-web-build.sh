#!/usr/bin/env bash
# Builds the web explorer (apps/web → apps/web/dist, served by the API under /app/) when its sources,
# the contracts it is typed from, or the lock file changed since the last build. A stamp of their
# hash makes the warm path take a fraction of a second. The build needs no network.
set -euo pipefail
cd "$(dirname "$0")/.."

stamp=apps/web/dist/.build-stamp
want=$(
  {
    find apps/web/src libs/contracts/src -type f -print0 | sort -z | xargs -0 sha256sum
    sha256sum apps/web/index.html apps/web/vite.config.ts apps/web/package.json apps/web/tsconfig.json package-lock.json
  } | sha256sum | cut -d' ' -f1
)
if [[ -f $stamp && $(cat "$stamp") == "$want" ]]; then
  exit 0
fi
echo "building the web explorer (apps/web)…"
npm run --silent build -w @portal/web -- --logLevel warn
echo "$want" >"$stamp"
