#!/usr/bin/env bash
# The main job on the bundled catalog: build Glimpse, start the daemon on Images/ over a temporary Unix
# socket (its catalog store, filled from Images/ at the first start, in the same temporary folder), send
# it pictures with the glimpse client and with curl, edit the catalog while it serves, then stop it.
#
# The first run should be quick: the demo builds a debug glimpse without the PostgreSQL store
# (--disable-default-traits leaves out postgres-nio and its two copies of BoringSSL): 2 min 25 s from a
# fresh clone on 2 cores, against 5 min with PostgreSQL and 13 min for a release build with it. Answers are
# the same; a debug build is only slower (DEMO_RELEASE=1 builds release, still without PostgreSQL: 4.5 min).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh

configuration=debug
[ "${DEMO_RELEASE:-0}" = 0 ] || configuration=release
echo "==> building glimpse ($configuration, without the PostgreSQL store; the first build takes a few minutes)"
swift build -c "$configuration" --product glimpse --disable-default-traits
bin="$(swift build -c "$configuration" --show-bin-path)/glimpse"

workdir="$(mktemp -d)"
sock="$workdir/glimpse.sock"
log="$workdir/serve.log"
cleanup() {
    if [ -n "${pid:-}" ] && kill -0 "$pid" 2>/dev/null; then kill -TERM "$pid"; wait "$pid" || true; fi
    rm -rf "$workdir"
}
trap cleanup EXIT

echo "==> glimpse serve --socket $sock --catalog Images --store \$workdir/catalog.sqlite"
"$bin" serve --socket "$sock" --catalog Images --store "$workdir/catalog.sqlite" >"$log" 2>&1 &
pid=$!
for _ in $(seq 1 600); do
    if curl -sf --unix-socket "$sock" http://localhost/healthz >/dev/null 2>&1; then break; fi
    kill -0 "$pid" 2>/dev/null || { cat "$log"; echo "the daemon exited early" >&2; exit 1; }
    sleep 0.1
done
curl -sf --unix-socket "$sock" http://localhost/healthz; echo

photo=Images/photos/040-eiffel-tower.jpg
echo
echo "==> glimpse query --socket \$sock $photo Images/photos/075-saltwater-crocodile-on-a-river-bank.jpg"
"$bin" query --socket "$sock" --limit 5 "$photo" Images/photos/075-saltwater-crocodile-on-a-river-bank.jpg

echo
echo "==> curl --unix-socket \$sock --data-binary @Images/photos/034-great-pyramid-of-giza.jpg 'http://localhost/v1/query?limit=3'"
curl -sS --unix-socket "$sock" -H 'Content-Type: image/jpeg' \
    --data-binary @Images/photos/034-great-pyramid-of-giza.jpg 'http://localhost/v1/query?limit=3'
echo

echo
echo "==> curl --unix-socket \$sock 'http://localhost/v1/entities?q=tower'"
curl -sS --unix-socket "$sock" 'http://localhost/v1/entities?q=tower'
echo

croc=Images/photos/075-saltwater-crocodile-on-a-river-bank.jpg
first_place() {
    curl -sS --unix-socket "$sock" -H 'Content-Type: image/jpeg' --data-binary @"$croc" 'http://localhost/v1/query?limit=3' \
        | grep -o '"type":"place"' >/dev/null && echo "a place is found" || echo "no place is found"
}
echo
echo "==> live edits: delete the crocodile, query its photo, put it back from the command line, query again"
curl -sS --unix-socket "$sock" -X DELETE http://localhost/v1/places/saltwater-crocodile; echo
echo "after the delete, the crocodile photo: $(first_place)"
printf '{"name":"Saltwater crocodile on a river bank","kind":"animal","labels":["animal"],"collections":["world-animals","reptiles"]}' \
    >"$workdir/croc.json"
"$bin" catalog put-place saltwater-crocodile --json "$workdir/croc.json" --photo "$croc" --socket "$sock"
echo "after the put, the crocodile photo: $(first_place)"
curl -sS --unix-socket "$sock" http://localhost/v1/catalog; echo

echo
echo "==> stopping the daemon (SIGTERM)"
kill -TERM "$pid"; status=0; wait "$pid" || status=$?; pid=""
tail -n 3 "$log"
echo "daemon exited with status $status"
echo
echo "To look at it in a browser: $bin serve --catalog Images --http 127.0.0.1:8080, then open http://127.0.0.1:8080/"
if [ "$configuration" = debug ]; then
    echo "This was a debug build; for serving, build release: swift build -c release (docs/performance.md has the figures)."
fi
