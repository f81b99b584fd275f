#!/usr/bin/env bash
# Rebuild the calibration negatives: photos of no catalog place, taken from Debian bookworm
# packages, for tuning the accept threshold ("no match" answers).
#
#   scripts/calibration/make-negatives.sh OUT [--distort PATH/TO/distort.py]
#
# Downloads the package versions listed in negatives.tsv (beside this script) with
# `apt-get download PKG=VERSION`, extracts only the listed files, resizes each photo to a long
# side of at most 1024 px (JPEG quality 90) and writes into OUT:
#   images/NNN-name.jpg   the photos
#   queries.json          manifest for `glimpse eval` (place_id null for every photo)
#   CREDITS.md            photo -> package, version, path, author, license
#   copyright/PKG.txt     each package's usr/share/doc/PKG/copyright
# With --distort, also makes camera-like copies with the project's distort.py:
#   OUT/default (--per-image 1 --seed 21) and OUT/strong (--strong --flip --seed 22).
#
# Needs apt-get and dpkg-deb (a Debian bookworm system; run `apt-get update` first if the
# versions are not found) and python3 with Pillow (numpy too for --distort).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
list="$here/negatives.tsv"

usage() { sed -n '2,18p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 2; }
[ $# -ge 1 ] || usage
out="$1"; shift
distort=""
while [ $# -gt 0 ]; do
    case "$1" in
        --distort) distort="${2:?--distort needs the path of distort.py}"; shift 2 ;;
        -h|--help) usage ;;
        *) echo "unknown argument: $1" >&2; usage ;;
    esac
done

for tool in apt-get dpkg-deb python3; do
    command -v "$tool" >/dev/null || { echo "missing $tool" >&2; exit 1; }
done
python3 -c 'import PIL' 2>/dev/null || { echo "python3 needs Pillow" >&2; exit 1; }

mkdir -p "$out"
out="$(cd "$out" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# one download and one partial extraction per package version
grep -v '^#' "$list" | cut -f1,2 | sort -u | while IFS=$'\t' read -r pkg ver; do
    echo "== $pkg $ver"
    mkdir -p "$work/deb" "$work/root/$pkg"
    (cd "$work/deb" && apt-get download -q "$pkg=$ver" >/dev/null) || {
        echo "cannot download $pkg=$ver (run apt-get update; is it still in bookworm?)" >&2; exit 1; }
    deb="$(ls "$work/deb/${pkg}_"*.deb)"
    # members to extract: the listed photos plus the copyright file
    { grep -v '^#' "$list" | awk -F'\t' -v p="$pkg" '$1 == p { print "./" $3 }'
      echo "./usr/share/doc/$pkg/copyright"; } > "$work/members"
    dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$work/root/$pkg" -T "$work/members"
    rm -f "$deb"
done

python3 "$here/negatives.py" "$list" "$work/root" "$out"

if [ -n "$distort" ]; then
    python3 "$distort" "$out/images" --out "$out/default" --per-image 1 --seed 21
    python3 "$distort" "$out/images" --out "$out/strong" --per-image 1 --strong --flip --seed 22
    python3 "$here/negatives.py" --null-places "$out/default/queries.json" "$out/strong/queries.json"
fi
echo "done: $out"
