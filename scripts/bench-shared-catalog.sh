#!/usr/bin/env bash
# Several daemons on one PostgreSQL catalog, measured on this machine (release build):
#   1. propagation: EDITS edits acknowledged by daemon A, each timed until daemon B serves it (p50/p99);
#   2. throughput: CLIENTS concurrent query clients for SECONDS against one daemon, then against two;
#   3. overhead: query latency of a daemon on the PostgreSQL store against one on a SQLite store of the
#      same catalog, interleaved query by query (queries run on the in-memory snapshot either way).
# Starts a throwaway PostgreSQL cluster (scripts/lib/postgres.sh) and removes it afterwards.
#
#   scripts/bench-shared-catalog.sh [EDITS=100] [SECONDS=20] [CLIENTS=4]
set -euo pipefail
cd "$(dirname "$0")/.."
edits="${1:-100}" seconds="${2:-20}" clients="${3:-4}"
labelled="${GLIMPSE_LABELLED:-../shared/labelled/images}"
[ -d "$labelled" ] || { echo "no labelled photos at $labelled; set GLIMPSE_LABELLED" >&2; exit 2; }
. scripts/lib/common.sh
. scripts/lib/postgres.sh
swift build -c release --product glimpse >&2
glimpse="$PWD/.build/release/glimpse"
work="$(mktemp -d /tmp/glimpse-shared-bench-XXXXXX)"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill -INT "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
    postgres_stop
}
postgres_start
trap cleanup EXIT
export PGHOST="$GLIMPSE_TEST_POSTGRES" PGUSER=glimpse PGDATABASE=postgres PGSSLMODE=disable

serve() { # NAME STORE CATALOG
    XDG_CACHE_HOME="$work/cache-$1" XDG_DATA_HOME="$work/data-$1" "$glimpse" serve --socket "$work/$1.sock" \
        --store "$2" --catalog "$3" >"$work/$1.log" 2>&1 &
    pids+=($!)
    await_daemon "$work/$1.sock" "${pids[-1]}" "$work/$1.log" 1200
}
serve a postgres Images
serve b postgres "$work/no-catalog-folder"
serve s "$work/catalog.sqlite" Images
echo "daemons: a and b on PostgreSQL (b without the catalog folder), s on SQLite" >&2

# Same catalog on all three first; the edits come last.
python3 scripts/bench-shared-catalog.py overhead "$work/s.sock" "$work/a.sock" Images/photos 2
kill -INT "${pids[-1]}"
python3 scripts/bench-shared-catalog.py throughput "$seconds" "$clients" Images/photos "$work/a.sock"
python3 scripts/bench-shared-catalog.py throughput "$seconds" "$clients" Images/photos "$work/a.sock" "$work/b.sock"
python3 scripts/bench-shared-catalog.py propagation "$work/a.sock" "$work/b.sock" "$labelled" "$edits"
