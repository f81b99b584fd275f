#!/usr/bin/env bash
# Builds the libFuzzer targets of Fuzz/ (release, AddressSanitizer, in .build-fuzz) and runs one for
# SECONDS on a copy of its seed corpus (Fuzz/Corpus/TARGET; the copy grows, the committed one does not).
# The smoke run builds them for debugging instead ($FUZZ_CONFIGURATION overrides either): the same checks
# with assertions on, in a build that took about a third of the time (measured while the catalog still
# used the @UnionValue macro, when the sanitizer flags reached the plug-in's swift-syntax too, whose
# optimised, instrumented build dominated the release one; the fuzz package now builds none of it), at fewer
# executions per second (on one loaded machine: label-model 49/s against 749/s, http 223/s against 1,795/s,
# jpeg 4,008/s against 10,047/s).
#
#   scripts/fuzz.sh TARGET SECONDS [LIBFUZZER-FLAG...]   one target, e.g. scripts/fuzz.sh jpeg 600
#   scripts/fuzz.sh all SECONDS [LIBFUZZER-FLAG...]      every target in turn, SECONDS each
#   scripts/fuzz.sh smoke [SECONDS]                      every target in turn, SECONDS each (default 15), on a
#                                                        debug build: the bounded run the test command
#                                                        (scripts/test.sh) makes
#   scripts/fuzz.sh list                                 the target names
#
# Targets (what each feeds; the sources in Fuzz/Sources/fuzz-TARGET/main.swift say more):
#   jpeg, png            image files to ImageDecoder (libjpeg-turbo, libpng through CGlimpseCodecs)
#   cursor               continuation cursors, forged and signed, to VisualSearchQuery.page(after:)
#   catalog              catalog.json contents to Catalog(json:), then searches over the catalog
#   entity-query         property-query bodies and search text of the daemon's entity routes
#   edit-json            catalog edit bodies (place, collection, labels) to a real SQLite store, reloaded after each
#   label-model          label model files (GLMLABEL) to LabelModel.decode, then labelling
#   feature-cache        feature caches (GLVFEAT1) to FeatureCache.decode, then a VisualMatcher
#   index-file           index files (GLMPSIDX) to IndexFile.decode, then a search
#   featureprint-model   feature-print model files (GLMFPRNT) to FeaturePrintModel.decode, then XNNPACK
#   http                 a connection's raw bytes through the daemon's HTTP/1.1 handlers
#
# Prints each target's executions; exits 1 when a target crashes, leaks, times out (10 s for one input),
# runs out of memory (2 GB) or fails one of its checks, after saying where the input that did it is kept
# (.build-fuzz/artifacts/TARGET/) and where the log is (.build-fuzz/logs/TARGET.log). Reproduce with
# .build-fuzz/release/fuzz-TARGET ARTIFACT (.build-fuzz/debug/ after a smoke run; the failure says which).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/common.sh

targets=(jpeg png cursor catalog entity-query edit-json label-model feature-cache index-file featureprint-model http)

# The largest input each target is given: a little over its largest seed.
max_len() {
    case "$1" in
        cursor) echo 512 ;;
        entity-query | edit-json) echo 2048 ;;
        index-file | http) echo 4096 ;;
        catalog | feature-cache | featureprint-model) echo 8192 ;;
        jpeg | png) echo 16384 ;;
        label-model) echo 24576 ;;
    esac
}

# The comment block at the top of this file.
usage() { awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 2; }

[ $# -ge 1 ] || usage
if [ "$1" = list ]; then printf '%s\n' "${targets[@]}"; exit 0; fi
if [ "$1" = smoke ]; then
    [ $# -le 2 ] || usage
    set -- all "${2:-15}"
    export FUZZ_CONFIGURATION="${FUZZ_CONFIGURATION:-debug}"
fi
[ $# -ge 2 ] || usage
target="$1" seconds="$2"
shift 2
[[ "$seconds" =~ ^[0-9]+$ ]] && [ "$seconds" -ge 1 ] || { echo "SECONDS must be a whole number of seconds, at least 1" >&2; exit 2; }
if [ "$target" = all ]; then
    selected=("${targets[@]}")
else
    [[ " ${targets[*]} " == *" $target "* ]] || { echo "unknown target '$target'; targets: ${targets[*]}" >&2; exit 2; }
    selected=("$target")
fi

./scripts/setup.sh
fuzz_build || { echo "the fuzz build failed" >&2; exit 1; }
for name in "${selected[@]}"; do
    [ -x "$FUZZ_BIN/fuzz-$name" ] || { echo "the fuzz build left no $FUZZ_BIN/fuzz-$name" >&2; exit 1; }
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:symbolize=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
# Swift's own crash handler would read the crashed thread's stack and trip AddressSanitizer, hiding the
# trap; libFuzzer prints the stack instead.
export SWIFT_BACKTRACE=enable=no
symbolizer="$(dirname "$(command -v swiftc)")/llvm-symbolizer"
[ -x "$symbolizer" ] && export ASAN_SYMBOLIZER_PATH="$symbolizer"

failed=()
for name in "${selected[@]}"; do
    corpus="$work/$name" artifacts=".build-fuzz/artifacts/$name" log=".build-fuzz/logs/$name.log"
    mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
    cp Fuzz/Corpus/"$name"/* "$corpus"/
    status=0
    "$FUZZ_BIN/fuzz-$name" -max_total_time="$seconds" -max_len="$(max_len "$name")" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$artifacts/" "$@" "$corpus" >"$log" 2>&1 || status=$?
    runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")"
    rate="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")"
    units="$(find "$corpus" -type f | wc -l)"
    # libFuzzer's last "Done N runs in S second(s)": the time taken, which -runs=N can make shorter.
    took="$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -n 1)"
    if [ "$status" -eq 0 ]; then
        echo "fuzz $name: ${runs:-?} executions in ${took:-$seconds} s (${rate:-?}/s), corpus $units inputs: ok"
    else
        failed+=("$name")
        echo "fuzz $name: FAILED (status $status) after ${runs:-?} executions; log $log" >&2
        grep -E "^(==[0-9]+==ERROR|SUMMARY|Fatal error|.*fuzz check failed|artifact_prefix|Test unit written)" "$log" \
            | head -n 8 >&2 || true
        echo "kept inputs: $(ls -1 "$artifacts" | sed "s|^|$artifacts/|" | tr '\n' ' ')" >&2
        echo "reproduce: $FUZZ_BIN/fuzz-$name INPUT" >&2
    fi
done
[ ${#failed[@]} -eq 0 ] || { echo "fuzzing failed: ${failed[*]}" >&2; exit 1; }
