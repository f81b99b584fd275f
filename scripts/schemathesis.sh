#!/usr/bin/env bash
# Property-based API checks: builds glimpse (release), starts the daemon on the bundled Images/ catalog
# over a temporary socket, and runs schemathesis (PyPI) against it with docs/openapi.yaml. schemathesis
# speaks TCP only, so socat forwards 127.0.0.1:PORT to the socket for the length of the run. Fails
# when any answer is a 5xx or does not match the spec (status, content type, headers, body schema).
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
    cat <<'USAGE'
usage: scripts/schemathesis.sh [--max-examples N] [--seed N] [--max-time SECONDS]

  --max-examples N    test cases per operation and phase (default 50)
  --seed N            the generator's seed, to repeat a run (default 1)
  --max-time SECONDS  time budget of the schemathesis run (default 600)
USAGE
}

max_examples=50
seed=1
max_time=600
while [ $# -gt 0 ]; do
    case "$1" in
        --max-examples) max_examples="$2"; shift 2 ;;
        --seed) seed="$2"; shift 2 ;;
        --max-time) max_time="$2"; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; exit 64 ;;
    esac
done

./scripts/setup.sh
. scripts/lib/common.sh
dpkg -s socat >/dev/null 2>&1 || apt_install socat
openapi_venv scripts/openapi/requirements.txt scripts/openapi/requirements-schemathesis.txt

echo "==> building glimpse (release)"
swift build -c release --product glimpse
bin="$(swift build -c release --show-bin-path)/glimpse"

workdir="$(mktemp -d)"
sock="$workdir/glimpse.sock"
log="$workdir/serve.log"
pid=""
forwarder=""
cleanup() {
    [ -n "$forwarder" ] && kill "$forwarder" 2>/dev/null && wait "$forwarder" 2>/dev/null || true
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill -TERM "$pid"; wait "$pid" || true; fi
    rm -rf "$workdir"
}
trap cleanup EXIT

echo "==> glimpse serve --socket $sock --catalog Images"
"$bin" serve --socket "$sock" --catalog Images >"$log" 2>&1 &
pid=$!
for _ in $(seq 1 600); do
    curl -sf --unix-socket "$sock" http://glimpse/healthz >/dev/null 2>&1 && break
    kill -0 "$pid" 2>/dev/null || { cat "$log"; echo "the daemon exited early" >&2; exit 1; }
    sleep 0.1
done

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
socat "TCP-LISTEN:$port,bind=127.0.0.1,reuseaddr,fork" "UNIX-CONNECT:$sock" &
forwarder=$!
for _ in $(seq 1 100); do
    curl -sf "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
    sleep 0.1
done

echo "==> schemathesis: docs/openapi.yaml against 127.0.0.1:$port (forwarded to the socket)"
status=0
timeout "$((max_time + 120))" .venv-openapi/bin/schemathesis run docs/openapi.yaml \
    --url "http://127.0.0.1:$port" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance \
    --max-examples "$max_examples" --seed "$seed" --max-time "$max_time" --workers 2 \
    --generation-database none --no-color \
    --report junit --report-junit-path "$workdir/junit.xml" || status=$?

echo
echo "==> summary"
python3 - "$workdir/junit.xml" <<'PY'
import sys, xml.etree.ElementTree as ET
try:
    root = ET.parse(sys.argv[1]).getroot()
except (OSError, ET.ParseError):
    print("no report written"); sys.exit(0)
suites = [root] if root.tag == "testsuite" else root.findall("testsuite")
count = lambda key: sum(int(s.get(key, 0)) for s in suites)
print(f"operations tested: {count('tests')}, failed: {count('failures')}, errors: {count('errors')}, skipped: {count('skipped')}")
PY
failed_requests="$(grep -c '"request failed"\|request failed' "$log" || true)"
echo "daemon log: $failed_requests request(s) logged as failed (5xx)"
kill -TERM "$pid"; daemon_status=0; wait "$pid" || daemon_status=$?; pid=""
echo "daemon exited with status $daemon_status"
[ "$daemon_status" -eq 0 ] || status=1
[ "$failed_requests" -eq 0 ] || status=1
exit "$status"
