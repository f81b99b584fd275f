#!/usr/bin/env bash
# Builds the App Intents example package in Examples/Landmarks (it depends on this checkout by path) and
# runs its visual-intelligence query on one catalog photo; fails unless the Eiffel Tower comes first and
# its open intent runs. The test command runs this; run it alone after changing AppIntents or the engine.
set -euo pipefail
cd "$(dirname "$0")/../Examples/Landmarks"
swift build --product Landmarks
output="$(swift run --skip-build Landmarks ../../Images/photos/040-eiffel-tower.jpg ../../Images)"
printf '%s\n' "$output"
first="$(printf '%s\n' "$output" | head -n 1)"
[[ "$first" == "1. Landmark eiffel-tower: Eiffel Tower — France, Europe" ]] \
    || { echo "example: expected the Eiffel Tower first, got: $first" >&2; exit 1; }
printf '%s\n' "$output" | grep -qx "Opening Eiffel Tower in France." \
    || { echo "example: the open intent did not run" >&2; exit 1; }
echo "example: Examples/Landmarks answered its query"
