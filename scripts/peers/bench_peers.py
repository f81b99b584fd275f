"""Glimpse against its peers on the same queries and catalog, in one run, one thread each.

Runs, one after the other:

1. `glimpse eval --catalog CATALOG --queries MANIFEST --json` (queries one at a time on one thread), and
   reads its recall@1, false-match rate and per-stage p50/p99, thread CPU time (`cpu_ms`) and wall
   clock (`latency_ms`);
2. OpenCV ORB + RANSAC: every catalog reference photo (a place's `image` and its `views`) read in
   grayscale, resized so its long side is 640 px, ORB (500 keypoints) detected and described once, not
   timed. Per query: decode (cv2.imread grayscale, then the same resize), features (ORB detect +
   describe), matching (BFMatcher NORM_HAMMING knnMatch k=2, Lowe's ratio 0.75, against every
   reference; for each reference with at least --min-good good matches, cv2.findHomography (or, with
   --model affine, cv2.estimateAffinePartial2D) with RANSAC; score = inliers). The best-scoring place
   is accepted when its inliers reach the threshold;
3. pHash (imagehash.phash, 64 bits) of every reference once; per query: open + hash + nearest reference
   by Hamming distance, accepted when the distance is at most the threshold.

Glimpse's features stage is the picture's own keypoints and descriptors, as ORB's is; deriving the
mirror image's (which OpenCV's pipeline does not do, and so cannot match a mirrored picture) is its own
row, "mirror features", and is part of the whole query.

Times are thread CPU time (time.thread_time, like Glimpse's cpu_ms), with the wall clock beside them.
Percentiles are nearest-rank, as Glimpse computes them. A query whose place_id is not in the catalog
counts as a query of no place, as in `glimpse eval`.

Thresholds: by default (`auto`) each peer's threshold is calibrated on the null queries of the run:
the most permissive one that accepts no more of them than Glimpse did (ORB: the smallest inlier count;
pHash: the largest distance). This is in the peers' favour, since the threshold is fitted to the very
queries it is scored on. A number fixes it instead. The figures at the common fixed values (15 inliers,
distance 10) are printed as well.

Prints a table and, as the last line, one JSON object. Run through scripts/bench-peers.sh, which makes
the venv (.venv-peers) and sets the thread-count variables.
"""

import os

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS",
              "VECLIB_MAXIMUM_THREADS", "OPENCV_FOR_THREADS_NUM"):
    os.environ.setdefault(_name, "1")

import argparse  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import platform  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

FIXED_ORB_INLIERS = 15
FIXED_PHASH_DISTANCE = 10
ORB_LONG_SIDE = 640
ORB_FEATURES = 500
LOWE_RATIO = 0.75


def fail(message):
    print(f"error: {message}", file=sys.stderr)
    sys.exit(1)


def note(message):
    print(message, file=sys.stderr, flush=True)


def percentile(values, fraction):
    """Nearest rank: the smallest value with at least `fraction` of the values at or below it."""
    if not values:
        return 0.0
    s = sorted(values)
    rank = math.ceil(fraction * len(s)) - 1
    return s[max(0, min(len(s) - 1, rank))]


def summary(values):
    return {"p50": percentile(values, 0.5), "p99": percentile(values, 0.99),
            "mean": sum(values) / len(values) if values else 0.0, "max": max(values) if values else 0.0}


class Clock:
    """Thread CPU and wall time since the last lap."""

    def __init__(self):
        self.cpu, self.wall = time.thread_time(), time.perf_counter()

    def lap(self):
        cpu, wall = time.thread_time(), time.perf_counter()
        out = ((cpu - self.cpu) * 1000.0, (wall - self.wall) * 1000.0)
        self.cpu, self.wall = cpu, wall
        return out


def load_queries(manifest):
    try:
        with open(manifest) as f:
            entries = json.load(f)
    except OSError as e:
        fail(f"cannot read the manifest {manifest}: {e.strerror}")
    except json.JSONDecodeError as e:
        fail(f"the manifest {manifest} is not JSON: {e}")
    if not isinstance(entries, list) or not entries:
        fail(f"the manifest {manifest} is not a non-empty JSON array of queries")
    base = os.path.dirname(os.path.abspath(manifest))
    queries = []
    for i, e in enumerate(entries):
        if not isinstance(e, dict) or not isinstance(e.get("query"), str):
            fail(f"manifest entry {i} has no \"query\" path")
        queries.append((os.path.join(base, e["query"]), e.get("place_id")))
    return queries


def load_references(catalog):
    path = os.path.join(catalog, "catalog.json")
    try:
        with open(path) as f:
            doc = json.load(f)
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")
    places = doc.get("places") if isinstance(doc, dict) else doc
    if not isinstance(places, list) or not places:
        fail(f"{path} lists no places")
    refs = []
    for p in places:
        images = [p.get("image")] + [v.get("image") for v in p.get("views", []) or []]
        for image in images:
            if image:
                refs.append((p["id"], os.path.join(catalog, image)))
    return refs


def run_glimpse(binary, catalog, manifest):
    command = [binary, "eval", "--catalog", catalog, "--queries", manifest, "--json"]
    note("glimpse: " + " ".join(command))
    start = time.perf_counter()
    try:
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    except OSError as e:
        fail(f"cannot run {binary}: {e.strerror}")
    seconds = time.perf_counter() - start
    if done.stderr:
        sys.stderr.write("".join("  glimpse: " + line + "\n" for line in done.stderr.splitlines()))
    if done.returncode != 0:
        fail(f"glimpse eval failed (exit {done.returncode}): {' '.join(command)}")
    try:
        report = json.loads(done.stdout)
        for key in ("recall_at_1", "false_match_rate", "no_place_queries", "cpu_ms", "latency_ms"):
            report[key]
        for key in ("decode", "features", "total"):
            report["cpu_ms"][key]["p50"]
    except (json.JSONDecodeError, KeyError, TypeError) as e:
        fail(f"glimpse eval printed no usable JSON ({e!r}): {done.stdout[:200]!r}")
    version = subprocess.run([binary, "--version"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             text=True).stdout.strip()
    return report, seconds, version


def to_640(cv2, img):
    h, w = img.shape[:2]
    scale = ORB_LONG_SIDE / max(h, w)
    if scale == 1:
        return img
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    return cv2.resize(img, size, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)


def run_opencv(args, refs, queries):
    import cv2
    import numpy as np

    cv2.setNumThreads(1)
    cv2.ocl.setUseOpenCL(False)
    orb = cv2.ORB_create(nfeatures=ORB_FEATURES)
    matcher = cv2.BFMatcher(cv2.NORM_HAMMING)

    def describe(path):
        img = cv2.imread(path, cv2.IMREAD_GRAYSCALE)
        if img is None:
            fail(f"OpenCV cannot read {path}")
        return orb.detectAndCompute(to_640(cv2, img), None)

    start = time.perf_counter()
    references = []
    for place, path in refs:
        kps, des = describe(path)
        references.append((place, np.float32([k.pt for k in kps]).reshape(-1, 1, 2), des))
    note(f"opencv: {len(references)} references described in {time.perf_counter() - start:.1f} s")

    def score(kps, des):
        """Best (inliers, good matches, place) over the references."""
        best = (0, 0, None)
        if des is None or len(kps) < args.min_good:
            return best
        qpts = np.float32([k.pt for k in kps]).reshape(-1, 1, 2)
        for place, rpts, rdes in references:
            if rdes is None or len(rdes) < 2:
                continue
            good = [p[0] for p in matcher.knnMatch(des, rdes, k=2)
                    if len(p) == 2 and p[0].distance < LOWE_RATIO * p[1].distance]
            if len(good) < args.min_good:
                continue
            src = qpts[[m.queryIdx for m in good]]
            dst = rpts[[m.trainIdx for m in good]]
            if args.model == "homography":
                _, mask = cv2.findHomography(src, dst, cv2.RANSAC, args.ransac_px)
            else:
                _, mask = cv2.estimateAffinePartial2D(src, dst, method=cv2.RANSAC,
                                                      ransacReprojThreshold=args.ransac_px)
            inliers = int(mask.sum()) if mask is not None else 0
            if (inliers, len(good)) > best[:2]:
                best = (inliers, len(good), place)
        return best

    cpu = {s: [] for s in ("decode", "features", "matching", "total")}
    wall = {s: [] for s in cpu}
    results = []
    start = time.perf_counter()
    for n, (path, _) in enumerate(queries, 1):
        clock = Clock()
        img = cv2.imread(path, cv2.IMREAD_GRAYSCALE)
        if img is None:
            fail(f"OpenCV cannot read the query {path}")
        img = to_640(cv2, img)
        t_decode = clock.lap()
        kps, des = orb.detectAndCompute(img, None)
        t_features = clock.lap()
        inliers, _, place = score(kps, des)
        t_matching = clock.lap()
        for stage, t in (("decode", t_decode), ("features", t_features), ("matching", t_matching)):
            cpu[stage].append(t[0])
            wall[stage].append(t[1])
        cpu["total"].append(t_decode[0] + t_features[0] + t_matching[0])
        wall["total"].append(t_decode[1] + t_features[1] + t_matching[1])
        results.append((inliers, place))
        if n % 50 == 0:
            note(f"opencv: {n}/{len(queries)} queries, {time.perf_counter() - start:.0f} s")
    empty = [place for place, _, des in references if des is None]
    return results, cpu, wall, cv2.__version__, time.perf_counter() - start, empty


def run_phash(refs, queries):
    import imagehash
    import numpy as np
    from PIL import Image

    def phash(path):
        with Image.open(path) as img:
            return imagehash.phash(img).hash.reshape(-1)

    ref_places = [place for place, _ in refs]
    ref_bits = np.stack([phash(path) for _, path in refs])
    cpu, wall, results = [], [], []
    start = time.perf_counter()
    for path, _ in queries:
        clock = Clock()
        try:
            bits = phash(path)
        except OSError as e:
            fail(f"Pillow cannot read the query {path}: {e}")
        distances = np.count_nonzero(ref_bits != bits, axis=1)
        i = int(np.argmin(distances))
        result = (int(distances[i]), ref_places[i])
        t = clock.lap()
        cpu.append(t[0])
        wall.append(t[1])
        results.append(result)
    try:
        from importlib.metadata import version
        v = version("ImageHash")
    except Exception:
        v = "?"
    return results, cpu, wall, v, time.perf_counter() - start


def outcome(results, queries, places, accept):
    """Recall@1 on place queries and false matches on null ones, for an acceptance rule."""
    hits = false = place_n = null_n = 0
    for (score, place), (_, expected) in zip(results, queries):
        accepted = place if place is not None and accept(score) else None
        if expected in places:
            place_n += 1
            hits += accepted == expected
        else:
            null_n += 1
            false += accepted is not None
    return (hits / place_n if place_n else 0.0), false


def null_scores(results, queries, places):
    return [score for (score, place), (_, expected) in zip(results, queries)
            if expected not in places and place is not None]


def calibrate_orb(results, queries, places, allowed):
    """The smallest inlier threshold accepting at most `allowed` null queries."""
    scores = sorted(null_scores(results, queries, places), reverse=True)
    if len(scores) <= allowed:
        return 1
    return max(1, scores[allowed] + 1)


def calibrate_phash(results, queries, places, allowed):
    """The largest distance threshold accepting at most `allowed` null queries (-1: accept none)."""
    distances = sorted(null_scores(results, queries, places))
    if len(distances) <= allowed:
        return 64
    return distances[allowed] - 1


def stage_table(title, g, o):
    """Per-stage p50/p99, Glimpse's stages and OpenCV's side by side, from summaries by stage name."""
    print()
    print(title)
    print(f"{'stage':<22}{'Glimpse p50':>12}{'p99':>8}{'OpenCV p50':>12}{'p99':>8}{'OpenCV/Glimpse p50':>20}")
    rows = [("decode", "decode", "decode"), ("features", "features", "features"),
            ("mirror features", "mirror_features", None), ("featureprint", "featureprint", None), ("shortlist", "shortlist", None),
            ("verification", "verification", None), ("matching (knn+RANSAC)", None, "matching"),
            ("whole query", "total", "total")]
    for label, gs, os_ in rows:
        if gs is not None and gs not in g:
            continue
        gp50, gp99 = (g[gs]["p50"], g[gs]["p99"]) if gs else (None, None)
        op50, op99 = (o[os_]["p50"], o[os_]["p99"]) if os_ else (None, None)
        r = ratio(op50, gp50) if gs and os_ else None
        print(f"{label:<22}{fmt(gp50):>12}{fmt(gp99):>8}{fmt(op50):>12}{fmt(op99):>8}"
              f"{(fmt(r, 2) + 'x') if r is not None else '':>20}")


def ratio(a, b):
    return a / b if b else None


def fmt(x, digits=1):
    return "-" if x is None else f"{x:.{digits}f}"


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("manifest", help="a glimpse eval query manifest (JSON array of {query, place_id, ...})")
    ap.add_argument("--catalog", default="Images", help="the catalog folder holding catalog.json (default: Images)")
    ap.add_argument("--glimpse", required=True, help="the glimpse executable")
    ap.add_argument("--opencv-inliers", default="auto",
                    help="RANSAC inliers needed to accept the best place, or 'auto' (default): the smallest "
                         "count that accepts no more null queries than Glimpse did")
    ap.add_argument("--phash-distance", default="auto",
                    help="the largest Hamming distance accepted, or 'auto' (default): the largest that accepts "
                         "no more null queries than Glimpse did")
    ap.add_argument("--model", choices=("homography", "affine"), default="homography",
                    help="RANSAC model: findHomography (default; the queries are seen in perspective) or "
                         "estimateAffinePartial2D (rotation, scale, shift)")
    ap.add_argument("--ransac-px", type=float, default=5.0,
                    help="RANSAC reprojection threshold in pixels at 640 px (default 5)")
    ap.add_argument("--min-good", type=int, default=4,
                    help="good (ratio-test) matches a reference needs before RANSAC runs on it (default 4)")
    args = ap.parse_args()
    for name in ("opencv_inliers", "phash_distance"):
        value = getattr(args, name)
        if value != "auto" and not value.lstrip("-").isdigit():
            ap.error(f"--{name.replace('_', '-')} takes a whole number or 'auto'")

    if not os.path.isfile(args.manifest):
        fail(f"no manifest at {args.manifest}")
    if not os.path.isfile(os.path.join(args.catalog, "catalog.json")):
        fail(f"no catalog.json in {args.catalog}")
    queries = load_queries(args.manifest)
    refs = load_references(args.catalog)
    places = {p for p, _ in refs}
    place_n = sum(1 for _, p in queries if p in places)
    null_n = len(queries) - place_n

    g, g_seconds, g_version = run_glimpse(args.glimpse, args.catalog, args.manifest)
    g_false = round(g["false_match_rate"] * g["no_place_queries"])
    if (g.get("place_queries"), g.get("no_place_queries")) != (place_n, null_n):
        note(f"warning: glimpse eval counted {g.get('place_queries')} place / {g.get('no_place_queries')} "
             f"null queries, this script {place_n} / {null_n}")
    note(f"glimpse: done in {g_seconds:.1f} s (index build included); OpenCV next")

    o_results, o_cpu, o_wall, cv_version, o_seconds, o_empty = run_opencv(args, refs, queries)
    note(f"opencv: done in {o_seconds:.1f} s; pHash next")
    p_results, p_cpu, p_wall, ih_version, p_seconds = run_phash(refs, queries)
    note(f"phash: done in {p_seconds:.1f} s")

    calibrated = f"with <= {g_false} false matches (Glimpse's count) on these null queries"

    def threshold(given, flag, fallback, calibrate, extreme):
        """A peer's threshold: the one given, the fixed fallback without null queries, else calibrated."""
        if given != "auto":
            return int(given), "fixed", f"fixed by {flag}"
        if null_n == 0:
            return fallback, "fixed", "fixed (no null queries to calibrate on)"
        return calibrate(), "calibrated", f"calibrated: the {extreme} " + calibrated

    o_threshold, o_rule, o_how = threshold(
        args.opencv_inliers, "--opencv-inliers", FIXED_ORB_INLIERS,
        lambda: calibrate_orb(o_results, queries, places, g_false), "smallest")
    p_threshold, p_rule, p_how = threshold(
        args.phash_distance, "--phash-distance", FIXED_PHASH_DISTANCE,
        lambda: calibrate_phash(p_results, queries, places, g_false), "largest")
    o_recall, o_false = outcome(o_results, queries, places, lambda s: s >= o_threshold)
    p_recall, p_false = outcome(p_results, queries, places, lambda d: d <= p_threshold)
    o_recall_fixed, o_false_fixed = outcome(o_results, queries, places, lambda s: s >= FIXED_ORB_INLIERS)
    p_recall_fixed, p_false_fixed = outcome(p_results, queries, places, lambda d: d <= FIXED_PHASH_DISTANCE)

    gc, gw = g["cpu_ms"], g["latency_ms"]
    oc = {s: summary(v) for s, v in o_cpu.items()}
    ow = {s: summary(v) for s, v in o_wall.items()}
    pc, pw = summary(p_cpu), summary(p_wall)

    print(f"Glimpse against its peers: {len(queries)} queries ({place_n} of catalog places, {null_n} of none), "
          f"{len(refs)} references from {os.path.join(args.catalog, 'catalog.json')}")
    print(f"manifest {args.manifest}")
    print(f"{g_version or 'glimpse'}; OpenCV {cv_version}; ImageHash {ih_version}; Python {platform.python_version()}; "
          f"{os.cpu_count()} cores; load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} at the end")
    print("one invocation, one after the other: glimpse eval, then OpenCV, then pHash; each on one thread, "
          "one query at a time")
    print(f"OpenCV: imread grayscale, resize to {ORB_LONG_SIDE} px long side (in decode), ORB {ORB_FEATURES} "
          f"keypoints; knnMatch k=2 + ratio {LOWE_RATIO} against all {len(refs)} references, "
          f"{'estimateAffinePartial2D' if args.model == 'affine' else 'findHomography'} RANSAC "
          f"({args.ransac_px:g} px) where >= {args.min_good} good matches; score = inliers")
    if o_empty:
        print(f"OpenCV: ORB found no keypoints in {len(o_empty)} reference photo(s), whose place it cannot match: "
              + ", ".join(o_empty))
    stage_table("thread CPU ms per query (Glimpse cpu_ms, Python time.thread_time)", gc, oc)
    stage_table("wall clock ms per query (Glimpse latency_ms, Python time.perf_counter)", gw, ow)
    print("(Glimpse's whole query is its own per-query sum; stage p50s do not add up to it)")
    print()
    print(f"{'whole query':<16}{'CPU p50':>9}{'p99':>8}{'wall p50':>10}{'p99':>8}{'recall@1':>10}"
          f"{'false':>10}  threshold")
    print(f"{'Glimpse':<16}{gc['total']['p50']:>9.1f}{gc['total']['p99']:>8.1f}{gw['total']['p50']:>10.1f}"
          f"{gw['total']['p99']:>8.1f}{g['recall_at_1']:>10.3f}{f'{g_false}/{null_n}':>10}  "
          f"accept score {g.get('accept_score', '?')} (its own)")
    print(f"{'OpenCV ORB':<16}{oc['total']['p50']:>9.1f}{oc['total']['p99']:>8.1f}{ow['total']['p50']:>10.1f}"
          f"{ow['total']['p99']:>8.1f}{o_recall:>10.3f}{f'{o_false}/{null_n}':>10}  "
          f">= {o_threshold} inliers, {o_how}")
    print(f"{'pHash':<16}{pc['p50']:>9.1f}{pc['p99']:>8.1f}{pw['p50']:>10.1f}{pw['p99']:>8.1f}"
          f"{p_recall:>10.3f}{f'{p_false}/{null_n}':>10}  "
          + (f"distance <= {p_threshold} of 64, " if p_threshold >= 0 else "none accepted (even distance 0 "
             "would pass more null queries), ") + p_how)
    print(f"at the common fixed thresholds: OpenCV >= {FIXED_ORB_INLIERS} inliers recall@1 {o_recall_fixed:.3f}, "
          f"{o_false_fixed}/{null_n} false; pHash <= {FIXED_PHASH_DISTANCE} recall@1 {p_recall_fixed:.3f}, "
          f"{p_false_fixed}/{null_n} false")
    speedup = ratio(oc["total"]["p50"], gc["total"]["p50"])
    features_ratio = ratio(gc["features"]["p50"], oc["features"]["p50"])
    recall_ratio = ratio(g["recall_at_1"], o_recall)
    print()
    print(f"OpenCV / Glimpse whole-query p50: {fmt(speedup, 2)}x CPU, "
          f"{fmt(ratio(ow['total']['p50'], gw['total']['p50']), 2)}x wall; "
          f"Glimpse features / ORB features p50: {fmt(features_ratio, 2)}; "
          f"Glimpse recall@1 / OpenCV's: {fmt(recall_ratio, 2)}")
    print(f"elapsed: glimpse eval {g_seconds:.1f} s (with index build), OpenCV {o_seconds:.1f} s, pHash {p_seconds:.1f} s")

    def r3(x):
        return None if x is None else round(x, 3)

    print(json.dumps({
        "manifest": args.manifest, "queries": len(queries), "place_queries": place_n, "no_place_queries": null_n,
        "references": len(refs), "time": "thread_cpu",
        "glimpse_p50_ms": r3(gc["total"]["p50"]), "glimpse_p99_ms": r3(gc["total"]["p99"]),
        "glimpse_features_p50_ms": r3(gc["features"]["p50"]),
        "glimpse_mirror_features_p50_ms": r3(gc.get("mirror_features", {}).get("p50")),
        "glimpse_mirror_features_mean_ms": r3(gc.get("mirror_features", {}).get("mean")),
        "glimpse_recall_at_1": r3(g["recall_at_1"]), "glimpse_false_matches": g_false,
        "glimpse_wall_p50_ms": r3(gw["total"]["p50"]), "glimpse_wall_p99_ms": r3(gw["total"]["p99"]),
        "opencv_orb_ransac_p50_ms": r3(oc["total"]["p50"]), "opencv_orb_ransac_p99_ms": r3(oc["total"]["p99"]),
        "opencv_orb_decode_p50_ms": r3(oc["decode"]["p50"]), "opencv_orb_features_p50_ms": r3(oc["features"]["p50"]),
        "opencv_orb_matching_p50_ms": r3(oc["matching"]["p50"]),
        "opencv_recall_at_1": r3(o_recall), "opencv_false_matches": o_false, "opencv_min_inliers": o_threshold,
        "opencv_threshold_rule": o_rule,
        "opencv_wall_p50_ms": r3(ow["total"]["p50"]), "opencv_wall_p99_ms": r3(ow["total"]["p99"]),
        "opencv_references_without_keypoints": len(o_empty), "opencv_model": args.model, "opencv_ransac_px": args.ransac_px,
        "phash_p50_ms": r3(pc["p50"]), "phash_p99_ms": r3(pc["p99"]),
        "phash_recall_at_1": r3(p_recall), "phash_false_matches": p_false, "phash_max_distance": p_threshold,
        "phash_threshold_rule": p_rule,
        "phash_wall_p50_ms": r3(pw["p50"]),
        "speedup": r3(speedup), "features_ratio": r3(features_ratio), "recall_ratio": r3(recall_ratio),
        "opencv_version": cv_version,
    }, sort_keys=False))


if __name__ == "__main__":
    main()
