#!/usr/bin/env bash
# Builds the DocC documentation of the libraries a user imports (swift-docc-plugin's
# generate-documentation) and fails on any warning: an unresolved ``symbol`` link in a doc comment or an
# article, a bad topic, a missing page. Part of the test command (scripts/test.sh); bounded by
# $DOCC_TIMEOUT_SECONDS (default 1800: a fresh clone compiles swift-syntax for it, which took over
# 900 s on 2 busy cores; a hang still ends well inside CI's 90 minutes). The archives land in
# .build/plugins/Swift-DocC/outputs/.
#
#   scripts/docc.sh                  # the documented targets below
#   scripts/docc.sh GlimpseEngine    # only these targets
#
# To browse one: swift package --disable-sandbox preview-documentation --target GlimpseEngine
set -euo pipefail
cd "$(dirname "$0")/.."

# The targets with a Documentation.docc catalog.
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(GlimpseEngine AppIntents AppIntentsCore GlimpseImage GlimpseClient GlimpseCatalog GlimpseIntents VisualIntelligence)
seconds="${DOCC_TIMEOUT_SECONDS:-1800}"
[[ "$seconds" =~ ^[0-9]+$ ]] || { echo "DOCC_TIMEOUT_SECONDS must be a whole number of seconds" >&2; exit 2; }

arguments=()
for target in "${targets[@]}"; do arguments+=(--target "$target"); done
echo "==> DocC: ${targets[*]} (warnings are errors, at most $seconds s)"
status=0
timeout "$seconds" swift package generate-documentation "${arguments[@]}" --warnings-as-errors || status=$?
[ "$status" -ne 124 ] || { echo "DocC did not finish within $seconds s (DOCC_TIMEOUT_SECONDS)" >&2; exit 1; }
exit "$status"
