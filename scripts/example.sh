#!/usr/bin/env bash
# Builds the App Intents example package in Examples/Landmarks (it depends on this checkout by path) and
# runs its visual-intelligence query on one catalog photo; fails unless the Eiffel Tower comes first and
# its open intent runs. The test command runs this; run it alone after changing AppIntents or the engine.
set -euo pipefail
cd "$(dirname "$0")/../Examples/Landmarks"
# SwiftPM does not plan a path dependency again when files are only added to or removed from it, so an
# example built before such a change fails with "cannot find ... in scope". When the list of the root
# package's source files differs from the one this example was last built with, make it plan again.
mkdir -p .build
sources="$(cd ../.. && find Sources -type f | LC_ALL=C sort | cksum)"
if [[ "$(cat .build/glimpse-sources.cksum 2>/dev/null || true)" != "$sources" ]]; then
    touch Package.swift
fi
swift build --product Landmarks
printf '%s\n' "$sources" > .build/glimpse-sources.cksum
output="$(swift run --skip-build Landmarks ../../Images/photos/040-eiffel-tower.jpg ../../Images)"
printf '%s\n' "$output"
first="$(printf '%s\n' "$output" | head -n 1)"
[[ "$first" == "1. Landmark eiffel-tower: Eiffel Tower — France, Europe" ]] \
    || { echo "example: expected the Eiffel Tower first, got: $first" >&2; exit 1; }
printf '%s\n' "$output" | grep -qx "Opening Eiffel Tower in France." \
    || { echo "example: the open intent did not run" >&2; exit 1; }
echo "example: Examples/Landmarks answered its query"
