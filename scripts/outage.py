#!/usr/bin/env python3
"""PostgreSQL outages under edits from two daemons on one catalog database (scripts/outage.sh starts
the daemons and the server; this drives and measures one run).

One editor per daemon adds new photos to a place of its own (removing the oldest once it holds 12)
and writes collections, one edit after another, each on a new connection with a 60 s socket timeout;
one query client per daemon searches entities and sends a picture query; one health probe per daemon
reads /healthz every 0.25 s. The database is stopped with `pg_ctl -m immediate` OUTAGES times for
DOWN seconds (the first at 4 s, then every 16 s), and edits go on for 6 s after the last. Then both
daemons must converge on one sequence and serve every acknowledged edit (201, 200, 202): nothing
acknowledged may be lost.

Prints one line of JSON: edits by status, the longest edit wait, edits answered 503 without
Retry-After, query failures and the longest query wait, the health states each daemon showed during
and outside the outages (an outage lasting until 1 s after the database is back), how long after
each outage each daemon said ok again, and acknowledged edits missing afterwards.

Usage: outage.py SOCKET_A SOCKET_B --stop CMD --start CMD [--outages 3] [--down 6]
"""
import argparse
import base64
import http.client
import json
import os
import socket
import subprocess
import sys
import threading
import time

EDIT_TIMEOUT_S = 60


class UnixHTTPConnection(http.client.HTTPConnection):
    def __init__(self, path, timeout):
        super().__init__("glimpse", timeout=timeout)
        self.path = path

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(self.timeout)
        self.sock.connect(self.path)


def request(path, method, target, body=None, headers=None, timeout=EDIT_TIMEOUT_S):
    """One request on a new connection: (status or None, headers, body, seconds)."""
    started = time.monotonic()
    try:
        connection = UnixHTTPConnection(path, timeout)
        connection.request(method, target, body=body, headers=headers or {})
        response = connection.getresponse()
        payload = response.read()
        connection.close()
        return response.status, dict(response.getheaders()), payload, time.monotonic() - started
    except (OSError, http.client.HTTPException) as error:
        return None, {"error": str(error)}, b"", time.monotonic() - started


def unique_photo(base, n, who):
    """The catalog photo's bytes with a JPEG comment after its start marker: new bytes, same picture."""
    comment = f"outage {who} {n} {time.time_ns()}".encode()
    return base[:2] + b"\xff\xfe" + (len(comment) + 2).to_bytes(2, "big") + comment + base[2:]


class Run:
    def __init__(self, args):
        self.args = args
        self.start = time.monotonic()
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.windows = []  # (down_at, up_at) seconds since start
        self.edits = []  # dicts
        self.queries = []  # (daemon, seconds, status)
        self.health = {"a": [], "b": []}  # (t, status)

    def now(self):
        return time.monotonic() - self.start

    def editor(self, name, sock, photo_bytes):
        place = f"outage-{name}"
        status, _, payload, _ = request(sock, "PUT", f"/v1/places/{place}", json.dumps({
            "name": f"Outage {name}", "kind": "landmark", "labels": [], "collections": [],
            "photos": [{"data": base64.b64encode(unique_photo(photo_bytes, 0, name)).decode()}]}).encode(),
            {"Content-Type": "application/json"})
        if status not in (200, 201, 202):
            print(f"outage.py: creating {place} on {name} answered {status}: {payload[:300]!r}", file=sys.stderr)
            return
        photos = [p["id"] for p in json.loads(payload)["place"]["photos"]]
        n = 0
        while not self.stop.is_set():
            n += 1
            if n % 3 == 0:
                kind, method, target = "collection", "PUT", f"/v1/collections/oc-{name}-{n}"
                body = json.dumps({"name": f"Outage {name} {n}", "summary": "written during an outage test",
                                   "places": [place]}).encode()
                headers = {"Content-Type": "application/json"}
            elif len(photos) > 12:
                kind, method, target = "remove_photo", "DELETE", f"/v1/places/{place}/photos/{photos[0]}"
                body, headers = None, {}
            else:
                kind, method, target = "add_photo", "POST", f"/v1/places/{place}/photos"
                body, headers = unique_photo(photo_bytes, n, name), {"Content-Type": "image/jpeg"}
            at = self.now()
            status, answer_headers, payload, seconds = request(sock, method, target, body, headers)
            record = {"daemon": name, "kind": kind, "target": target, "at": round(at, 2), "status": status,
                      "seconds": round(seconds, 3),
                      "retry_after": answer_headers.get("Retry-After") or answer_headers.get("retry-after")}
            if status in (200, 201, 202):
                result = json.loads(payload)
                if kind == "add_photo":
                    photos = [p["id"] for p in result["place"]["photos"]]
                    record["photo"] = photos[-1]
                elif kind == "remove_photo":
                    record["photo"] = target.rsplit("/", 1)[1]
                    photos = [p["id"] for p in result["place"]["photos"]]
                record["sequence"] = result.get("sequence")
            elif status == 503:
                time.sleep(min(float(record["retry_after"] or 1), 1.0))
            with self.lock:
                self.edits.append(record)

    def querier(self, name, sock, picture):
        while not self.stop.is_set():
            for method, target, body, headers in (
                ("GET", "/v1/entities?q=lake&limit=3", None, {}),
                ("POST", "/v1/query?limit=3", picture, {"Content-Type": "image/jpeg"}),
            ):
                status, _, _, seconds = request(sock, method, target, body, headers, timeout=30)
                with self.lock:
                    self.queries.append((name, seconds, status))
            time.sleep(0.2)

    def prober(self, name, sock):
        while not self.stop.is_set():
            status, _, payload, _ = request(sock, "GET", "/healthz", timeout=5)
            state = json.loads(payload).get("status") if status == 200 else f"http {status}"
            with self.lock:
                self.health[name].append((self.now(), state))
            time.sleep(0.25)

    def outages(self):
        first, every = 4.0, 16.0
        for i in range(self.args.outages):
            self.sleep_until(first + i * every)
            down = self.now()
            subprocess.run(self.args.stop, shell=True, check=True, stdout=subprocess.DEVNULL)
            self.sleep_until(down + self.args.down)
            subprocess.run(self.args.start, shell=True, check=True, stdout=subprocess.DEVNULL)
            self.windows.append((down, self.now()))
        self.sleep_until(self.now() + 6)

    def sleep_until(self, t):
        while self.now() < t:
            time.sleep(0.05)


def catalog_info(sock):
    status, _, payload, _ = request(sock, "GET", "/v1/catalog", timeout=10)
    return json.loads(payload) if status == 200 else None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("socket_a")
    parser.add_argument("socket_b")
    parser.add_argument("--stop", required=True, help="the shell command that stops the database at once")
    parser.add_argument("--start", required=True, help="the shell command that starts it again and waits")
    parser.add_argument("--outages", type=int, default=3)
    parser.add_argument("--down", type=float, default=6.0)
    parser.add_argument("--photo", default="Images/photos/040-eiffel-tower.jpg")
    args = parser.parse_args()
    if not (1 <= args.outages <= 10 and 1 <= args.down <= 60):
        sys.exit("outage.py: 1 ≤ --outages ≤ 10, 1 ≤ --down ≤ 60")
    with open(args.photo, "rb") as f:
        photo = f.read()
    run = Run(args)
    sockets = {"a": args.socket_a, "b": args.socket_b}
    threads = [threading.Thread(target=run.editor, args=(n, s, photo)) for n, s in sockets.items()]
    threads += [threading.Thread(target=run.querier, args=(n, s, photo)) for n, s in sockets.items()]
    threads += [threading.Thread(target=run.prober, args=(n, s)) for n, s in sockets.items()]
    for thread in threads:
        thread.start()
    try:
        run.outages()
    finally:
        run.stop.set()
        for thread in threads:
            thread.join(EDIT_TIMEOUT_S + 5)

    # Both daemons converge on one sequence, and serve every acknowledged edit.
    deadline = time.monotonic() + 60
    converged = None
    while time.monotonic() < deadline:
        infos = [catalog_info(s) for s in sockets.values()]
        if all(infos) and infos[0]["sequence"] == infos[1]["sequence"] and not any(i.get("storeProblem") for i in infos):
            converged = infos[0]["sequence"]
            break
        time.sleep(0.5)
    acknowledged = [e for e in run.edits if e["status"] in (200, 201, 202)]
    missing = []
    for name, sock in sockets.items():
        for daemon in sockets:
            status, _, payload, _ = request(sock, "GET", f"/v1/places/outage-{daemon}", timeout=10)
            held = {p["id"] for p in json.loads(payload)["photos"]} if status == 200 else set()
            added = {e["photo"] for e in acknowledged if e["daemon"] == daemon and e["kind"] == "add_photo"}
            removed = {e["photo"] for e in acknowledged if e["daemon"] == daemon and e["kind"] == "remove_photo"}
            missing += [f"{name}: photo {p[:12]} of outage-{daemon}" for p in added - removed - held]
        for e in acknowledged:
            if e["kind"] == "collection":
                status, _, _, _ = request(sock, "GET", e["target"], timeout=10)
                if status != 200:
                    missing.append(f"{name}: {e['target']} ({status})")

    def during(t):
        return any(down <= t <= up + 1.0 for down, up in run.windows)

    statuses = {}
    for e in run.edits:
        statuses[str(e["status"])] = statuses.get(str(e["status"]), 0) + 1
    query_waits = [s for _, s, _ in run.queries]
    print(json.dumps({
        "probe": "outage", "outages": [[round(d, 1), round(u, 1)] for d, u in run.windows],
        "edits": len(run.edits), "edit_statuses": statuses,
        "longest_edit_s": max((e["seconds"] for e in run.edits), default=0),
        "edits_over_30s": [e for e in run.edits if e["seconds"] > 30],
        "unanswered_edits": [e for e in run.edits if e["status"] is None],
        "503_without_retry_after": sum(1 for e in run.edits if e["status"] == 503 and not e["retry_after"]),
        "queries": len(run.queries), "query_failures": sum(1 for _, _, s in run.queries if s != 200),
        "longest_query_s": round(max(query_waits, default=0), 3),
        "health_during_outages": {n: sorted({s for t, s in h if during(t)}) for n, h in run.health.items()},
        "health_outside_outages": {n: sorted({s for t, s in h if not during(t) and t > 2}) for n, h in run.health.items()},
        "degraded_in_every_outage": {n: all(any(s == "degraded" and d <= t <= u + 1.0 for t, s in h)
                                             for d, u in run.windows) for n, h in run.health.items()},
        "ok_again_s": {n: [round(min((t for t, s in h if t > u and s == "ok"), default=float("nan")) - u, 1)
                           for _, u in run.windows] for n, h in run.health.items()},
        "converged_sequence": converged,
        "acknowledged_edits": len(acknowledged), "acknowledged_missing": missing,
    }))


if __name__ == "__main__":
    main()
