#!/usr/bin/env bash
# The full-size hostile-client attacks against the release `glimpse serve`, on a temporary Unix socket
# (nothing else is touched), each bounded in count and time; prints one JSON line of measurements per
# attack. Takes about 3 minutes (the slow-header attack alone runs DURATION seconds, default 100).
#
#   ./scripts/abuse.sh                 # all four
#   ./scripts/abuse.sh uploads early   # some of them: uploads, slowloris, early, shutdown
#   DURATION=20 ./scripts/abuse.sh slowloris
#
#   ./scripts/abuse.sh edits          # hostile catalog edits (issue: Hardening II)
#   ./scripts/abuse.sh parameters     # hostile query parameters and oversized lists
#   ./scripts/abuse.sh slots          # a flipped bit and a truncation in the keypoint slot file
#
# Bars: uploads: peak RSS <= 1 GB, every upload answered, no 503 after a complete upload;
# slowloris: every /healthz and catalog search answered in < 1 s; early: 400 and closed in < 1 s;
# shutdown: 40 answers, none empty, every 503 with Retry-After; edits: every hostile edit 4xx, 0 orphan
# photos after 30 refused edits with photos, the next normal edit 201, no answer naming a host path, and
# the daemon restarts; parameters: every probe refused with its own code, the 4,000,000 labels refused
# without decoding them, a JSON body over its limit not told to send a smaller image;
# slots: after a bit of slot 0 is flipped while the daemon is stopped, the next start
# verifies every photo with the inliers it had (health degraded, damage counter 1, one warning in the log);
# with the file emptied under the daemon, every query answered 200 and the daemon alive.
set -euo pipefail
cd "$(dirname "$0")/.."

attacks=("$@")
[ ${#attacks[@]} -eq 0 ] && attacks=(uploads slowloris early shutdown edits parameters slots)
duration="${DURATION:-100}"

swift build -c release --product glimpse >/dev/null
bin="$(swift build -c release --show-bin-path)/glimpse"

workdir="$(mktemp -d)"
sock="$workdir/glimpse.sock"
log="$workdir/serve.log"
pid=""
stop_daemon() {
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill -TERM "$pid"; wait "$pid" || true; fi
    pid=""
}
cleanup() { stop_daemon; rm -rf "$workdir"; }
trap cleanup EXIT

start_daemon() {
    "$bin" serve --socket "$sock" --catalog Images --store "$workdir/catalog.sqlite" --log-level warning "$@" >"$log" 2>&1 &
    pid=$!
    for _ in $(seq 1 600); do
        if curl -sf --unix-socket "$sock" http://glimpse/healthz >/dev/null 2>&1; then return; fi
        kill -0 "$pid" 2>/dev/null || { cat "$log"; echo "the daemon exited early" >&2; exit 1; }
        sleep 0.1
    done
    echo "the daemon did not start listening" >&2
    exit 1
}

for attack in "${attacks[@]}"; do
    case "$attack" in
    uploads)
        start_daemon
        python3 scripts/abuse.py "$sock" "$pid" uploads --count 100 --size 30000000
        stop_daemon
        ;;
    slowloris)
        start_daemon
        python3 scripts/abuse.py "$sock" "$pid" slowloris --count 300 --interval 5 --duration "$duration"
        stop_daemon
        ;;
    early)
        start_daemon
        python3 scripts/abuse.py "$sock" "$pid" early
        stop_daemon
        ;;
    shutdown)
        # Slow queries: a catalog photo as a 3000 x 2250 PNG (PNG cannot be decoded at reduced scale),
        # one query thread, a 3 s grace.
        python3 - "$workdir/slow.png" <<'EOF'
import sys
from PIL import Image
Image.open("Images/photos/004-rowing-boats-on-a-lakeshore-at-sunset.jpg").convert("RGB").resize((3000, 2250)).save(sys.argv[1])
EOF
        start_daemon --max-concurrent-queries 1 --shutdown-grace 3
        python3 scripts/abuse.py "$sock" "$pid" shutdown --count 40 --picture "$workdir/slow.png"
        wait "$pid" && echo "{\"attack\": \"shutdown\", \"exit_status\": 0}" || echo "{\"attack\": \"shutdown\", \"exit_status\": $?}"
        pid=""
        ;;
    slots)
        slotted=(--matcher-index "$workdir/matcher.index" --keypoint-slots "$workdir/keypoints.slots")
        start_daemon "${slotted[@]}"
        for _ in $(seq 1 600); do [ -f "$workdir/matcher.index" ] && break; sleep 0.1; done
        python3 scripts/abuse.py "$sock" "$pid" slots --phase whole --slots "$workdir/keypoints.slots"
        stop_daemon
        # One bit of slot 0's keypoints (past the 4,096-byte header and the slot's 16) flipped while stopped.
        python3 -c 'import sys; f = open(sys.argv[1], "r+b"); f.seek(4096 + 16 + 9); b = f.read(1)[0]; f.seek(4096 + 16 + 9); f.write(bytes([b ^ 0x10]))' "$workdir/keypoints.slots"
        start_daemon "${slotted[@]}"
        python3 scripts/abuse.py "$sock" "$pid" slots --phase flipped --slots "$workdir/keypoints.slots"
        echo "{\"attack\": \"slots\", \"damage_warnings_in_log\": $(grep -c 'a keypoint slot failed its checks' "$log" || true)}"
        python3 scripts/abuse.py "$sock" "$pid" slots --phase truncated --slots "$workdir/keypoints.slots"
        stop_daemon
        ;;
    edits)
        start_daemon
        python3 scripts/abuse.py "$sock" "$pid" edits --store-folder "$workdir"
        stop_daemon
        start_daemon
        echo "{\"attack\": \"edits\", \"restarted\": true}"
        stop_daemon
        ;;
    parameters)
        start_daemon
        python3 scripts/abuse.py "$sock" "$pid" parameters --picture Images/photos/040-eiffel-tower.jpg
        stop_daemon
        ;;
    *)
        echo "unknown attack $attack (uploads, slowloris, early, shutdown, edits, parameters, slots)" >&2
        exit 64
        ;;
    esac
done
