# A throwaway PostgreSQL server for the store tests (sourced after common.sh, not run).
#
# postgres_start: finds initdb and pg_ctl (on PATH, else the newest /usr/lib/postgresql/*/bin; installs
# Debian's postgresql when neither has them), makes a cluster in a fresh mktemp -d directory with
# superuser glimpse and trust authentication, starts it listening only on a Unix socket in that
# directory (no TCP), exports GLIMPSE_TEST_POSTGRES (the socket directory) for `swift test`, and stops
# and removes it when the shell exits. initdb refuses to run as root, so as root the cluster runs as
# nobody.

postgres_bin() {
    local initdb dir
    initdb="$(command -v initdb || true)"
    if [ -n "$initdb" ] && [ -x "$(dirname "$initdb")/pg_ctl" ]; then
        dirname "$initdb"
        return 0
    fi
    for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k4 -n -r); do
        if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then
            echo "$dir"
            return 0
        fi
    done
    return 1
}

postgres_start() {
    POSTGRES_BIN="$(postgres_bin)" || { apt_install postgresql && POSTGRES_BIN="$(postgres_bin)"; } || {
        echo "PostgreSQL's initdb and pg_ctl are not installed and could not be installed" >&2
        return 1
    }
    POSTGRES_DIR="$(mktemp -d /tmp/glimpse-pg-XXXXXX)"
    POSTGRES_AS=()
    if [ "$(id -u)" -eq 0 ]; then
        chown nobody: "$POSTGRES_DIR"
        POSTGRES_AS=(runuser -u nobody --)
    fi
    trap postgres_stop EXIT
    if ! "${POSTGRES_AS[@]}" "$POSTGRES_BIN/initdb" -D "$POSTGRES_DIR/data" -U glimpse --auth=trust --no-locale \
        -E UTF8 --no-sync >"$POSTGRES_DIR/initdb.log" 2>&1; then
        cat "$POSTGRES_DIR/initdb.log" >&2
        return 1
    fi
    if ! "${POSTGRES_AS[@]}" "$POSTGRES_BIN/pg_ctl" -D "$POSTGRES_DIR/data" -l "$POSTGRES_DIR/server.log" -w \
        -o "-c listen_addresses='' -k $POSTGRES_DIR -c fsync=off -c max_connections=200" start >/dev/null; then
        cat "$POSTGRES_DIR/server.log" >&2
        return 1
    fi
    export GLIMPSE_TEST_POSTGRES="$POSTGRES_DIR"
    echo "PostgreSQL for the store tests: socket in $POSTGRES_DIR ($("$POSTGRES_BIN/postgres" --version))" >&2
}

postgres_stop() {
    [ -n "${POSTGRES_DIR:-}" ] || return 0
    "${POSTGRES_AS[@]}" "$POSTGRES_BIN/pg_ctl" -D "$POSTGRES_DIR/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$POSTGRES_DIR"
    POSTGRES_DIR=""
}
