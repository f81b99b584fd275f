#!/usr/bin/env bash
# Installs the system packages Glimpse builds against (and curl, which the daemon tests use as a
# real client), only when they are missing (Debian/Ubuntu). XNNPACK runs the feature-print network;
# its header includes pthreadpool.h, which libxnnpack-dev does not pull in.
set -euo pipefail
missing=()
for pkg in libpng-dev libjpeg-dev pkg-config curl libxnnpack-dev libpthreadpool-dev; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing: ${missing[*]}" >&2
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y "${missing[@]}"
fi
