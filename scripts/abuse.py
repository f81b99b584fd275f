#!/usr/bin/env python3
"""Hostile-client attacks (huge uploads, slow headers, early errors, shutdown under load) against a running `glimpse serve`, over its Unix socket only.

Each attack is bounded in count and time and prints its measurements as one line of JSON:

  uploads    N concurrent uploads of SIZE bytes (a catalog photo padded with zeros); each client reads
             while it sends and stops sending once an answer arrives. Peak daemon RSS (VmHWM) and RSS
             sampled every 20 ms; statuses; answers that came only after a complete upload.
  slowloris  N connections sending one header byte every INTERVAL s, reconnecting when closed, for
             DURATION s; meanwhile another client sends GET /healthz and GET /v1/entities?q=lake on a
             new connection every 0.5 s and times each answer.
  early      a 10 MB body with ?limit=0 and Connection: close, written whole before reading (Python's
             http.client); time to the 400 and to the closed connection.
  shutdown   N queries sent at once (PICTURE), then SIGTERM to PID; every answer's status and size.
  slots      a daemon verifying from keypoint slots (--keypoint-slots SLOTS): --phase whole queries every
             catalog photo and prints the inliers of the accepted place; --phase flipped (after a bit of
             slot 0 was flipped while the daemon was stopped) the same, with /healthz and the damage
             counter of /metrics; --phase truncated empties SLOTS under the daemon, then queries every
             photo: every answer 200, the daemon alive.

Usage: abuse.py SOCKET PID ATTACK [options]; see scripts/abuse.sh, which starts the daemon.
"""
import argparse
import http.client
import json
import os
import select
import signal
import socket
import sys
import threading
import time


def connect(path, timeout=60):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    sock.connect(path)
    return sock


def read_response(sock):
    """Reads one response with a Content-Length body; returns (status, headers text, body bytes)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return None, "", b""
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    length = 0
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
    while len(rest) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        rest += chunk
    return status, "\r\n".join(lines[1:]), rest[:length]


def rss_sampler(pid, stop, samples):
    while not stop.is_set():
        try:
            with open(f"/proc/{pid}/status") as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        samples.append(int(line.split()[1]) * 1024)
        except OSError:
            return
        time.sleep(0.02)


def peak_rss(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return 0


def attack_uploads(args):
    with open(args.picture, "rb") as f:
        picture = f.read()
    body = picture + b"\0" * (args.size - len(picture))
    head = (f"POST /v1/query?limit=1 HTTP/1.1\r\nHost: glimpse\r\nContent-Type: image/jpeg\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode()
    results = []
    lock = threading.Lock()
    start_barrier = threading.Barrier(args.count)

    def client():
        outcome = {"status": None, "early": False, "uploaded": 0, "seconds": None}
        began = time.monotonic()
        try:
            sock = connect(args.socket, timeout=120)
            start_barrier.wait()
            sock.sendall(head)
            view = memoryview(body)
            sent = 0
            sock.setblocking(False)
            while sent < len(body):
                readable, writable, _ = select.select([sock], [sock], [], 60)
                if readable:
                    outcome["early"] = True
                    break
                if writable:
                    try:
                        sent += sock.send(view[sent:sent + 262144])
                    except (BlockingIOError, InterruptedError):
                        pass
                    except (BrokenPipeError, ConnectionResetError):
                        outcome["early"] = True
                        break
            outcome["uploaded"] = sent
            sock.setblocking(True)
            sock.settimeout(120)
            status, _, _ = read_response(sock)
            outcome["status"] = status
            sock.close()
        except Exception as error:  # noqa: BLE001 - every failure is a result to report
            outcome["error"] = repr(error)
        outcome["seconds"] = round(time.monotonic() - began, 3)
        with lock:
            results.append(outcome)

    stop = threading.Event()
    samples = []
    sampler = threading.Thread(target=rss_sampler, args=(args.pid, stop, samples))
    sampler.start()
    rss_before = peak_rss(args.pid)
    threads = [threading.Thread(target=client) for _ in range(args.count)]
    began = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    stop.set()
    sampler.join()
    statuses = {}
    for result in results:
        statuses[str(result["status"])] = statuses.get(str(result["status"]), 0) + 1
    refused_late = [r for r in results if r["status"] == 503 and not r["early"]]
    print(json.dumps({
        "attack": "uploads", "uploads": args.count, "bytes_each": len(body),
        "seconds": round(time.monotonic() - began, 2),
        "statuses": statuses,
        "unanswered": sum(1 for r in results if r["status"] is None),
        "refused_after_complete_upload": len(refused_late),
        "answered_before_upload_end": sum(1 for r in results if r["early"]),
        "peak_rss_sampled_mb": round(max(samples or [0]) / 2**20, 1),
        "vmhwm_before_mb": round(rss_before / 2**20, 1),
        "vmhwm_after_mb": round(peak_rss(args.pid) / 2**20, 1),
        "errors": [r["error"] for r in results if "error" in r][:5],
    }))


def attack_slowloris(args):
    stop = threading.Event()
    counters = {"connections": 0, "closed_by_daemon": 0}
    lock = threading.Lock()
    request = b"GET /healthz HTTP/1.1\r\nHost: glimpse\r\nX-Slow: " + b"s" * 200 + b"\r\n\r\n"

    def attacker():
        while not stop.is_set():
            try:
                sock = connect(args.socket, timeout=args.interval)
            except OSError:
                time.sleep(0.05)
                continue
            with lock:
                counters["connections"] += 1
            try:
                for index in range(len(request) - 4):
                    if stop.is_set():
                        break
                    sock.sendall(request[index:index + 1])
                    try:
                        if sock.recv(65536) == b"":
                            with lock:
                                counters["closed_by_daemon"] += 1
                            break
                    except socket.timeout:
                        pass
            except OSError:
                with lock:
                    counters["closed_by_daemon"] += 1
            finally:
                sock.close()

    def probe(target):
        began = time.monotonic()
        try:
            sock = connect(args.socket, timeout=30)
            sock.sendall(f"GET {target} HTTP/1.1\r\nHost: glimpse\r\n\r\n".encode())
            status, _, _ = read_response(sock)
            sock.close()
        except OSError as error:
            status = repr(error)
        return status, time.monotonic() - began

    threads = [threading.Thread(target=attacker, daemon=True) for _ in range(args.count)]
    for thread in threads:
        thread.start()
    time.sleep(min(5, args.duration / 4))  # let the attack fill the connections first
    latencies = {"/healthz": [], "/v1/entities?q=lake": []}
    failures = []
    began = time.monotonic()
    while time.monotonic() - began < args.duration:
        for target in latencies:
            status, seconds = probe(target)
            latencies[target].append(seconds)
            if status != 200:
                failures.append((target, status))
        time.sleep(0.5)
    stop.set()
    for thread in threads:
        thread.join(timeout=args.interval + 2)

    def summary(values):
        ordered = sorted(values)
        return {"n": len(ordered), "p50_ms": round(ordered[len(ordered) // 2] * 1000, 1),
                "p99_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000, 1),
                "max_ms": round(ordered[-1] * 1000, 1),
                "over_1s": sum(1 for v in ordered if v >= 1)}

    print(json.dumps({
        "attack": "slowloris", "attackers": args.count, "interval_s": args.interval, "duration_s": args.duration,
        "attacker_connections": counters["connections"], "closed_by_daemon": counters["closed_by_daemon"],
        "healthz": summary(latencies["/healthz"]), "entities": summary(latencies["/v1/entities?q=lake"]),
        "failures": failures[:5],
    }))


class UnixHTTPConnection(http.client.HTTPConnection):
    def __init__(self, path):
        super().__init__("glimpse", timeout=60)
        self.path = path

    def connect(self):
        self.sock = connect(self.path, timeout=60)


def attack_early(args):
    body = b"\x5a" * 10_000_000
    connection = UnixHTTPConnection(args.socket)
    began = time.monotonic()
    # http.client writes the head and the whole body before it reads anything.
    connection.request("POST", "/v1/query?limit=0", body=body,
                       headers={"Connection": "close", "Content-Type": "image/jpeg"})
    sent = time.monotonic()
    response = connection.getresponse()
    payload = response.read()
    answered = time.monotonic()
    closed = connection.sock is None or connection.sock.recv(1) == b""
    closed_at = time.monotonic()
    print(json.dumps({
        "attack": "early", "status": response.status, "code": json.loads(payload)["error"]["code"],
        "body_written_s": round(sent - began, 3), "answer_s": round(answered - began, 3),
        "closed": closed, "closed_s": round(closed_at - began, 3),
    }))


def attack_shutdown(args):
    with open(args.picture, "rb") as f:
        picture = f.read()
    content_type = "image/png" if picture[:4] == b"\x89PNG" else "image/jpeg"
    head = (f"POST /v1/query?limit=1 HTTP/1.1\r\nHost: glimpse\r\nContent-Type: {content_type}\r\n"
            f"Content-Length: {len(picture)}\r\n\r\n").encode()
    sockets = []
    for _ in range(args.count):
        sock = connect(args.socket, timeout=60)
        sock.sendall(head + picture)
        sockets.append(sock)
    time.sleep(args.settle)
    began = time.monotonic()
    os.kill(args.pid, signal.SIGTERM)
    answers = []
    for sock in sockets:
        try:
            status, headers, payload = read_response(sock)
            retry = "retry-after" in headers.lower()
            code = json.loads(payload)["error"]["code"] if status and status >= 400 else None
            answers.append({"status": status, "retry_after": retry, "code": code,
                            "bytes": len(payload), "at_s": round(time.monotonic() - began, 2)})
        except OSError as error:
            answers.append({"status": None, "error": repr(error)})
    statuses = {}
    for answer in answers:
        key = f'{answer["status"]} {answer.get("code") or ""}'.strip()
        statuses[key] = statuses.get(key, 0) + 1
    print(json.dumps({
        "attack": "shutdown", "queries": args.count, "statuses": statuses,
        "empty": sum(1 for a in answers if a["status"] is None),
        "503_without_retry_after": sum(1 for a in answers if a["status"] == 503 and not a["retry_after"]),
        "last_answer_s": max((a.get("at_s", 0) for a in answers), default=0),
    }))


def request(path, method, target, body=None, headers=None):
    """One request on a new connection: (status, headers, body bytes)."""
    connection = UnixHTTPConnection(path)
    connection.request(method, target, body=body, headers=headers or {})
    response = connection.getresponse()
    payload = response.read()
    connection.close()
    return response.status, dict(response.getheaders()), payload


def attack_edits(args):
    """Hostile catalog edits: text a store would not keep as validated, photo names that escape a
    folder, an unbounded label list, and refused edits carrying large photos. Every answer is checked
    for the daemon's host paths; the photo folder is counted before and after."""
    import base64
    folder = args.store_folder
    photos = os.path.join(folder, "catalog.sqlite.photos")
    before = set(os.listdir(photos)) if os.path.isdir(photos) else set()
    with open("Images/photos/040-eiffel-tower.jpg", "rb") as f:
        jpeg = base64.b64encode(f.read()).decode()

    def place(name="Hostile", labels=(), photo_name="photos/hostile.jpg", data=jpeg):
        return {"name": name, "kind": "landmark", "labels": list(labels), "collections": [],
                "photos": [{"data": data, "name": photo_name}]}

    cases = [
        ("PUT", "/v1/collections/nul", {"name": "\u0000", "summary": "x"}),
        ("PUT", "/v1/places/nul-name", place(name="\u0000")),
        ("PUT", "/v1/labels", {"labels": ["sky", "sky\u0000x"]}),
        ("PUT", "/v1/places/many-labels", place(labels=["sky"] * 100_000)),
        ("PUT", "/v1/places/repeated-labels", place(labels=["sky", "sky"])),
    ] + [("PUT", f"/v1/places/bad-name-{i}", place(photo_name=name)) for i, name in enumerate(
        ["photos/new\nline.jpg", "photos/\u202egpj.exe", "photos\\a.jpg", "~/a.jpg", "photos/ ", "../../a.jpg"])]
    statuses, leaks = {}, []
    for method, target, body in cases:
        status, _, payload = request(args.socket, method, target, json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
        statuses[str(status)] = statuses.get(str(status), 0) + 1
        if folder.encode() in payload or b"postgres://" in payload:
            leaks.append(target)
    # Refused edits with photos: an If-Match that cannot hold, 30 times a 5 MB photo.
    big = base64.b64encode(os.urandom(5_000_000)).decode()
    refused_412 = 0
    for i in range(30):
        status, _, payload = request(args.socket, "PUT", "/v1/places/eiffel-tower",
                                     json.dumps(place(data=jpeg if i % 2 else big, photo_name=f"photos/race-{i}.jpg")).encode(),
                                     {"Content-Type": "application/json", "If-Match": '"999999"'})
        refused_412 += status in (412, 415, 422)
    after = set(os.listdir(photos)) if os.path.isdir(photos) else set()
    # After all that, a normal edit applies and the daemon says it is well.
    normal, _, payload = request(args.socket, "PUT", "/v1/places/after-the-attack",
                                 json.dumps(place(name="After the attack", labels=["sky"])).encode(),
                                 {"Content-Type": "application/json"})
    for target in ("/healthz", "/v1/catalog"):
        _, _, payload = request(args.socket, "GET", target)
        if folder.encode() in payload or b"postgres://" in payload:
            leaks.append(target)
    print(json.dumps({
        "attack": "edits", "hostile_edits": len(cases), "statuses": statuses,
        "refused_with_photos": refused_412, "orphan_photos": len(after - before - {f for f in after if f.startswith(".")}),
        "normal_edit_after": normal, "answers_with_host_paths": leaks,
    }))


def attack_parameters(args):
    """Hostile query parameters and oversized lists: a NUL after a number, a parameter given twice, a
    4,000,000-entry label list, a JSON edit over its body limit. Each must be refused with its own code,
    the label list without decoding it (its answer time and the daemon's peak RSS are reported)."""
    with open(args.picture, "rb") as f:
        picture = f.read()
    probes = [
        ("POST", "/v1/query?min_score=0.5%00", picture, "image/jpeg", "bad_parameter"),
        ("POST", "/v1/query?min_score=0.5&min_score=0.9", picture, "image/jpeg", "repeated_parameter"),
        ("POST", "/v1/query?limit=1&limit=50", picture, "image/jpeg", "repeated_parameter"),
        ("GET", "/v1/entities?q=tower%00", None, None, "bad_parameter"),
    ]
    outcomes = {}
    for method, target, body, kind, expected in probes:
        status, _, payload = request(args.socket, method, target, body, {"Content-Type": kind} if kind else {})
        code = json.loads(payload or b"{}").get("error", {}).get("code")
        outcomes[target] = {"status": status, "code": code, "as_expected": code == expected}
    stop, samples = threading.Event(), []
    sampler = threading.Thread(target=rss_sampler, args=(args.pid, stop, samples))
    sampler.start()
    labels = json.dumps({"name": "Many labels", "kind": "landmark", "labels": ["a"] * 4_000_000}).encode()
    start = time.monotonic()
    status, _, payload = request(args.socket, "PUT", "/v1/places/many-labels", labels,
                                 {"Content-Type": "application/json"})
    took = time.monotonic() - start
    stop.set()
    sampler.join()
    message = json.loads(payload or b"{}").get("error", {}).get("message", "")
    # A JSON edit over its 1 MiB limit is told to send a smaller JSON body, not a smaller image.
    summary = "x" * (2 << 20)
    big_status, _, big_payload = request(args.socket, "PUT", "/v1/collections/too-big",
                                         json.dumps({"name": "Big", "summary": summary}).encode(),
                                         {"Content-Type": "application/json"})
    big_message = json.loads(big_payload or b"{}").get("error", {}).get("message", "")
    print(json.dumps({
        "attack": "parameters", "probes": outcomes,
        "four_million_labels": {"status": status, "seconds": round(took, 3), "message": message,
                                "peak_rss_mb": round(max(samples, default=0) / 1e6, 1)},
        "json_over_limit": {"status": big_status, "says_image": "image" in big_message, "message": big_message},
    }))


def query_inliers(path, photo):
    """POST /v1/query with a catalog photo: (status, the accepted first result's inliers or None)."""
    with open(photo, "rb") as f:
        body = f.read()
    status, _, payload = request(path, "POST", "/v1/query?limit=1", body, {"Content-Type": "image/jpeg"})
    if status != 200:
        return status, None
    results = json.loads(payload).get("results", [])
    evidence = results[0]["evidence"] if results else {}
    return status, evidence.get("inliers") if evidence.get("accepted", True) else None


def damage_metric(path):
    """The value of glimpse_keypoint_slot_damage_total in GET /metrics (None when absent)."""
    _, _, payload = request(path, "GET", "/metrics")
    for line in payload.decode().splitlines():
        if line.startswith("glimpse_keypoint_slot_damage_total"):
            return float(line.split()[-1])
    return None


def attack_slots(args):
    """Keypoint slot damage: every catalog photo queried, its inliers listed by photo; with --phase
    truncated, the slot file is emptied under the daemon first."""
    photos = sorted(os.path.join("Images/photos", name) for name in os.listdir("Images/photos")
                    if name.endswith(".jpg"))
    if args.phase == "truncated":
        os.truncate(args.slots, 0)
    statuses, inliers = {}, {}
    for photo in photos:
        status, found = query_inliers(args.socket, photo)
        statuses[str(status)] = statuses.get(str(status), 0) + 1
        inliers[os.path.basename(photo)] = found
    _, _, health = request(args.socket, "GET", "/healthz")
    health = json.loads(health)
    alive = True
    try:
        os.kill(args.pid, 0)
    except OSError:
        alive = False
    print(json.dumps({
        "attack": "slots", "phase": args.phase, "statuses": statuses, "alive": alive,
        "verified": sum(1 for v in inliers.values() if v), "inliers": inliers,
        "health": health.get("status"), "matcher_problem": health.get("matcherProblem"),
        "slot_damage_total": damage_metric(args.socket),
    }))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("socket")
    parser.add_argument("pid", type=int)
    parser.add_argument("attack", choices=["uploads", "slowloris", "early", "shutdown", "edits", "parameters", "slots"])
    parser.add_argument("--store-folder", default="")
    parser.add_argument("--slots", default="")
    parser.add_argument("--phase", choices=["whole", "flipped", "truncated"], default="whole")
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--size", type=int, default=30_000_000)
    parser.add_argument("--picture", default="Images/photos/001-wooden-jetty-on-a-calm-lake.jpg")
    parser.add_argument("--interval", type=float, default=5.0)
    parser.add_argument("--duration", type=float, default=100.0)
    parser.add_argument("--settle", type=float, default=0.5)
    args = parser.parse_args()
    # Bounded: at most 1000 clients, 30 minutes, 64 MB a body.
    if args.count > 1000 or args.duration > 1800 or args.size > 64_000_000:
        sys.exit("abuse.py: --count ≤ 1000, --duration ≤ 1800, --size ≤ 64000000")
    {"uploads": attack_uploads, "slowloris": attack_slowloris, "early": attack_early,
     "shutdown": attack_shutdown, "edits": attack_edits, "parameters": attack_parameters,
     "slots": attack_slots}[args.attack](args)


if __name__ == "__main__":
    main()
