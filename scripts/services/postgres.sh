#!/usr/bin/env bash
# Ensures the local PostgreSQL 15 (127.0.0.1:5432, user postgres, trust auth) is running, has PostGIS 3
# installed, and holds database <name> (default `portal`) with the postgis extension.
# Usage: scripts/services/postgres.sh [database]     (`portal` for npm start, `portal_test` for npm test)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

database=${1:-portal}
# The name is pasted into SQL below; a plain identifier keeps that safe without quoting rules.
[[ $database =~ ^[a-z_][a-z0-9_]{0,62}$ ]] || die "database name must be a lowercase identifier: $database"

psql_as_postgres() {
  psql -h 127.0.0.1 -p 5432 -U postgres -X -q -t -A -v ON_ERROR_STOP=1 "$@"
}

# One query proves the server runs, the database exists and PostGIS is in it: the usual case, ~40 ms.
postgis_ready=$(psql_as_postgres -d "$database" -c "SELECT 1 FROM pg_extension WHERE extname = 'postgis'" \
  2>/dev/null || true)
[[ $postgis_ready == 1 ]] && exit 0

serialise "postgres-$database" "$@"

ready() { pg_isready -h 127.0.0.1 -p 5432 -q; }

if ! ready; then
  # After a reboot without systemd nothing starts the cluster. `start` on a cluster that is merely slow
  # to accept connections fails with "already running"; the wait below is what decides.
  start_log=$(mktemp)
  pg_ctlcluster --skip-systemctl-redirect 15 main start >"$start_log" 2>&1 </dev/null || true
  if ! wait_until 30 ready; then
    cat "$start_log" >&2
    die "PostgreSQL does not accept connections on 127.0.0.1:5432"
  fi
  rm -f "$start_log"
fi

install_packages postgresql-15-postgis-3

exists=$(psql_as_postgres -d postgres -c "SELECT 1 FROM pg_database WHERE datname = '$database'")
if [[ $exists != 1 ]]; then
  quietly psql_as_postgres -d postgres -c "CREATE DATABASE $database"
fi
# Cheap when the extension exists; the notice saying so is noise.
quietly psql_as_postgres -d "$database" \
  -c 'SET client_min_messages = warning' -c 'CREATE EXTENSION IF NOT EXISTS postgis'
