#!/usr/bin/env bash
# The web console in a real browser: Tests/Browser/console_test.py starts the debug daemon on Images/ with
# --http on a free loopback port and an admin token, and drives Debian's headless chromium through
# chromedriver with Selenium (PyPI, pinned in scripts/console/requirements.txt, in .venv-console; with
# SE_OFFLINE=true it downloads no browser or driver). Installs chromium and chromium-driver when missing.
# Screenshots go to $CONSOLE_ARTEFACTS (default .build/console-screenshots). Part of the test command;
# bounded by $CONSOLE_TIMEOUT_SECONDS (default 900).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/common.sh
missing=()
for pkg in chromium chromium-driver; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
apt_install "${missing[@]}"
venv=.venv-console
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check -r scripts/console/requirements.txt

echo "==> building glimpse (debug) for the console test"
swift build --product glimpse
bin="$(swift build --show-bin-path)/glimpse"
artefacts="${CONSOLE_ARTEFACTS:-.build/console-screenshots}"
echo "==> the web console in headless chromium"
SE_OFFLINE=true timeout "${CONSOLE_TIMEOUT_SECONDS:-900}" \
    "$venv/bin/python" Tests/Browser/console_test.py --glimpse "$bin" --catalog Images --artefacts "$artefacts"
