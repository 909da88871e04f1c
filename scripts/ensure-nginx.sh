#!/usr/bin/env bash
# Makes Debian's nginx present for the gateway test (test/gateway.e2e.test.ts runs deploy/compose's
# gateway configuration in front of the test stack). A no-op when it is installed; installs with
# apt-get otherwise (as root, or with sudo); the test starts its own nginx, not the package's service.
# PORTAL_NGINX names another binary and skips the install.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/services/lib.sh"

if [[ -n ${PORTAL_NGINX:-} ]]; then
  [[ -x $PORTAL_NGINX ]] || die "PORTAL_NGINX=$PORTAL_NGINX is not an executable"
  exit 0
fi
install_packages nginx-light
