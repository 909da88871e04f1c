#!/usr/bin/env bash
# Makes PostgreSQL+PostGIS, Redis and the local S3 gateway present and running, from nothing or from a
# reboot; a second run is a no-op taking a fraction of a second. Prints nothing unless something fails.
# Usage: scripts/services/up.sh <start|test>
#   start: database `portal`,      S3 at http://127.0.0.1:7480 (persistent)
#   test:  database `portal_test`, S3 at http://127.0.0.1:7481 (throwaway)
# A service whose variable is set (DATABASE_URL, REDIS_URL, S3_ENDPOINT) is the caller's own: nothing
# is installed or started for it. So run this before exporting defaults for those variables.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

mode=${1:-}
case $mode in
  start) database=portal ;;
  test) database=portal_test ;;
  *) die "usage: up.sh <start|test>" ;;
esac

scripts=()
packages=()
if [[ -z ${DATABASE_URL:-} ]]; then
  scripts+=("postgres.sh $database")
  packages+=(postgresql-15-postgis-3)
fi
if [[ -z ${REDIS_URL:-} ]]; then
  scripts+=(redis.sh)
  # A Redis that answers needs no package, wherever its binary lives.
  redis_answers || command -v redis-server >/dev/null || packages+=(redis-server)
fi
if [[ -z ${S3_ENDPOINT:-} ]]; then
  scripts+=("s3.sh $mode")
  packages+=(ceph-mon ceph-osd radosgw)
fi

# apt-get update once and one install for everything: each costs seconds, whatever it installs.
install_packages "${packages[@]}"

# The services are independent, so they come up side by side; Ceph's ~3 s dominates.
pids=()
for script in "${scripts[@]}"; do
  read -r -a command <<<"$script"
  bash "$SERVICES_DIR/${command[0]}" "${command[@]:1}" &
  pids+=($!)
done
failed=0
for pid in "${pids[@]}"; do
  wait "$pid" || failed=1
done
exit "$failed"
