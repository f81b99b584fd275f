#!/usr/bin/env bash
# Runs test targets under the sanitizers, each sanitizer in its own debug build folder:
#
#   address   AddressSanitizer (with LeakSanitizer) over Swift and C, and UndefinedBehaviorSanitizer over the
#             package's C (Swift checks its own arithmetic and bounds), in .build-asan
#   thread    ThreadSanitizer, in .build-tsan
#
#   scripts/sanitize.sh                        both, over the default test targets
#   scripts/sanitize.sh address|thread         one of them
#   scripts/sanitize.sh SANITIZER TARGET...    only the named test targets, e.g. address GlimpseImageTests
#
# Default test targets: GlimpseImageTests (the decoders), GlimpseVisionTests, GlimpseServerTests (the daemon),
# and, under AddressSanitizer only, the ones over the other input parsers: GlimpseFilesTests, GlimpseIndexTests,
# GlimpseLabelsTests, GlimpseCatalogTests, GlimpseFeaturePrintTests.
#
# The sanitized instrument the Swift of every module and the C of the package's own C targets (the system
# libpng, libjpeg-turbo and XNNPACK are not rebuilt, so their insides are not checked). The tests see
# GLIMPSE_SANITIZER=address|thread and skip only their memory and timing measurements.
#
# Exits 1 when a build fails, a test fails, or a sanitizer reports anything (an AddressSanitizer error, a
# leak at exit, an undefined-behaviour "runtime error", a ThreadSanitizer warning), after printing the
# reports' first lines; the whole output is kept in .build-asan/logs/address.log and
# .build-tsan/logs/thread.log. A debug build under one sanitizer takes several minutes from scratch.
#
# ThreadSanitizer does not see Synchronization.Mutex on Linux (a futex with no annotations), so the daemon's
# state that every event loop and query thread shares (QueryGate's, ConnectionRegistry's) is behind NIOLock,
# a pthread mutex it follows; Benchmarks/results/2026-11-24-fuzz-and-sanitizers.md has the history.
set -euo pipefail
cd "$(dirname "$0")/.."

default_targets=(GlimpseImageTests GlimpseVisionTests GlimpseServerTests GlimpseFilesTests GlimpseIndexTests
                 GlimpseLabelsTests GlimpseCatalogTests GlimpseFeaturePrintTests)

# The comment block at the top of this file.
usage() { awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 2; }

sanitizers=(address thread)
if [ $# -ge 1 ]; then
    case "$1" in
        address | thread) sanitizers=("$1") ;;
        -h | --help | help) usage ;;
        *) echo "unknown sanitizer '$1'; choose address or thread" >&2; usage ;;
    esac
    shift
fi
explicit_targets=("$@")

./scripts/setup.sh

# Reports name source lines; Swift's own crash handler would read a crashed thread's stack through the
# sanitizer's shadow memory and hide the report, so the sanitizer prints the stack instead.
symbolizer="$(dirname "$(command -v swiftc)")/llvm-symbolizer"
[ -x "$symbolizer" ] && export ASAN_SYMBOLIZER_PATH="$symbolizer" TSAN_SYMBOLIZER_PATH="$symbolizer"
export SWIFT_BACKTRACE=enable=no
# Every report is printed; the run goes on after an undefined-behaviour or data-race report so that one
# run shows them all (an AddressSanitizer error always stops the process), and the log is searched after.
export ASAN_OPTIONS="detect_leaks=1:symbolize=1:strict_string_checks=1:detect_stack_use_after_return=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
# Leaks inside the toolchain's own libraries are suppressed, each named and explained in the file.
export LSAN_OPTIONS="suppressions=$(pwd)/scripts/lsan-suppressions.txt:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=0${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export TSAN_OPTIONS="halt_on_error=0:second_deadlock_stack=1${TSAN_OPTIONS:+:$TSAN_OPTIONS}"

# What a report starts with, for each sanitizer.
report_pattern='^(==[0-9]+==ERROR: |WARNING: ThreadSanitizer|.*: runtime error: |SUMMARY: (Address|Leak|Thread|UndefinedBehavior)Sanitizer)'

failed=()
for sanitizer in "${sanitizers[@]}"; do
    case "$sanitizer" in
        # Swift traps on overflow and out-of-range access by itself, and swiftc has no undefined-behaviour
        # sanitizer on Linux (SwiftPM's --sanitize=undefined is refused), so UBSan checks the C targets;
        # its handlers are part of the AddressSanitizer runtime that swiftc links.
        address) scratch=.build-asan flags=(--sanitize=address -Xcc -fsanitize=undefined) ;;
        thread) scratch=.build-tsan flags=(--sanitize=thread) ;;
    esac
    # ThreadSanitizer slows the CPU-bound tests (index builds, feature extraction over the catalog) 20 to
    # 50 times, so by default it runs the three concurrent parts only: decoders, vision, daemon.
    if [ ${#explicit_targets[@]} -gt 0 ]; then test_targets=("${explicit_targets[@]}")
    elif [ "$sanitizer" = thread ]; then test_targets=(GlimpseImageTests GlimpseVisionTests GlimpseServerTests)
    else test_targets=("${default_targets[@]}"); fi
    for name in "${test_targets[@]}"; do
        [ -d "Tests/$name" ] || { echo "no test target $name in Tests/" >&2; exit 2; }
    done
    filters=()
    for name in "${test_targets[@]}"; do filters+=(--filter "^$name\\."); done
    log="$scratch/logs/$sanitizer.log"
    mkdir -p "$(dirname "$log")"
    echo "sanitize $sanitizer: building and running ${test_targets[*]} (log $log)"
    started=$SECONDS
    status=0
    # The tests are Swift Testing tests; XCTest's empty run is left out (its runner leaks two objects at exit).
    GLIMPSE_SANITIZER="$sanitizer" swift test --scratch-path "$scratch" --disable-xctest "${flags[@]}" "${filters[@]}" \
        >"$log" 2>&1 \
        || status=$?
    reports="$(grep -c -E "$report_pattern" "$log" || true)"
    summary="$(grep -E "^(✔|✘|􁁛|􀢄).*Test run with" "$log" | tail -n 1 || true)"
    [ -n "$summary" ] || summary="$(grep -E "Test run with|error: " "$log" | tail -n 1 || true)"
    echo "sanitize $sanitizer: ${summary:-no test summary} ($((SECONDS - started)) s)"
    if [ "$status" -ne 0 ] || [ "$reports" -ne 0 ]; then
        failed+=("$sanitizer")
        echo "sanitize $sanitizer: FAILED (status $status, $reports report lines); log $log" >&2
        grep -E "$report_pattern" "$log" | sort | uniq -c | sort -rn | head -n 20 >&2 || true
    fi
done
[ ${#failed[@]} -eq 0 ] || { echo "sanitizers failed: ${failed[*]}" >&2; exit 1; }
echo "sanitizers: no findings"
