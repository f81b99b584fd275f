#!/usr/bin/env bash
# Glimpse against its peers on the same queries and catalog, in the same run, one thread each:
# `glimpse eval` over MANIFEST, then OpenCV ORB (500 keypoints at 640 px) + RANSAC, then pHash (imagehash)
# over the same queries and the catalog's reference photos. Prints per-stage p50/p99 side by side (thread
# CPU time, then the wall clock), recall@1, false matches on the queries of no place, and the ratios; the
# last line of output is JSON: {"glimpse_p50_ms", "opencv_orb_ransac_p50_ms", "glimpse_features_p50_ms",
# "opencv_orb_features_p50_ms", "speedup", "features_ratio", "recall_ratio", ...}.
#
#   scripts/bench-peers.sh MANIFEST                        # builds .build/release/glimpse first
#   scripts/bench-peers.sh MANIFEST --catalog DIR          # another catalog folder (default Images)
#   scripts/bench-peers.sh MANIFEST --opencv-inliers 15 --phash-distance 10   # fixed thresholds
#
# MANIFEST is a `glimpse eval` query manifest (a JSON array of {"query", "place_id", "labels", "ops"}), as
# distort.py (../shared/tools/) writes. By default each peer's acceptance threshold is calibrated on the
# run's null queries to let through no more of them than Glimpse did; the other options are in
# scripts/peers/bench_peers.py --help. The peers run from .venv-peers (in the repository, ignored by
# git), made with the system python3 on first use and given the pinned packages of
# scripts/peers/requirements.txt from PyPI. Environment: GLIMPSE_BIN (a glimpse executable to use
# instead of building one).
set -euo pipefail
here="$(pwd)"
cd "$(dirname "$0")/.."

VENV=.venv-peers
SYSPY=/usr/bin/python3
REQUIREMENTS=scripts/peers/requirements.txt

# The comment block at the top of this file.
usage() { awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit "${1:-2}"; }
# A path given relative to where the script was started from.
from_here() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$here/$1" ;; esac; }

[ $# -ge 1 ] || usage
case "$1" in -h | --help) usage 0 ;; -*) usage ;; esac
manifest="$(from_here "$1")"
shift
[ -f "$manifest" ] || { echo "error: no query manifest at $manifest" >&2; exit 1; }
args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --catalog) [ $# -ge 2 ] || usage; args+=(--catalog "$(from_here "$2")"); shift 2 ;;
        --catalog=*) args+=(--catalog "$(from_here "${1#--catalog=}")"); shift ;;
        --glimpse | --glimpse=*) echo "error: set GLIMPSE_BIN to choose the glimpse executable" >&2; exit 2 ;;
        *) args+=("$1"); shift ;;
    esac
done

. scripts/lib/common.sh

# The glimpse executable: $GLIMPSE_BIN, else a release build of this checkout.
if [ -n "${GLIMPSE_BIN:-}" ]; then
    glimpse="$(from_here "$GLIMPSE_BIN")"
    [ -x "$glimpse" ] || { echo "error: GLIMPSE_BIN=$GLIMPSE_BIN is not an executable file" >&2; exit 1; }
else
    if ! swift build -c release --product glimpse >&2; then
        echo "error: could not build glimpse (swift build -c release --product glimpse)" >&2
        exit 1
    fi
    glimpse="$PWD/.build/release/glimpse"
fi

# The venv, with the pinned packages (pip runs only when one is missing or at another version).
"$SYSPY" -c 'import ensurepip, venv' >/dev/null 2>&1 || apt_install python3-venv
[ -x "$VENV/bin/python" ] || "$SYSPY" -m venv "$VENV"
pinned_present() {
    "$VENV/bin/python" - "$REQUIREMENTS" <<'PY'
import sys
from importlib.metadata import PackageNotFoundError, version
for line in open(sys.argv[1]):
    line = line.split("#")[0].strip()
    if not line:
        continue
    name, _, wanted = line.partition("==")
    try:
        if version(name) != wanted:
            sys.exit(1)
    except PackageNotFoundError:
        sys.exit(1)
PY
}
if ! pinned_present; then
    echo "installing the peers' pinned packages ($REQUIREMENTS) into $VENV" >&2
    if ! "$VENV/bin/pip" install --quiet --disable-pip-version-check -r "$REQUIREMENTS" >&2; then
        echo "error: pip could not install the packages of $REQUIREMENTS into $VENV; PyPI must be reachable" \
             "(pip's messages above say why it failed)" >&2
        exit 1
    fi
fi

# One thread each: OpenCV's own pool (cv2.setNumThreads(1) in the script) and any OpenMP or BLAS pool.
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 NUMEXPR_NUM_THREADS=1
exec "$VENV/bin/python" scripts/peers/bench_peers.py "$manifest" --glimpse "$glimpse" "${args[@]}"
