#!/usr/bin/env bash
# The test command: installs missing build packages, validates docs/openapi.yaml, runs every libFuzzer
# target of Fuzz/ for a short, bounded time (scripts/fuzz.sh smoke: an AddressSanitizer debug build in
# .build-fuzz, then $FUZZ_SMOKE_SECONDS, default 15, per target; a crash, leak or failed check stops
# here), then runs the whole test suite, whose summary closes the output. FUZZ_SMOKE_SECONDS=0 leaves
# the fuzz run out. The PostgreSQL store tests run against a throwaway server started here
# (scripts/lib/postgres.sh; PostgreSQL is installed when missing) and removed on exit. The two tests that
# hold every thread of Swift's shared executor run in a `swift test` of their own before the rest.
# Before the suite, scripts/example.sh builds the App Intents example (Examples/Landmarks, a target of this package) and runs it on one photo, and
# scripts/docc.sh builds the DocC documentation and fails on any warning ($DOCC_TIMEOUT_SECONDS, default
# 1800, bounds it; DOCC=0 leaves it out), and scripts/console-test.sh drives the web console in headless
# chromium against the debug daemon (CONSOLE=0 leaves it out; screenshots in .build/console-screenshots).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/common.sh
source scripts/lib/postgres.sh
# timed STEP COMMAND...: runs a step and records how long it took; the times are printed before the suite.
timings=()
timed() {
    local name="$1" start="$SECONDS"
    shift
    "$@"
    timings+=("$name: $((SECONDS - start)) s")
}
timed setup ./scripts/setup.sh
timed openapi ./scripts/validate-openapi.sh
seconds="${FUZZ_SMOKE_SECONDS:-15}"
[[ "$seconds" =~ ^[0-9]+$ ]] || { echo "FUZZ_SMOKE_SECONDS must be a whole number of seconds" >&2; exit 2; }
[ "$seconds" -eq 0 ] || timed "fuzz build (.build-fuzz) and smoke run" ./scripts/fuzz.sh smoke "$seconds"
timed "debug build of the example (.build) and its run" ./scripts/example.sh
[ "${DOCC:-1}" = 0 ] || timed DocC ./scripts/docc.sh
[ "${CONSOLE:-1}" = 0 ] || timed "debug build of glimpse (.build) and the browser test" ./scripts/console-test.sh
timed postgres postgres_start
# The two tests that hold every thread of Swift's shared executor run first, in a process of their own:
# in the suite's process each attempt to hold them takes those threads from some 700 other tests.
held=WhileEverySharedThreadIsBlocked
held_status=0
start="$SECONDS"
swift test --filter "$held" || held_status=$?
timings+=("debug build of the tests (.build) and the two tests run alone: $((SECONDS - start)) s")
echo "==> time per step so far (the suite's own time closes the output):"
printf '    %s\n' "${timings[@]}"
# At most 16 tests at a time (Swift Testing's own setting; a value in the environment wins): started all at
# once, some 700 tests queue on the 2 threads of a 2-core machine, a task that resumes waits behind them
# (over 600 s was seen), and tests expecting an answer within 120 s lost. With 16 the suite passed in
# 847 s, against 1,050-1,442 s unbounded.
SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH="${SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH:-16}" \
  swift test --parallel --skip "$held"
if [ "$held_status" -ne 0 ]; then
  echo "the tests run on their own (swift test --filter $held) failed: see their output above" >&2
  exit "$held_status"
fi
