#!/usr/bin/env bash
# Builds the App Intents example, Examples/Landmarks (a target of this package, built in its .build), and
# runs its visual-intelligence query on one catalog photo; fails unless the Eiffel Tower comes first and
# its open intent runs. The test command runs this; run it alone after changing AppIntents or the engine.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product Landmarks
output="$("$(swift build --show-bin-path)/Landmarks" Images/photos/040-eiffel-tower.jpg Images)"
printf '%s\n' "$output"
first="$(printf '%s\n' "$output" | head -n 1)"
[[ "$first" == "1. Landmark eiffel-tower: Eiffel Tower — France, Europe" ]] \
    || { echo "example: expected the Eiffel Tower first, got: $first" >&2; exit 1; }
printf '%s\n' "$output" | grep -qx "Opening Eiffel Tower in France." \
    || { echo "example: the open intent did not run" >&2; exit 1; }
echo "example: Examples/Landmarks answered its query"
