#!/usr/bin/env bash
# The test command: installs missing build packages, validates docs/openapi.yaml, runs every libFuzzer
# target of Fuzz/ for a short, bounded time (scripts/fuzz.sh smoke: an AddressSanitizer release build in
# .build-fuzz, then $FUZZ_SMOKE_SECONDS, default 15, per target; a crash, leak or failed check stops
# here), then runs the whole test suite, whose summary closes the output. FUZZ_SMOKE_SECONDS=0 leaves
# the fuzz run out.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/validate-openapi.sh
seconds="${FUZZ_SMOKE_SECONDS:-15}"
[[ "$seconds" =~ ^[0-9]+$ ]] || { echo "FUZZ_SMOKE_SECONDS must be a whole number of seconds" >&2; exit 2; }
[ "$seconds" -eq 0 ] || ./scripts/fuzz.sh smoke "$seconds"
swift test --parallel
