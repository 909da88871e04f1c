#!/usr/bin/env bash
# Stops the Ceph daemons (gateway, OSD, monitor) of one mode and keeps their data; s3.sh starts them again.
# Usage: scripts/services/s3-stop.sh <start|test>
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
source "$SERVICES_DIR/s3-lib.sh"

mode=${1:-}
select_s3_mode "$mode"
# Same lock as s3.sh: never stop a cluster while it is being made.
serialise "s3-$mode" "$@"
stop_cluster
