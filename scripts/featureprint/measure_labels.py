"""Labels from the feature print: kNN over the L2-normalised 1280-d embeddings of the 193 labelled
references (the catalog photos with their catalog labels + a labelled folder), the same vote as the label
model (k nearest, weight 1 / (d + 0.05)^p, label score = weighted share of voters carrying it, global
threshold, then per-label thresholds for labels with >= 8 references), and optionally the network's own
ImageNet classifier as extra votes: score = (1 - a) * kNN score + a * (softmax mass of the ImageNet classes
mapped to the label, Models/imagenet-to-labels.json).

Honest numbers: vote settings (k, p, threshold, a) are chosen by 5-fold cross-validation, so no photo is
scored with settings fitted on itself. Leave-one-out: every reference labelled by the other 192.
Distorted: distort.py copies of the labelled (non-catalog) photos, each labelled without its own source
reference, settings calibrated on the leave-one-out scores of the references outside its fold.

  python3 scripts/featureprint/measure_labels.py --labelled ../shared/labelled \
      --distorted /tmp/q/labelled-s11 /tmp/q/labelled-s7 --mapping Models/imagenet-to-labels.json
"""

import argparse
import json
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import featureprint as fp  # noqa: E402

KS = list(range(3, 32, 2))
PS = [0.0, 1.0, 2.0]
THRS = np.round(np.arange(0.10, 0.901, 0.025), 4)
ALPHAS = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6]
MIN_REFS_OWN_THRESHOLD = 8


def knn_scores(dist, ref_labels, exclude):
    """dist: Q x R distances; exclude: Q x R bool (references a query may not use).
    Returns S[k_idx, p_idx, Q, L]."""
    d = np.where(exclude, np.inf, dist)
    order = np.argsort(d, axis=1)[:, :max(KS)]
    dn = np.take_along_axis(d, order, axis=1)
    labs = ref_labels[order]  # Q x K x L
    out = np.zeros((len(KS), len(PS), d.shape[0], ref_labels.shape[1]))
    for pi, p in enumerate(PS):
        w = 1.0 / (dn + 0.05) ** p
        for ki, k in enumerate(KS):
            ww = w[:, :k]
            out[ki, pi] = (ww[:, :, None] * labs[:, :k]).sum(1) / ww.sum(1, keepdims=True)
    return out


def micro(pred, truth):
    tp = np.logical_and(pred, truth).sum()
    fp_ = np.logical_and(pred, ~truth).sum()
    fn = np.logical_and(~pred, truth).sum()
    p = tp / max(tp + fp_, 1)
    r = tp / max(tp + fn, 1)
    return p, r, (2 * p * r / max(p + r, 1e-12))


def macro(pred, truth):
    f = [micro(pred[:, j:j + 1], truth[:, j:j + 1])[2] for j in range(truth.shape[1]) if truth[:, j].any()]
    return float(np.mean(f))


def bootstrap_gain(pred_a, pred_b, truth, groups, n=2000, seed=7):
    """Paired bootstrap over groups (a photo and its distorted copies): micro-F1 of b minus a."""
    rng = np.random.default_rng(seed)
    ug = np.unique(groups)
    members = [np.flatnonzero(groups == g) for g in ug]
    gains = []
    for _ in range(n):
        idx = np.concatenate([members[i] for i in rng.integers(0, len(ug), len(ug))])
        gains.append(micro(pred_b[idx], truth[idx])[2] - micro(pred_a[idx], truth[idx])[2])
    gains = np.array(gains)
    return float(np.percentile(gains, 2.5)), float(np.percentile(gains, 97.5)), float(np.mean(gains > 0))


def calibrate(S, C, truth, ref_counts, alphas, per_label):
    """Best (ki, pi, alpha, thresholds[L]) for micro F1 on these scores."""
    best = (-1, None)
    for ki in range(len(KS)):
        for pi in range(len(PS)):
            for a in alphas:
                sc = (1 - a) * S[ki, pi] + a * C
                for t in THRS:
                    f = micro(sc >= t, truth)[2]
                    if f > best[0]:
                        best = (f, (ki, pi, a, t))
    ki, pi, a, t = best[1]
    thr = np.full(truth.shape[1], t)
    if per_label:
        sc = (1 - a) * S[ki, pi] + a * C
        for lab in np.argsort(-ref_counts):
            if ref_counts[lab] < MIN_REFS_OWN_THRESHOLD:
                continue
            bf, bt = micro(sc >= thr, truth)[2], thr[lab]
            for tt in THRS:
                thr[lab] = tt
                f = micro(sc >= thr, truth)[2]
                if f > bf + 1e-12:
                    bf, bt = f, tt
            thr[lab] = bt
    return ki, pi, a, thr


def apply(S, C, setting):
    ki, pi, a, thr = setting
    return ((1 - a) * S[ki, pi] + a * C) >= thr[None, :]


def main():
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--catalog", default=os.path.join(root, "Images", "catalog.json"))
    ap.add_argument("--labelled", required=True, help="folder with labels.json")
    ap.add_argument("--distorted", nargs="*", default=[], help="distort.py copies of the labelled photos")
    ap.add_argument("--mapping", help="imagenet-to-labels.json; without it, kNN only")
    ap.add_argument("--mode", default="squash")
    ap.add_argument("--cache", default="/tmp/glimpse-featureprint-embeddings.pkl")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json")
    args = ap.parse_args()
    torch.set_num_threads(1)

    cat = json.load(open(args.catalog))
    vocab = cat["labels"]
    cat_dir = os.path.dirname(os.path.abspath(args.catalog))
    refs = [(os.path.join(cat_dir, p["image"]), p["labels"]) for p in cat["places"]]
    lab_doc = json.load(open(os.path.join(args.labelled, "labels.json")))
    n_cat = len(refs)
    refs += [(os.path.join(args.labelled, e["image"]), e["labels"]) for e in lab_doc]
    paths = [r[0] for r in refs]
    Y = np.array([[lab in r[1] for lab in vocab] for r in refs], dtype=bool)
    ref_counts = Y.sum(0)
    n = len(refs)
    print(f"{n} references ({n_cat} catalog, {n - n_cat} labelled), {len(vocab)} labels, mode {args.mode}")

    cache = fp.EmbeddingCache(fp.load_original(), args.cache)
    emb, logits = cache.get(paths, args.mode)
    E = fp.l2n(emb)
    M = None
    if args.mapping:
        mdoc = json.load(open(args.mapping))
        M = np.zeros((1000, len(vocab)))
        for c in mdoc["classes"]:
            for lab in c["labels"]:
                M[c["class"], vocab.index(lab)] = 1.0

    def cls_scores(lg):
        if M is None:
            return np.zeros((lg.shape[0], len(vocab)))
        p = torch.softmax(torch.from_numpy(lg.astype(np.float64)), 1).numpy()
        return np.minimum(p @ M, 1.0)

    def dist(a, b):
        return np.sqrt(np.maximum(2.0 - 2.0 * (a @ b.T), 0.0))

    # Leave-one-out scores of the references.
    S_loo = knn_scores(dist(E, E), Y, np.eye(n, dtype=bool))
    C_loo = cls_scores(logits)
    rng = np.random.default_rng(args.seed)
    fold = rng.permutation(np.arange(n) % args.folds)

    variants = [("kNN, global threshold", [0.0], False), ("kNN, per-label thresholds", [0.0], True)]
    if M is not None:
        variants += [("kNN + ImageNet votes, global threshold", ALPHAS, False),
                     ("kNN + ImageNet votes, per-label thresholds", ALPHAS, True)]
    results = {}
    rows = []
    preds = {}  # test set -> (truth, groups, {variant: pred})

    # Leave-one-out with cross-validated settings.
    for name, alphas, per_label in variants:
        pred = np.zeros_like(Y)
        chosen = []
        for f in range(args.folds):
            tr, te = fold != f, fold == f
            s = calibrate(S_loo[:, :, tr], C_loo[tr], Y[tr], Y[tr].sum(0), alphas, per_label)
            chosen.append((KS[s[0]], PS[s[1]], s[2]))
            pred[te] = apply(S_loo[:, :, te], C_loo[te], s)
        p, r, f1 = micro(pred, Y)
        preds.setdefault(f"leave-one-out ({n})", (Y, np.arange(n), {}))[2][name] = pred
        full = calibrate(S_loo, C_loo, Y, ref_counts, alphas, per_label)
        pin, rin, fin = micro(apply(S_loo, C_loo, full), Y)
        key = f"loo | {name}"
        results[key] = dict(P=p, R=r, F1=f1, F1_in_sample=fin, settings_folds=chosen,
                            settings_all=dict(k=KS[full[0]], p=PS[full[1]], alpha=full[2],
                                              threshold=float(np.median(full[3]))))
        rows.append((f"leave-one-out ({n})", name, p, r, f1, macro(pred, Y), fin,
                     f"k {KS[full[0]]}, p {PS[full[1]]:g}, a {full[2]:g}, thr {np.median(full[3]):.3f}"))

    # Distorted copies of the labelled (non-catalog) photos.
    lab_index = {os.path.basename(e["image"]): n_cat + i for i, e in enumerate(lab_doc)}
    for qdir in args.distorted:
        manifest = json.load(open(os.path.join(qdir, "queries.json")))
        qpaths = [os.path.join(qdir, m["query"]) for m in manifest]
        src = np.array([lab_index[m["source"]] for m in manifest])
        qemb, qlog = cache.get(qpaths, args.mode)
        QE = fp.l2n(qemb)
        excl = np.zeros((len(qpaths), n), dtype=bool)
        excl[np.arange(len(qpaths)), src] = True
        S_q = knn_scores(dist(QE, E), Y, excl)
        C_q = cls_scores(qlog)
        Yq = Y[src]
        for name, alphas, per_label in variants:
            pred = np.zeros_like(Yq)
            for f in range(args.folds):
                tr_src_fold = fold[src] == f
                held = np.zeros(n, dtype=bool)
                held[n_cat:] = fold[n_cat:] == f
                tr = ~held  # every reference but this fold's labelled photos (the queries' sources)
                s = calibrate(S_loo[:, :, tr], C_loo[tr], Y[tr], Y[tr].sum(0), alphas, per_label)
                pred[tr_src_fold] = apply(S_q[:, :, tr_src_fold], C_q[tr_src_fold], s)
            p, r, f1 = micro(pred, Yq)
            tset = f"{os.path.basename(qdir.rstrip('/'))} ({len(qpaths)})"
            preds.setdefault(tset, (Yq, src, {}))[2][name] = pred
            results[f"{tset} | {name}"] = dict(P=p, R=r, F1=f1, macroF1=macro(pred, Yq))
            rows.append((tset, name, p, r, f1, macro(pred, Yq), None, ""))

    print("| test set | vote | micro P | micro R | micro F1 (5-fold settings) | macro F1 | F1 in-sample | settings fitted on all |")
    print("|---|---|---|---|---|---|---|---|")
    for tset, name, p, r, f1, mf1, fin, st in rows:
        print(f"| {tset} | {name} | {p:.3f} | {r:.3f} | **{f1:.3f}** | {mf1:.3f} | "
              f"{'' if fin is None else f'{fin:.3f}'} | {st} |")
    if M is not None:
        print("\nmicro-F1 gain of the ImageNet votes (global threshold), paired bootstrap over photos "
              "(a photo with its distorted copies), 2000 resamples:")
        for tset, (truth, groups, pv) in preds.items():
            a, b = pv["kNN, global threshold"], pv["kNN + ImageNet votes, global threshold"]
            lo, hi, share = bootstrap_gain(a, b, truth, groups)
            gain = micro(b, truth)[2] - micro(a, truth)[2]
            results[f"{tset} | gain"] = dict(gain=gain, lo=lo, hi=hi, share_positive=share)
            print(f"  {tset}: {gain:+.3f}, 95 % interval {lo:+.3f} ... {hi:+.3f}, higher in {share * 100:.1f} % of resamples")

    # Per-label leave-one-out F1 for the kNN model, with and without ImageNet votes (settings on all).
    if M is not None:
        print("\nper label, leave-one-out F1 (global threshold fitted on all): kNN / kNN + ImageNet votes (refs)")
        s0 = calibrate(S_loo, C_loo, Y, ref_counts, [0.0], False)
        s1 = calibrate(S_loo, C_loo, Y, ref_counts, ALPHAS, False)
        p0, p1 = apply(S_loo, C_loo, s0), apply(S_loo, C_loo, s1)
        cells = []
        for li, lab in sorted(enumerate(vocab), key=lambda x: -ref_counts[x[0]]):
            if ref_counts[li] == 0:
                continue
            f0 = micro(p0[:, li:li + 1], Y[:, li:li + 1])[2]
            f1_ = micro(p1[:, li:li + 1], Y[:, li:li + 1])[2]
            cells.append(f"{lab} {f0:.2f}/{f1_:.2f} ({ref_counts[li]})")
        print(", ".join(cells))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1, default=float)


if __name__ == "__main__":
    main()
