#!/usr/bin/env bash
# Installs node_modules with `npm ci` when they are missing or older than package-lock.json.
# A stamp of the lock file's hash makes the warm path instant.
set -euo pipefail
cd "$(dirname "$0")/.."
stamp=node_modules/.portal-install-stamp
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [[ -f $stamp && $(cat "$stamp") == "$want" ]]; then
  exit 0
fi
echo "installing npm dependencies (npm ci)…"
npm ci --no-audit --no-fund --loglevel=error
echo "$want" >"$stamp"
