#!/usr/bin/env python3
"""Several daemons on one PostgreSQL catalog, measured (driven by scripts/bench-shared-catalog.sh).

Given running daemons on Unix sockets:
  propagation SOCK_A SOCK_B PHOTOS_DIR N
      N edits on A (each a new place with a photo of its own, then its deletion every other edit);
      for each, the time from A's acknowledgement until B's GET /v1/catalog reports the edit's sequence.
  throughput SECONDS CLIENTS PHOTOS_DIR SOCK [SOCK ...]
      CLIENTS threads query the daemons (round robin) with the catalog's photos for SECONDS; queries/s.
  overhead SOCK_X SOCK_Y PHOTOS_DIR PASSES
      query latency on two daemons, interleaved query by query: p50 of each and their ratio.
Prints one JSON object per command.
"""
import http.client
import json
import os
import socket
import sys
import threading
import time
import base64


class UnixConnection(http.client.HTTPConnection):
    def __init__(self, path, timeout=60):
        super().__init__("glimpse", timeout=timeout)
        self.path = path

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(self.timeout)
        self.sock.connect(self.path)


def request(sock, method, path, body=None, headers=None):
    connection = UnixConnection(sock)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        answer = connection.getresponse()
        return answer.status, answer.read()
    finally:
        connection.close()


def photos_in(folder):
    return sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.lower().endswith((".jpg", ".jpeg", ".png")))


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(p / 100 * len(ordered) + 0.5)) - 1))]


def propagation(sock_a, sock_b, folder, count):
    photos = photos_in(folder)
    delays, failures = [], 0
    for n in range(count):
        photo = photos[n % len(photos)]
        place_id = f"bench-{os.getpid()}-{n}"
        with open(photo, "rb") as f:
            data = base64.b64encode(f.read()).decode()
        body = json.dumps({"name": f"Bench {n}", "kind": "landmark", "labels": [], "collections": [],
                           "photos": [{"data": data, "name": f"photos/{place_id}.jpg"}]})
        status, answer = request(sock_a, "PUT", f"/v1/places/{place_id}", body.encode(),
                                 {"Content-Type": "application/json"})
        acknowledged = time.monotonic()
        if status not in (200, 201):
            failures += 1
            continue
        sequence = json.loads(answer)["sequence"]
        while True:
            status, info = request(sock_b, "GET", "/v1/catalog")
            if status == 200 and json.loads(info)["sequence"] >= sequence:
                delays.append((time.monotonic() - acknowledged) * 1000)
                break
            if time.monotonic() - acknowledged > 30:
                failures += 1
                break
            time.sleep(0.002)
    return {"edits": count, "failed": failures, "p50_ms": percentile(delays, 50), "p99_ms": percentile(delays, 99),
            "max_ms": max(delays)}


def throughput(seconds, clients, folder, sockets):
    photos = [open(p, "rb").read() for p in photos_in(folder)]
    done, errors = [0] * clients, [0] * clients
    deadline = time.monotonic() + seconds

    def client(i):
        n = i
        while time.monotonic() < deadline:
            status, _ = request(sockets[i % len(sockets)], "POST", "/v1/query?limit=3", photos[n % len(photos)],
                                {"Content-Type": "image/jpeg"})
            n += clients
            if status == 200:
                done[i] += 1
            else:
                errors[i] += 1

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return {"daemons": len(sockets), "clients": clients, "seconds": seconds, "queries": sum(done),
            "errors": sum(errors), "queries_per_second": sum(done) / seconds}


def overhead(sock_x, sock_y, folder, passes):
    photos = [open(p, "rb").read() for p in photos_in(folder)]
    times = {sock_x: [], sock_y: []}
    turn = 0
    for _ in range(passes):
        for photo in photos:
            turn += 1
            order = [sock_x, sock_y] if turn % 2 else [sock_y, sock_x]
            for sock in order:
                started = time.monotonic()
                status, _ = request(sock, "POST", "/v1/query?limit=3", photo, {"Content-Type": "image/jpeg"})
                if status == 200:
                    times[sock].append((time.monotonic() - started) * 1000)
    x, y = percentile(times[sock_x], 50), percentile(times[sock_y], 50)
    return {"queries_each": len(times[sock_x]), "p50_x_ms": x, "p50_y_ms": y, "ratio_y_over_x": y / x}


def main(argv):
    command = argv[1]
    if command == "propagation":
        result = propagation(argv[2], argv[3], argv[4], int(argv[5]))
    elif command == "throughput":
        result = throughput(float(argv[2]), int(argv[3]), argv[4], argv[5:])
    elif command == "overhead":
        result = overhead(argv[2], argv[3], argv[4], int(argv[5]))
    else:
        sys.exit(f"unknown command {command}; see the docstring")
    print(json.dumps({command: result}))


if __name__ == "__main__":
    main(sys.argv)
