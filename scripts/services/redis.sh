#!/usr/bin/env bash
# Ensures Redis answers on 127.0.0.1:6379 and never evicts keys: BullMQ loses jobs under any
# maxmemory-policy other than noeviction, and refuses to run when it sees one.
# Usage: scripts/services/redis.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
serialise redis "$@"

if ! redis_answers; then
  command -v redis-server >/dev/null || install_packages redis-server
  # The flags of the CI image's own Redis: loopback only, no snapshots or append-only file to manage.
  mkdir -p /var/lib/redis /var/log/redis
  redis_answers || quietly redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" \
    --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log
  wait_until 10 redis_answers || die "Redis does not answer on 127.0.0.1:6379 (log: /var/log/redis/ci.log)"
fi

reply=$(redis_command CONFIG SET maxmemory-policy noeviction)
[[ $reply == +OK ]] || die "CONFIG SET maxmemory-policy noeviction answered: ${reply:-nothing}"
