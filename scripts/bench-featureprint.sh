#!/usr/bin/env bash
# Times the feature print on one thread: Glimpse (.build/release/glimpse-featureprint-bench) against
# ONNX Runtime (PyPI wheel, from Python) on the same 224x224 inputs, in the same run, rounds alternating,
# in fp32 and in int8 (Glimpse's Models/featureprint-int8.glimpsemodel against ONNX Runtime's own static
# quantisation of the same network on the same calibration photos).
# The last line of output is JSON: {"glimpse_ms": p50, "onnxruntime_ms": p50, "ratio": glimpse/ort,
# "glimpse_int8_ms", "onnxruntime_int8_ms", "ratio_int8_vs_ort_fp32", "ratio_int8_vs_ort_int8",
# "cosine_int8_fp32_mean", "cosine_int8_fp32_min", ...}.
#
#   scripts/bench-featureprint.sh                        # builds the Swift executable first
#   scripts/bench-featureprint.sh --inputs 16 --repeat 10 --rounds 3
#   scripts/bench-featureprint.sh --glimpse none         # ONNX Runtime alone
#   scripts/bench-featureprint.sh --int8-model none      # fp32 only
#
# Uses the same venv as scripts/convert-featureprint.sh (Debian's python3-torch and python3-onnx, for the
# ONNX export; see scripts/featureprint/bench_ort.py --help) and adds onnxruntime to it with --no-deps (it needs only numpy at run time), so pip never replaces
# the system numpy or fetches torch; its quantisation tools need a newer onnx than Debian's and three small
# pure-Python wheels, added the same way (pinned, --no-deps). Environment: FEATUREPRINT_VENV (default
# .venv-featureprint), ONNXRUNTIME_VERSION (default 1.32.0).
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
if ! "$VENV/bin/python" -c 'from onnxruntime.quantization import quantize_static' >/dev/null 2>&1; then
    "$VENV/bin/pip" install --quiet --no-deps onnx==1.17.0 ml_dtypes==0.5.1 packaging==24.2 protobuf==5.29.3
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
