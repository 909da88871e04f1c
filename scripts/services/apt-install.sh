#!/usr/bin/env bash
# Installs the given Debian packages with one index refresh and one install; prints only on failure.
# Run as root by install_packages (lib.sh), under its lock, with only the packages that are missing.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

# man-db re-indexes every manual page after each install while this flag file exists: ~7 s of a ~35 s
# install of service packages whose manuals nobody reads mid-run. It is set aside and always put back
# (also after an earlier run was killed halfway).
man_flag=/var/lib/man-db/auto-update
man_flag_aside=$man_flag.set-aside-by-portal
if [[ -e $man_flag_aside ]]; then mv -f "$man_flag_aside" "$man_flag"; fi
update_log=$(mktemp)
install_log=$(mktemp)
cleanup() {
  if [[ -e $man_flag_aside ]]; then mv -f "$man_flag_aside" "$man_flag"; fi
  rm -f "$update_log" "$install_log"
}
trap cleanup EXIT
if [[ -e $man_flag ]]; then mv "$man_flag" "$man_flag_aside"; fi

# Sources that cannot be reached (only Debian's archive is, in CI) make `apt-get update` fail while
# Debian's own lists refresh fine, so its output matters only when the install then fails.
apt-get update -qq >"$update_log" 2>&1 </dev/null || true
# --force-unsafe-io skips dpkg's fsyncs: a crash mid-install is redone by the next run anyway.
if ! apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=300 \
  -o Dpkg::Options::=--force-unsafe-io "$@" >"$install_log" 2>&1 </dev/null; then
  printf 'apt-get install %s failed:\n' "$*" >&2
  tail -n 30 "$install_log" >&2
  if [[ -s $update_log ]]; then
    printf 'apt-get update said:\n' >&2
    tail -n 20 "$update_log" >&2
  fi
  exit 1
fi
