#!/usr/bin/env bash
# Make the null prints of a feature-print network: the prints of photos of no catalog place that the
# matcher measures each catalog against to place its print-alone accept line (Models/README.md,
# "Matching with the feature print").
#
#   scripts/featureprint/make-null-prints.sh MODEL NEGATIVES [--labelled DIR] [--out FILE]
#                                            [--glimpse PATH] [--held-out DIR] [--distort PATH]
#
# MODEL      the network (Models/featureprint.glimpsemodel, or another precision's file); the prints
#            are written with its identity and refused beside any other network.
# NEGATIVES  the folder scripts/calibration/make-negatives.sh wrote (its images/ are used).
# --labelled the labelled photos (default ../shared/labelled/images beside the repository).
# --out      default: MODEL with the extension .nulls (Models/featureprint.nulls).
# --held-out also copy the other half of the photos to DIR/images, with camera-like copies in
#            DIR/default (seed 21) and DIR/strong (--strong --flip, seed 22), for measuring false
#            matches on photos the line was not calibrated on.
#
# The photos (labelled first, then negatives, each in name order) are split by position: the even
# ones are calibration nulls, the odd ones are held out. Each calibration photo gives three prints:
# the photo and two camera-like copies made with distort.py (default strength, seed 31; --strong
# --flip, seed 32). Only photos of no catalog place may go in: never the hidden-test packages'.
# Needs a built `glimpse` and python3 with Pillow and numpy.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
usage() { sed -n '2,22p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 2; }
[ $# -ge 2 ] || usage
model="$1"; negatives="$2"; shift 2
labelled="$root/../shared/labelled/images"
out="${model%.*}.nulls"
glimpse="$root/.build/release/glimpse"
distort="$root/../shared/tools/distort.py"
heldout=""
while [ $# -gt 0 ]; do
    case "$1" in
        --labelled) labelled="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --glimpse) glimpse="$2"; shift 2 ;;
        --held-out) heldout="$2"; shift 2 ;;
        --distort) distort="$2"; shift 2 ;;
        -h|--help) usage ;;
        *) echo "unknown argument: $1" >&2; usage ;;
    esac
done
[ -f "$model" ] || { echo "no model at $model" >&2; exit 1; }
[ -d "$negatives/images" ] || { echo "no $negatives/images: run scripts/calibration/make-negatives.sh first" >&2; exit 1; }
[ -d "$labelled" ] || { echo "no labelled photos at $labelled" >&2; exit 1; }
[ -x "$glimpse" ] || { echo "no glimpse at $glimpse: swift build -c release --product glimpse" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/cal" "$work/held"
i=0
while IFS= read -r photo; do
    if [ $((i % 2)) -eq 0 ]; then cp "$photo" "$work/cal/"; else cp "$photo" "$work/held/"; fi
    i=$((i + 1))
done < <( (find "$labelled" -maxdepth 1 -type f \( -iname '*.jpg' -o -iname '*.jpeg' -o -iname '*.png' \) | sort
           find "$negatives/images" -maxdepth 1 -type f \( -iname '*.jpg' -o -iname '*.jpeg' -o -iname '*.png' \) | sort) )
calibration=$(ls "$work/cal" | wc -l)
python3 "$distort" "$work/cal" --out "$work/cal-default" --per-image 1 --seed 31 >/dev/null
python3 "$distort" "$work/cal" --out "$work/cal-strong" --per-image 1 --seed 32 --strong --flip >/dev/null
rm -f "$work/cal-default/queries.json" "$work/cal-strong/queries.json"
"$glimpse" models null-prints --featureprint-model "$model" --output "$out" \
    --source "$calibration photos of no catalog place (the even half of the labelled photos and the calibration negatives), each as is and distorted twice (seeds 31, 32 --strong --flip)" \
    "$work/cal" "$work/cal-default" "$work/cal-strong"

if [ -n "$heldout" ]; then
    mkdir -p "$heldout/images"
    cp "$work/held/"* "$heldout/images/"
    python3 "$distort" "$heldout/images" --out "$heldout/default" --per-image 1 --seed 21 >/dev/null
    python3 "$distort" "$heldout/images" --out "$heldout/strong" --per-image 1 --seed 22 --strong --flip >/dev/null
    echo "held out: $(ls "$heldout/images" | wc -l) photos in $heldout (images, default, strong)"
fi
