#!/usr/bin/env bash
# PostgreSQL outages under edits from two daemons on one catalog database (bounded: at most 5 minutes
# a run, and everything it started is stopped when it ends, however it ends).
#
# Starts a throwaway PostgreSQL cluster (scripts/lib/postgres.sh) and two `glimpse serve` on it (A fills
# the database from Images/, B starts from the database alone), then runs scripts/outage.py: one editor
# per daemon adding photos and writing collections while the database is stopped (`pg_ctl -m
# immediate`) three times for 6 s; queries and /healthz on both throughout. Afterwards each daemon gets
# SIGTERM and must exit 0 within 30 s. Prints outage.py's JSON line and the exit statuses, per run.
#
#   scripts/outage.sh [RUNS=1]
#   CONFIGURATION=debug scripts/outage.sh 3      # the debug build (default: release)
#   KEEP_LOGS=DIR scripts/outage.sh              # keep the daemons' logs in DIR
#
# Bars: every edit answered within 30 s (201/200, 202, or 503 with Retry-After), no query failure,
# both daemons degraded in every outage and ok outside, 0 acknowledged edits missing, exit statuses 0.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-1}"
configuration="${CONFIGURATION:-release}"
[[ "$runs" =~ ^[0-9]+$ ]] && [ "$runs" -ge 1 ] && [ "$runs" -le 20 ] || { echo "RUNS is 1 to 20" >&2; exit 64; }
. scripts/lib/common.sh
. scripts/lib/postgres.sh
swift build -c "$configuration" --product glimpse >&2
glimpse="$(swift build -c "$configuration" --show-bin-path)/glimpse"
work="$(mktemp -d /tmp/glimpse-outage-XXXXXX)"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
    postgres_stop
}
trap cleanup EXIT
postgres_start
export PGHOST="$GLIMPSE_TEST_POSTGRES" PGUSER=glimpse PGSSLMODE=disable
pg_ctl_data=("${POSTGRES_AS[@]}" "$POSTGRES_BIN/pg_ctl" -D "$POSTGRES_DIR/data")
stop_db="${pg_ctl_data[*]} -m immediate -w stop"
start_db="${pg_ctl_data[*]} -l $POSTGRES_DIR/server.log -w -o \"-c listen_addresses='' -k $POSTGRES_DIR -c fsync=off -c max_connections=200\" start"

# The bundled catalog, away from Models/: the daemons match on keypoints alone (no feature print, no
# label model), so that a debug build starts and takes photos quickly; what is measured is the store.
mkdir -p "$work/catalog"
cp Images/catalog.json "$work/catalog/"
ln -s "$PWD/Images/photos" "$work/catalog/photos"

serve() { # NAME CATALOG
    (cd "$work" && XDG_CACHE_HOME="$work/cache-$1" XDG_DATA_HOME="$work/data-$1" exec "$glimpse" serve \
        --socket "$work/$1.sock" --store postgres --catalog "$2" --no-featureprint --shutdown-grace 5 \
        >"$work/$1.log" 2>&1) &
    pids+=($!)
    await_daemon "$work/$1.sock" "${pids[-1]}" "$work/$1.log" 600
}

# terminate PID: SIGTERM, then sets `status` to the daemon's exit status ("hung" after 30 s, then SIGKILL).
terminate() {
    local pid="$1"
    kill -TERM "$pid"
    for _ in $(seq 1 300); do
        if ! kill -0 "$pid" 2>/dev/null || [ "$(ps -o stat= -p "$pid" 2>/dev/null | cut -c1)" = Z ]; then
            wait "$pid" && status=0 || status=$?
            return
        fi
        sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    status='"hung"'
}

for run in $(seq 1 "$runs"); do
    "$(dirname "$(readlink -f "$POSTGRES_BIN/initdb")")/createdb" -h "$POSTGRES_DIR" -U glimpse "outage$run"
    export PGDATABASE="outage$run"
    pids=()
    serve a "$work/catalog"
    serve b "$work/no-catalog-folder"
    result="$(timeout -k 5 240 python3 scripts/outage.py "$work/a.sock" "$work/b.sock" --stop "$stop_db" --start "$start_db" || echo '{"probe": "outage", "error": "outage.py failed or overran 240 s"}')"
    # The database may be left stopped by a probe that failed mid-outage.
    eval "$start_db" >/dev/null 2>&1 || true
    terminate "${pids[0]}"
    status_a="$status"
    terminate "${pids[1]}"
    status_b="$status"
    echo "${result%\}}, \"run\": $run, \"exit_status\": {\"a\": $status_a, \"b\": $status_b}}"
    grep -h "Cancellation took longer\|Fatal error\|shutdown grace over" "$work/a.log" "$work/b.log" >&2 || true
    if [ -n "${KEEP_LOGS:-}" ]; then cp "$work/a.log" "$KEEP_LOGS/outage-a-$run.log"; cp "$work/b.log" "$KEEP_LOGS/outage-b-$run.log"; fi
done
