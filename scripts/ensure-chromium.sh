#!/usr/bin/env bash
# Makes Debian's Chromium present for the web explorer's browser tests (test/web-*.e2e.test.ts drive
# it with playwright-core). A no-op when it is installed; installs with apt-get otherwise (as root, or
# with sudo). PORTAL_CHROMIUM names another binary and skips the install.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/services/lib.sh"

if [[ -n ${PORTAL_CHROMIUM:-} ]]; then
  [[ -x $PORTAL_CHROMIUM ]] || die "PORTAL_CHROMIUM=$PORTAL_CHROMIUM is not an executable"
  exit 0
fi
# A font, so pages render text in screenshots; Chromium itself does not pull one in without recommends.
install_packages chromium fonts-dejavu-core
