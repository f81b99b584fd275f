"""Which reduction of a photo to the 224 x 224 input makes the best global descriptor?

For each reduction (squash: whole photo, area average; crop: largest centred square; pad: grey to a
square), embeds the catalog photos and the queries with the original network (1280-d pooled vector,
L2-normalised, cosine), then reports recall@1 / recall@5 of catalog queries (distort.py sets, each with its
queries.json), and the AUC of the best catalog cosine, catalog queries against photos of no catalog place.

  python3 scripts/featureprint/measure_retrieval.py --queries /tmp/q/default-s3 /tmp/q/strong-s3 \
      --negatives ../shared/labelled/images
"""

import argparse
import json
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import featureprint as fp  # noqa: E402


def auc(pos, neg):
    """Probability that a random positive scores above a random negative (ties count half)."""
    pos, neg = np.asarray(pos), np.asarray(neg)
    allv = np.concatenate([pos, neg])
    order = allv.argsort(kind="mergesort")
    ranks = np.empty(len(allv))
    sorted_v = allv[order]
    i = 0
    while i < len(allv):
        j = i
        while j + 1 < len(allv) and sorted_v[j + 1] == sorted_v[i]:
            j += 1
        ranks[order[i:j + 1]] = (i + j) / 2 + 1
        i = j + 1
    return (ranks[:len(pos)].sum() - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg))


def main():
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--photos", default=os.path.join(root, "Images", "photos"))
    ap.add_argument("--queries", nargs="+", required=True, help="distort.py output folders")
    ap.add_argument("--negatives", nargs="+", default=[], help="folders of photos of no catalog place")
    ap.add_argument("--modes", default="squash,crop,pad")
    ap.add_argument("--cache", default="/tmp/glimpse-featureprint-embeddings.pkl")
    ap.add_argument("--json", help="write all numbers here")
    args = ap.parse_args()
    torch.set_num_threads(1)

    cache = fp.EmbeddingCache(fp.load_original(), args.cache)
    catalog = fp.photo_files(args.photos)
    cat_names = [os.path.basename(p) for p in catalog]
    sets = []
    for q in args.queries:
        manifest = json.load(open(os.path.join(q, "queries.json")))
        sets.append((os.path.basename(q.rstrip("/")), [os.path.join(q, m["query"]) for m in manifest],
                     np.array([cat_names.index(m["source"]) for m in manifest])))
    negs = [(os.path.basename(n.rstrip("/")), fp.photo_files(n)) for n in args.negatives]

    results = {}
    for mode in args.modes.split(","):
        cat = fp.l2n(cache.get(catalog, mode)[0])
        res = {"negatives": {}}
        neg_best_all = []
        for name, paths in negs:
            e = fp.l2n(cache.get(paths, mode)[0])
            best = (e @ cat.T).max(1)
            neg_best_all.append(best)
            res["negatives"][name] = {"n": len(paths), "best_p50": float(np.percentile(best, 50)),
                                      "best_p99": float(np.percentile(best, 99)), "best_max": float(best.max())}
        neg_best = np.concatenate(neg_best_all) if neg_best_all else np.zeros(0)
        for name, paths, truth in sets:
            e = fp.l2n(cache.get(paths, mode)[0])
            sims = e @ cat.T
            order = np.argsort(-sims, axis=1)
            rank = np.argmax(order == truth[:, None], axis=1)
            best = sims.max(1)
            correct = rank == 0
            r = {"n": len(paths), "recall@1": float(np.mean(rank < 1)), "recall@5": float(np.mean(rank < 5)),
                 "correct_best_p1": float(np.percentile(best[correct], 1)),
                 "correct_best_p5": float(np.percentile(best[correct], 5)),
                 "correct_best_p50": float(np.percentile(best[correct], 50))}
            if len(neg_best):
                r["auc"] = float(auc(best, neg_best))
                for nname, nb in zip([n for n, _ in negs], neg_best_all):
                    r["auc_" + nname] = float(auc(best, nb))
            res[name] = r
        results[mode] = res

    set_names = [s[0] for s in sets]
    print("| reduction | " + " | ".join(f"{n} R@1 / R@5 / AUC" for n in set_names) + " |")
    print("|---|" + "---|" * len(set_names))
    for mode, res in results.items():
        cells = [f"{res[n]['recall@1']:.3f} / {res[n]['recall@5']:.3f} / {res[n].get('auc', float('nan')):.3f}"
                 for n in set_names]
        print(f"| {mode} | " + " | ".join(cells) + " |")
    print()
    for mode, res in results.items():
        for nname, v in res["negatives"].items():
            print(f"{mode}: best cosine of {v['n']} photos in {nname} (no catalog place): "
                  f"p50 {v['best_p50']:.3f}, p99 {v['best_p99']:.3f}, max {v['best_max']:.3f}")
        for n in set_names:
            r = res[n]
            extra = " ".join(f"{k} {v:.3f}" for k, v in r.items() if k.startswith("auc_"))
            print(f"{mode}: {n}: best cosine of correct top-1 matches p1 {r['correct_best_p1']:.3f}, "
                  f"p5 {r['correct_best_p5']:.3f}, p50 {r['correct_best_p50']:.3f}; {extra}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
