#!/usr/bin/env bash
# The test command: installs missing build packages, then runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
swift test --parallel
