#!/usr/bin/env bash
# Times the feature print on one thread: Glimpse (.build/release/glimpse-featureprint-bench) against
# ONNX Runtime (PyPI wheel, from Python) on the same 224x224 inputs, in the same run, rounds alternating.
# The last line of output is JSON: {"glimpse_ms": p50, "onnxruntime_ms": p50, "ratio": glimpse/ort, ...}.
#
#   scripts/bench-featureprint.sh                        # builds the Swift executable first
#   scripts/bench-featureprint.sh --inputs 16 --repeat 10 --rounds 3
#   scripts/bench-featureprint.sh --glimpse none         # ONNX Runtime alone
#
# Uses the same venv as scripts/convert-featureprint.sh (Debian's python3-torch and python3-onnx, for the
# ONNX export; see scripts/featureprint/bench_ort.py --help) and adds onnxruntime to it with --no-deps (it needs only numpy at run time), so pip never replaces
# the system numpy or fetches torch. Environment: FEATUREPRINT_VENV (default .venv-featureprint),
# ONNXRUNTIME_VERSION (default 1.32.0).
set -euo pipefail
cd "$(dirname "$0")/.."

VENV="${FEATUREPRINT_VENV:-.venv-featureprint}"
ORT_VERSION="${ONNXRUNTIME_VERSION:-1.32.0}"
SYSPY=/usr/bin/python3

ort_only=0
prev=""
for arg in "$@"; do
    { [ "$prev" = "--glimpse" ] && [ "$arg" = "none" ]; } && ort_only=1
    [ "$arg" = "--glimpse=none" ] && ort_only=1
    prev="$arg"
done

if [ ! -f Models/featureprint.glimpsemodel ]; then
    echo "error: Models/featureprint.glimpsemodel is missing; run scripts/convert-featureprint.sh" >&2
    exit 1
fi

. scripts/lib/common.sh
featureprint_venv "$SYSPY" "$VENV" onnx:python3-onnx
if [ "$("$VENV/bin/python" -c 'import onnxruntime; print(onnxruntime.__version__)' 2>/dev/null)" != "$ORT_VERSION" ]; then
    "$VENV/bin/pip" install --quiet --no-deps "onnxruntime==$ORT_VERSION"
fi

if [ "$ort_only" -eq 0 ]; then
    if ! swift build -c release --product glimpse-featureprint-bench >&2; then
        echo "error: could not build the Swift product glimpse-featureprint-bench (swift build -c release" \
             "--product glimpse-featureprint-bench); pass --glimpse none to time ONNX Runtime alone" >&2
        exit 1
    fi
    if [ ! -x .build/release/glimpse-featureprint-bench ]; then
        echo "error: .build/release/glimpse-featureprint-bench is missing after the build" >&2
        exit 1
    fi
fi

export OMP_NUM_THREADS=1
exec "$VENV/bin/python" scripts/featureprint/bench_ort.py "$@"
