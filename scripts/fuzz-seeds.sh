#!/usr/bin/env bash
# Rewrites the fuzz targets' seed corpora in Fuzz/Corpus/ (committed; run this after a file format changes):
#   Fuzz/Corpus/jpeg, png                 small re-encodings of four catalog photos in the variants the
#                                         decoders treat differently (scripts/fuzz/image_seeds.py, Pillow)
#   Fuzz/Corpus/<other targets>           written by the project's own encoders and writers
#                                         (Fuzz/Sources/glimpse-fuzz-seeds), from the bundled catalog
#
#   scripts/fuzz-seeds.sh
#
# Builds the fuzz package first (scripts/fuzz.sh's build, in .build-fuzz); installs Debian's python3-pil
# when the system Python lacks Pillow.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/common.sh
./scripts/setup.sh
/usr/bin/python3 -c 'import PIL' >/dev/null 2>&1 || apt_install python3-pil
fuzz_build
/usr/bin/python3 scripts/fuzz/image_seeds.py Images/photos Fuzz/Corpus
"$FUZZ_BIN/glimpse-fuzz-seeds" Fuzz/Corpus
du -sh Fuzz/Corpus
