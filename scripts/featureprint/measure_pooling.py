"""Would another pooling of the network's last feature map rank the right place higher among a million
references? For each pooling of the 7 x 7 x 1280 map (avg: today's print; gem3: generalised mean, p = 3;
mac: max; rmac: regional max, 3 scales; ravg: regional average; sqrtavg: square-rooted average; a+b: both
side by side), prints the catalog photos' views (whole, mirror, four corners, centre: FeaturePrintViews),
a distractor pool's views and the queries (whole), makes distractors from the pool as Glimpse's
Distractors does (a view near a pool photo's at the similarity of its nearest other pool photo, leaning
towards another with Gaussian noise), and estimates, for each query, how many of 10^6 such distractors
lie nearer than its own place (from --distractors of them, scaled).

  python3 scripts/featureprint/measure_pooling.py --queries strong.json --pool cal.json avg gem3 mac rmac

--queries: a glimpse eval manifest of catalog queries whose entries name their "source" photo in
Images/photos; --pool: a manifest of photos of no catalog place. Needs torch, numpy and Pillow (Debian's
python3-torch); reads Models/featureprint.glimpsemodel. Results: Benchmarks/results/2026-12-07-central-indexed-keypoints.md.
"""
import argparse
import json
import os
import sys

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import featureprint as fp  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def feature_maps(header, ops, paths, long_side, with_views):
    """Per photo, the last feature map (V x 1280 x 7 x 7, float16) of its views, or of the whole photo."""
    pool_input = next(o for o in ops if o["kind"] == fp.KIND_POOL)["input"]
    out = []
    for path in paths:
        img = fp.load_rgb(path)
        scale = long_side / max(img.size)
        if scale < 1:
            img = img.resize((max(1, round(img.width * scale)), max(1, round(img.height * scale))), Image.BOX)
        w, h = img.size
        cw, ch = max(1, round(w * 2 / 3)), max(1, round(h * 2 / 3))
        r, b = w - cw, h - ch
        views = [img, img.transpose(Image.FLIP_LEFT_RIGHT), img.crop((0, 0, cw, ch)), img.crop((r, 0, r + cw, ch)),
                 img.crop((0, b, cw, b + ch)), img.crop((r, b, r + cw, b + ch)),
                 img.crop((r // 2, b // 2, r // 2 + cw, b // 2 + ch))] if with_views else [img]
        got = {}
        fp.file_forward(header, ops, np.stack([fp.reduce_to_input(v) for v in views]),
                        on_value=lambda op, y: got.update(m=y.numpy().copy()) if op["output"] == pool_input else None)
        out.append(got["m"].astype(np.float16))
    return np.stack(out)


def l2n(x):
    return x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-12)


def regions(levels=3, size=7):
    """R-MAC's square regions of a size x size map: at level l, l x l windows of side 2*size/(l+1)."""
    out = []
    for level in range(1, levels + 1):
        side = int(2 * size // (level + 1))
        step = 0 if level == 1 else (size - side) / (level - 1)
        for i in range(level):
            for j in range(level):
                y = (size - side) // 2 if level == 1 else int(round(i * step))
                x = (size - side) // 2 if level == 1 else int(round(j * step))
                out.append((y, x, side))
    return out


def pool(maps, kind):
    m = maps.astype(np.float32)
    if "+" in kind:
        return l2n(np.concatenate([pool(maps, k) for k in kind.split("+")], -1))
    if kind == "avg":
        v = m.mean((-1, -2))
    elif kind.startswith("gem"):
        p = float(kind[3:])
        v = np.power(np.power(np.maximum(m, 1e-6), p).mean((-1, -2)), 1 / p)
    elif kind == "mac":
        v = m.max((-1, -2))
    elif kind in ("rmac", "ravg"):
        reduce = (lambda r: r.max((-1, -2))) if kind == "rmac" else (lambda r: r.mean((-1, -2)))
        v = sum(l2n(reduce(m[..., y:y + s, x:x + s])) for y, x, s in regions())
    elif kind == "sqrtavg":
        v = np.sqrt(m.mean((-1, -2)))
    else:
        raise SystemExit(f"unknown pooling {kind}")
    return l2n(v)


def distractor_views(a, b, t, rng):
    """unit(alpha*a + (1-alpha)*b~), b~ = max(0, b + noise), alpha set so the similarity to a is t."""
    d = a.shape[1]
    bt = np.maximum(0, b + (0.1 / np.sqrt(d)) * rng.standard_normal(b.shape).astype(np.float32))
    s = (a * bt).sum(1).astype(np.float64)
    q = (bt * bt).sum(1).astype(np.float64)

    def similarity(al):
        sq = al * al + 2 * al * (1 - al) * s + (1 - al) ** 2 * q
        return np.where(sq > 0, (al + (1 - al) * s) / np.sqrt(np.maximum(sq, 1e-30)), 1)

    lo, hi = np.zeros_like(s), np.ones_like(s)
    for _ in range(40):
        mid = (lo + hi) / 2
        below = similarity(mid) < t
        lo, hi = np.where(below, mid, lo), np.where(below, hi, mid)
    alpha = np.where(similarity(np.zeros_like(s)) < t, hi, 0).astype(np.float32)[:, None]
    return l2n(alpha * a + (1 - alpha) * bt)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--queries", required=True)
    ap.add_argument("--pool", required=True)
    ap.add_argument("--distractors", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("poolings", nargs="*", default=["avg", "gem3", "mac", "rmac", "ravg", "sqrtavg"])
    args = ap.parse_args()
    header, ops = fp.decode_file(open(os.path.join(ROOT, "Models", "featureprint.glimpsemodel"), "rb").read())
    queries = json.load(open(args.queries))
    pool_photos = [e["query"] for e in json.load(open(args.pool))]
    sources = sorted({q["source"] for q in queries})
    truth = np.array([sources.index(q["source"]) for q in queries])
    catalog_maps = feature_maps(header, ops, [os.path.join(ROOT, "Images", "photos", s) for s in sources], 640, True)
    pool_maps = feature_maps(header, ops, pool_photos, 640, True)
    query_maps = feature_maps(header, ops, [q["query"] for q in queries], 512, False)[:, 0]
    for kind in args.poolings:
        catalog, pool_views, q = pool(catalog_maps, kind), pool(pool_maps, kind), pool(query_maps, kind)
        whole = pool_views[:, 0]
        g = whole @ whole.T
        np.fill_diagonal(g, -1)
        targets = g.max(1)
        sims = np.einsum("qd,pvd->qpv", q, catalog).max(2)
        own = sims[np.arange(len(q)), truth]
        nearer = (sims > own[:, None]).sum(1).astype(np.float64)
        rng = np.random.default_rng(args.seed)
        count = np.zeros(len(q))
        n_pool = len(pool_views)
        for start in range(0, args.distractors, 10_000):
            n = min(10_000, args.distractors - start)
            ai = rng.integers(0, n_pool, n)
            bi = (ai + rng.integers(1, n_pool, n)) % n_pool
            t = targets[rng.integers(0, n_pool, n)]
            views = np.stack([distractor_views(pool_views[ai, v], pool_views[bi, v], t, rng) for v in range(7)], 1)
            count += (np.einsum("qd,nvd->qnv", q, views, optimize=True).max(2) > own[:, None]).sum(1)
        estimate = nearer + count * (1_000_000 / args.distractors)
        print(f"{kind:14s} right place first among the catalog {np.mean(nearer == 0):.3f}; among 10^6 (estimated): "
              f"first {np.mean(estimate == 0):.3f}, in the nearest 16 {np.mean(estimate < 16):.3f}, "
              f"64 {np.mean(estimate < 64):.3f}, 256 {np.mean(estimate < 256):.3f}", flush=True)


if __name__ == "__main__":
    main()
