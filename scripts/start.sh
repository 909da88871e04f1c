#!/usr/bin/env bash
# npm start: the whole service on one machine, from nothing.
# Installs dependencies, builds the web explorer (served at /app/), makes PostgreSQL+PostGIS, Redis and the S3 server present and running, applies
# the schemas, then runs the API, the projector and the upload worker until one of them stops or Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/ensure-dependencies.sh
bash scripts/ensure-web-build.sh
bash scripts/services/up.sh start
source scripts/services/env.sh start

node --import tsx scripts/migrate.ts

pids=()
stop_all() {
  trap - INT TERM
  kill -TERM "${pids[@]}" 2>/dev/null || true
  wait "${pids[@]}" 2>/dev/null || true
}
trap 'stop_all; exit 130' INT TERM

# Each app runs in its own session, so Ctrl-C reaches only this script, which then asks each app once
# (SIGTERM) to finish its work and stop; a second signal to an app means "stop now".
# The projector's young generation (apps/projector/src/node-flags.ts): it may rebuild a read model.
setsid node --max-semi-space-size=64 --import tsx apps/projector/src/main.ts &
pids+=($!)
setsid node --import tsx apps/upload-worker/src/main.ts &
pids+=($!)
setsid node --import tsx apps/api/src/main.ts &
pids+=($!)

# When any app exits, stop the others and report its status.
set +e
wait -n "${pids[@]}"
status=$?
set -e
echo "an app stopped with status $status; stopping the others" >&2
stop_all
exit "$status"
