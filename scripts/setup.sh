#!/usr/bin/env bash
# Installs the system packages Glimpse builds against (and curl, which the daemon tests use as a
# real client, and systemd, whose systemd-socket-activate starts the daemon in the socket-activation
# test), only when they are missing (Debian/Ubuntu). XNNPACK runs the feature-print network;
# its header includes pthreadpool.h, which libxnnpack-dev does not pull in. Graphviz draws docs/modules.svg
# (scripts/module-graph.sh).
set -euo pipefail
missing=()
for pkg in libpng-dev libjpeg-dev pkg-config curl systemd libxnnpack-dev libpthreadpool-dev graphviz; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
. "$(dirname "$0")/lib/common.sh"
apt_install "${missing[@]}"
