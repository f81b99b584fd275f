#!/usr/bin/env bash
# The test command: installs missing build packages, validates docs/openapi.yaml, then runs the whole
# test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/validate-openapi.sh
swift test --parallel
