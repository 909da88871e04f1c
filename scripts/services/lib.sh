# shellcheck shell=bash
# Helpers shared by scripts/services/*.sh. Sourced, never run on its own.
# The scripts run on a fresh CI machine and on developer machines, so they print nothing unless
# something fails, and every step first checks whether it is already done.

SERVICES_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$SERVICES_DIR/../.." && pwd)
# The local services belong to the machine, not to one checkout: their ports are machine-wide, so two
# clones (a developer's tree and CI's fresh clone) must find and share the same daemons and locks, just
# as they share PostgreSQL and Redis. Root keeps that state in /var/lib; anyone else in the checkout.
# Ceph writes absolute paths into its config, so a relative PORTAL_DATA_DIR is resolved here once.
if [[ $(id -u) == 0 ]]; then
  default_data_dir=/var/lib/portal-catalog-service
else
  default_data_dir=$REPO_ROOT/.data
fi
DATA_DIR=$(realpath -m "${PORTAL_DATA_DIR:-$default_data_dir}")

die() {
  printf '%s: %s\n' "$(basename "$0")" "$*" >&2
  exit 1
}

# Runs a command with its output kept in a file and shows that output only when the command fails.
# A file, not a pipe: daemons that inherit it must never keep a caller's pipe (and a CI job) open.
quietly() {
  local log status=0
  log=$(mktemp)
  "$@" </dev/null >"$log" 2>&1 || status=$?
  if ((status != 0)); then
    printf '%s: failed (exit %d): %s\n' "$(basename "$0")" "$status" "$*" >&2
    tail -n 40 "$log" >&2
  fi
  rm -f "$log"
  return "$status"
}

# Polls a command until it succeeds or the deadline (seconds) passes; never a fixed sleep.
wait_until() {
  local seconds=$1
  shift
  local deadline=$((SECONDS + seconds))
  until "$@"; do
    ((SECONDS < deadline)) || return 1
    sleep 0.1
  done
}

# Serialises concurrent runs of the calling script under one lock name (two `npm test` at once must
# not both bootstrap a cluster). Call it first, with the script's arguments: it re-executes the
# script under `flock -o`, so daemons the script starts do not inherit, and keep, the lock.
serialise() {
  local name=$1
  shift
  local guard="PORTAL_SERVICES_LOCKED_${name//[^A-Za-z0-9]/_}"
  [[ -n ${!guard:-} ]] && return 0
  mkdir -p "$DATA_DIR/locks"
  export "$guard=1"
  exec flock -o "$DATA_DIR/locks/$name.lock" bash "$0" "$@"
}

# Prints those of the given Debian packages that are not installed: one dpkg-query, no apt (slow).
missing_packages() {
  (($# > 0)) || return 0
  local installed package
  installed=$(dpkg-query -W -f='${Package} ${Status}\n' "$@" 2>/dev/null | awk '$NF == "installed" { print $1 }' || true)
  for package in "$@"; do
    [[ $'\n'$installed$'\n' == *$'\n'$package$'\n'* ]] || printf '%s\n' "$package"
  done
}

# Installs whatever of the given packages is missing, with one index refresh and one install. The lock
# keeps two runs (`npm test` beside `npm start`) from meeting at dpkg's lock; `-o` keeps a service that
# a package's postinst starts from inheriting, and holding, it.
install_packages() {
  local missing
  mapfile -t missing < <(missing_packages "$@")
  ((${#missing[@]} > 0)) || return 0
  local sudo=()
  ((EUID == 0)) || sudo=(sudo)
  mkdir -p "$DATA_DIR/locks"
  "${sudo[@]}" flock -o "$DATA_DIR/locks/apt.lock" bash "$SERVICES_DIR/apt-install.sh" "${missing[@]}"
}

# Prints the HTTP status of `HEAD http://127.0.0.1:<port><path>`, or nothing when nobody answers
# within 2 s. Plain bash: curl is not guaranteed on a fresh machine.
http_head_status() {
  # shellcheck disable=SC2016 # the inner script expands its own arguments
  timeout 2 bash -c '
    exec 3<>"/dev/tcp/127.0.0.1/$0" || exit 1
    printf "HEAD %s HTTP/1.1\r\nHost: 127.0.0.1:%s\r\nConnection: close\r\n\r\n" "$1" "$0" >&3
    read -r _ status _ <&3 && printf "%s" "$status"' "$1" "$2" 2>/dev/null || true
}

# Sends one inline command to the Redis at 127.0.0.1:6379 and prints the first line of its reply.
# Plain bash, because redis-cli (redis-tools) need not be installed where a Redis already runs.
redis_command() {
  # shellcheck disable=SC2016 # the inner script expands its own arguments
  timeout 2 bash -c '
    exec 3<>/dev/tcp/127.0.0.1/6379 || exit 1
    printf "%s\r\n" "$*" >&3
    IFS= read -r reply <&3 && printf "%s" "$reply"' redis_command "$@" 2>/dev/null | tr -d '\r' || true
}

redis_answers() { [[ $(redis_command PING) == +PONG ]]; }

# True when <pid> runs <command>. Zombies do not count: PID 1 of a container may be slow to reap
# them, and they still carry their name. Reads /proc/<pid>/stat: "<pid> (<comm>) <state> ...".
process_running() {
  local pid=$1 command=$2 comm state
  [[ $pid =~ ^[0-9]+$ ]] || return 1
  read -r _ comm state _ 2>/dev/null <"/proc/$pid/stat" || return 1
  [[ $comm == "($command)" && $state != Z ]]
}

# True when the pid in <pidfile> runs <command>: after a reboot an old pid may belong to something
# else, which must be neither trusted nor killed.
pidfile_alive() {
  local pidfile=$1 command=$2 pid
  [[ -s $pidfile ]] || return 1
  read -r pid <"$pidfile" || return 1
  process_running "$pid" "$command"
}
