#!/usr/bin/env bash
# Makes Debian's nginx present for the gateway test (test/gateway.e2e.test.ts runs deploy/compose's
# gateway configuration in front of the test stack). A no-op when it is installed; installs with
# apt-get otherwise (as root, or with sudo). The test starts an nginx of its own on a free port; on a
# host whose init starts the package's service, that one listens on port 80, which nothing here uses.
# PORTAL_NGINX names another binary and skips the install.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/services/lib.sh"

if [[ -n ${PORTAL_NGINX:-} ]]; then
  [[ -x $PORTAL_NGINX ]] || die "PORTAL_NGINX=$PORTAL_NGINX is not an executable"
  exit 0
fi
install_packages nginx-light
