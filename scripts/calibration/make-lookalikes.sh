#!/usr/bin/env bash
# Build the look-alike evaluation sets for the accept line: a catalog that adds many objects of one
# kind (ship and planet renders) and a few photos of the calibration null pool to Images/, and
# queries that must match their place or, for held-back siblings of the same kinds, nothing.
#
#   scripts/calibration/make-lookalikes.sh OUT [--negatives DIR] [--labelled DIR] [--images DIR]
#                                              [--distort PATH/TO/distort.py]
#
# Reads lookalikes.tsv (beside this script): the Endless Sky sprites made places or held back, and
# the null-pool photos made places. Downloads the listed package versions with
# `apt-get download PKG=VERSION`, extracts only the listed files and writes into OUT:
#   lookalike-catalog/                 catalog folder for `glimpse eval --catalog`: Images/'s places
#                                      and photos plus the added ones (catalog.json, photos/,
#                                      CREDITS.md, copyright/)
#   lookalike-nulls/images/            the held-back siblings (photos of no place)
#   lookalike-queries-{default,strong}.json  one distort.py copy of every catalog photo, with its
#                                      place_id (default strength seed 41; --strong --flip seed 42)
#   lookalike-nulls-{default,strong}.json    one copy of every held-back sibling, place_id null
#                                      (seeds 43 and 44); the copies are in lookalike-*/{default,strong}
#   lookalike-summary.json, README.md  what was added, from where, and the eval commands
# Photos are JPEG quality 90 with a longest side of at most 1024 px; sprites go on black and are
# enlarged to 512 px. The null-pool photos are taken from make-negatives.sh's output (the very files
# make-null-prints.sh calibrates on) and must sit at even positions of its order (labelled photos,
# then negatives, each by name); the script checks this.
#
# --negatives  make-negatives.sh's output (default OUT/negatives; made there with --distort when missing)
# --labelled   the labelled photos (default ../shared/labelled/images beside the repository)
# --images     the catalog whose places are copied (default Images/ of the repository)
# --distort    default ../shared/tools/distort.py beside the repository
#
# Re-running into the same OUT rebuilds every lookalike-* output. Needs apt-get and dpkg-deb (Debian
# bookworm; run `apt-get update` first if the versions are not found) and python3 with Pillow and numpy.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
list="$here/lookalikes.tsv"

usage() { sed -n '2,32p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 2; }
[ $# -ge 1 ] || usage
out="$1"; shift
negatives=""
labelled="$root/../shared/labelled/images"
images="$root/Images"
distort="$root/../shared/tools/distort.py"
while [ $# -gt 0 ]; do
    case "$1" in
        --negatives) negatives="${2:?--negatives needs a folder}"; shift 2 ;;
        --labelled) labelled="${2:?--labelled needs a folder}"; shift 2 ;;
        --images) images="${2:?--images needs a folder}"; shift 2 ;;
        --distort) distort="${2:?--distort needs the path of distort.py}"; shift 2 ;;
        -h|--help) usage ;;
        *) echo "unknown argument: $1" >&2; usage ;;
    esac
done

for tool in apt-get dpkg-deb python3; do
    command -v "$tool" >/dev/null || { echo "missing $tool" >&2; exit 1; }
done
python3 -c 'import PIL, numpy' 2>/dev/null || { echo "python3 needs Pillow and numpy" >&2; exit 1; }
[ -f "$distort" ] || { echo "no distort.py at $distort" >&2; exit 1; }
[ -d "$labelled" ] || { echo "no labelled photos at $labelled" >&2; exit 1; }
[ -f "$images/catalog.json" ] || { echo "no catalog.json in $images" >&2; exit 1; }

mkdir -p "$out"
out="$(cd "$out" && pwd)"
[ -n "$negatives" ] || negatives="$out/negatives"
if [ ! -d "$negatives/images" ]; then
    "$here/make-negatives.sh" "$negatives" --distort "$distort"
fi
negatives="$(cd "$negatives" && pwd)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# one download and one partial extraction per package version (the pool rows come from NEGATIVES)
grep -v '^#' "$list" | awk -F'\t' '$1 != "pool" { print $2 "\t" $3 }' | sort -u | while IFS=$'\t' read -r pkg ver; do
    echo "== $pkg $ver"
    mkdir -p "$work/deb" "$work/root/$pkg"
    (cd "$work/deb" && apt-get download -q "$pkg=$ver" >/dev/null) || {
        echo "cannot download $pkg=$ver (run apt-get update; is it still in bookworm?)" >&2; exit 1; }
    deb="$(ls "$work/deb/${pkg}_"*.deb)"
    { grep -v '^#' "$list" | awk -F'\t' -v p="$pkg" '$1 != "pool" && $2 == p { print "./" $4 }'
      echo "./usr/share/doc/$pkg/copyright"; } > "$work/members"
    dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$work/root/$pkg" -T "$work/members"
    rm -f "$deb"
done

python3 "$here/lookalikes.py" build "$list" "$work/root" "$negatives" "$labelled" "$images" "$out"

rm -rf "$out/lookalike-queries" "$out/lookalike-nulls/default" "$out/lookalike-nulls/strong"
catalog="$out/lookalike-catalog"
python3 "$distort" "$catalog/photos" --catalog "$catalog/catalog.json" \
    --out "$out/lookalike-queries/default" --per-image 1 --seed 41
python3 "$distort" "$catalog/photos" --catalog "$catalog/catalog.json" \
    --out "$out/lookalike-queries/strong" --per-image 1 --strong --flip --seed 42
python3 "$distort" "$out/lookalike-nulls/images" --out "$out/lookalike-nulls/default" --per-image 1 --seed 43
python3 "$distort" "$out/lookalike-nulls/images" --out "$out/lookalike-nulls/strong" --per-image 1 --strong --flip --seed 44
python3 "$here/lookalikes.py" manifests "$out"
echo "done: $out"
