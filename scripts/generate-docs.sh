#!/usr/bin/env bash
# Generates the committed command-line reference from the CLI itself (swift-argument-parser):
#   docs/man/glimpse.1                      the man page (the package's generate-manual plugin)
#   docs/completions/glimpse.{bash,zsh,fish} completion scripts (glimpse --generate-completion-script)
# Run it after changing a command, an option or a help text, and commit the outputs; a test checks that
# they are in step with the CLI.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -gt 0 ]; then
    echo "usage: scripts/generate-docs.sh   (writes docs/man/glimpse.1 and docs/completions/)" >&2
    exit 64
fi

./scripts/setup.sh

echo "==> docs/man/glimpse.1 (swift package plugin generate-manual)"
# The plugin builds the package (release) and its generate-manual tool (swift-argument-parser), runs
# `glimpse --experimental-dump-help` and renders one mdoc page for the command and its subcommands.
swift package plugin generate-manual --authors "the Glimpse authors"
page=".build/plugins/GenerateManual/outputs/glimpse/glimpse.1"
[ -f "$page" ] || { echo "generate-manual wrote no $page" >&2; exit 1; }
mkdir -p docs/man
# The page carries the date it was generated; keep the committed one when nothing else changed.
if [ -f docs/man/glimpse.1 ] && diff -q <(grep -v '^\.Dd ' "$page") <(grep -v '^\.Dd ' docs/man/glimpse.1) >/dev/null; then
    echo "docs/man/glimpse.1 is unchanged"
else
    cp "$page" docs/man/glimpse.1
fi

echo "==> docs/completions"
bin="$(swift build -c release --show-bin-path)/glimpse"
mkdir -p docs/completions
for shell in bash zsh fish; do
    "$bin" --generate-completion-script "$shell" >"docs/completions/glimpse.$shell"
done
echo "wrote docs/man/glimpse.1 and docs/completions/glimpse.{bash,zsh,fish}"
