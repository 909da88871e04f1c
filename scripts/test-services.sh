#!/usr/bin/env bash
# Smoke test of the local services: brings them up with scripts/services/up.sh, then proves PostGIS works
# in the mode's database, Redis never evicts, and the S3 gateway takes a presigned multipart upload
# (scripts/services/s3-smoke.ts). Usage: scripts/test-services.sh [start|test]   (default: test)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

mode=${1:-test}
[[ $mode == start || $mode == test ]] || {
  echo "usage: $0 [start|test]" >&2
  exit 1
}
local_redis=${REDIS_URL:+no}

bash scripts/services/up.sh "$mode"
source scripts/services/env.sh "$mode"

point=$(psql "$DATABASE_URL" -X -q -t -A -c "SELECT ST_AsText(ST_SetSRID(ST_MakePoint(7.5, 47.5), 4326))")
[[ $point == 'POINT(7.5 47.5)' ]] || {
  echo "PostGIS in $DATABASE_URL answered: $point" >&2
  exit 1
}

if [[ -z $local_redis ]]; then
  # CONFIG GET answers a two-element array: five RESP lines, the value last.
  # shellcheck disable=SC2016 # the inner script expands its own arguments
  policy=$(timeout 2 bash -c 'exec 3<>/dev/tcp/127.0.0.1/6379
    printf "CONFIG GET maxmemory-policy\r\n" >&3
    for _ in 1 2 3 4 5; do IFS= read -r line <&3; printf "%s\n" "$line"; done' | tr -d '\r' | tail -n 1)
  [[ $policy == noeviction ]] || {
    echo "Redis maxmemory-policy is '$policy', BullMQ needs noeviction" >&2
    exit 1
  }
fi

# The AWS SDK warns on Node 20 about its future support; that is not this test's news.
NODE_NO_WARNINGS=1 node --import tsx scripts/services/s3-smoke.ts
