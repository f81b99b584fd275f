"""Quantises Models/featureprint.glimpsemodel (the folded network, fp16 weights) to 8-bit integers and writes
Models/featureprint-int8.glimpsemodel (format version 2, docs in Models/README.md):

- weights: symmetric int8 per output channel (scale = max |w| / 127); biases f32 (the engine rounds them
  to its int32 accumulator grid, input scale x weight scale, when it loads the file), corrected for the
  mean error of the rounded weights on each layer's mean calibration input (bias correction);
- activations: asymmetric int8 per tensor, ranges calibrated by running the float network over photos we
  have: the catalog photos (Images/photos) and the labelled photos given with --calibration (by default
  ../shared/labelled/images beside the repository when present), each squashed to 224 x 224 as the printer
  does. A value's range is the shrink of its extremes over every photo that rounds a sample of its elements
  with the least squared error (--ranges mse, the default; or percentiles of the sample); ReLU6 outputs
  stay inside 0...6;
- the input image is int8 too, exactly: pixel x is stored as x - 128 with scale 1/128 and zero point
  mean - 128, which is (x - mean) / 128;
- the global average pool and the classifier stay in float: the last convolution's int8 output is
  converted to f32 and pooled, so the embedding is not rounded to 8 bits.

Then checks the written file: re-read, simulated (int8 grids in float arithmetic), and compared with the
float file over the catalog photos (cosine of the embeddings; the Swift test checks the engine itself).

Run through scripts/convert-featureprint.sh (or alone, in the same venv; it needs only the fp16 file).
"""

import argparse
import hashlib
import os
import pickle
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import featureprint as fp  # noqa: E402
import featureprint_int8 as fp8  # noqa: E402

MIN_COSINE_MEAN = 0.995
MIN_COSINE_MIN = 0.98
SAMPLES_PER_IMAGE = 20000


def calibration_photos(root, extra):
    photos = fp.photo_files(os.path.join(root, "Images", "photos"))
    for folder in extra:
        photos += fp.photo_files(folder)
    return photos


def collect_ranges(header, ops, batch, stats, rng):
    """Float forward of the file's network over batch; folds each value's extremes and a sample of its
    elements into stats[value] = [min, max, [samples]], and its channel sums into stats[("sum", value)]."""
    x = (np.asarray(batch, dtype=np.float32) - header["input_mean"]) * header["input_scale"]
    sums = stats.setdefault(("sum", 0), [0.0, 0])
    sums[0] = sums[0] + torch.from_numpy(np.ascontiguousarray(x.transpose(0, 3, 1, 2))).sum(dim=(0, 2, 3)).double().numpy()
    sums[1] += x.shape[0] * x.shape[1] * x.shape[2]

    def on_value(op, y):
        # Channel sums (over photos, rows and columns) for the bias correction of the layers that read y.
        sums = stats.setdefault(("sum", op["output"]), [0.0, 0])
        sums[0] = sums[0] + (y.sum(dim=(0, 2, 3)) if y.dim() == 4 else y.sum(dim=0)).double().numpy()
        sums[1] += y.shape[0] * (y.shape[2] * y.shape[3] if y.dim() == 4 else 1)
        flat = y.reshape(y.shape[0], -1).numpy()
        s = stats.setdefault(op["output"], [np.inf, -np.inf, []])
        s[0] = min(s[0], float(flat.min()))
        s[1] = max(s[1], float(flat.max()))
        for row in flat:
            n = min(SAMPLES_PER_IMAGE, row.size)
            s[2].append(row[rng.choice(row.size, n, replace=False)] if n < row.size else row.copy())

    fp.file_forward(header, ops, batch, on_value=on_value)


def mse_range(sample, lo, hi):
    """The range [a lo, a hi], a in 0.3...1, whose int8 grid rounds sample with the least squared error
    (clipped elements count with their clipping error)."""
    sample = np.asarray(sample, dtype=np.float32)
    if sample.size > 200000:
        sample = sample[np.random.default_rng(7).choice(sample.size, 200000, replace=False)]
    x = torch.from_numpy(sample)
    best = None
    for a in np.linspace(0.3, 1.0, 71):
        scale, zp = asymmetric(lo * a, hi * a)
        err = float(((fp8.quantize_values(x, float(scale), zp) - x) ** 2).mean())
        if best is None or err < best[0]:
            best = (err, lo * a, hi * a)
    return best[1], best[2]


def corrected_bias(op, dequantised, input_mean):
    """The bias that cancels the mean error the rounded weights make on the layer's mean input:
    b - sum over the kernel of (dequantised - w) x mean input channel (bias correction)."""
    error = dequantised.astype(np.float64) - np.asarray(op["weights"], dtype=np.float64)
    if op["kind"] == fp.KIND_CONV:
        shift = np.einsum("ohwi,i->o", error, input_mean)
    elif op["kind"] == fp.KIND_DEPTHWISE:
        shift = error.sum(axis=(0, 1)) * input_mean
    else:
        shift = error @ input_mean
    return (np.asarray(op["bias"], dtype=np.float64) - shift).astype(np.float32)


def asymmetric(lo, hi):
    """int8 (scale, zero point) covering [lo, hi] (widened to hold 0)."""
    lo, hi = min(lo, 0.0), max(hi, 0.0)
    if hi - lo < 1e-8:
        hi = lo + 1e-8
    scale = (hi - lo) / 255.0
    zp = int(np.clip(np.rint(-128.0 - lo / scale), -128, 127))
    return np.float32(scale), zp


def main():
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default=os.path.join(root, "Models", "featureprint.glimpsemodel"))
    ap.add_argument("--output", default=os.path.join(root, "Models", "featureprint-int8.glimpsemodel"))
    ap.add_argument("--calibration", action="append", default=None,
                    help="a folder of calibration photos besides the catalog's (repeatable; default "
                         "../shared/labelled/images when it exists)")
    ap.add_argument("--percentile", type=float, default=99.999,
                    help="the share of each value's sampled elements its range keeps (100: the extremes)")
    ap.add_argument("--ranges", choices=["mse", "percentile"], default="mse",
                    help="mse: each value's range is the shrink of its extremes that rounds its sampled elements "
                         "with the least squared error; percentile: the --percentile range")
    ap.add_argument("--no-bias-correction", dest="bias_correction", action="store_false",
                    help="keep the float biases as they are (by default each weighted layer's bias cancels the "
                         "mean error its rounded weights make on its mean calibration input)")
    ap.add_argument("--stats-cache", help="a file to keep the collected ranges in between runs")
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    torch.set_num_threads(args.threads)

    if args.calibration is None:
        default = os.path.join(root, "..", "shared", "labelled", "images")
        args.calibration = [default] if os.path.isdir(default) else []
    with open(args.model, "rb") as f:
        model_bytes = f.read()
    header, ops = fp.decode_file(model_bytes)
    photos = calibration_photos(root, args.calibration)
    print(f"calibration: {len(photos)} photos (catalog {len(fp.photo_files(os.path.join(root, 'Images', 'photos')))}"
          + "".join(f", {os.path.relpath(d, root)} {len(fp.photo_files(d))}" for d in args.calibration) + ")")

    stats = None
    if args.stats_cache and os.path.exists(args.stats_cache):
        with open(args.stats_cache, "rb") as f:
            cached = pickle.load(f)
        if cached["model_sha256"] == hashlib.sha256(model_bytes).hexdigest() and cached["photos"] == photos:
            stats = cached["stats"]
    if stats is None:
        stats, rng = {}, np.random.default_rng(31)
        t0 = time.time()
        for i in range(0, len(photos), 16):
            batch = np.stack([fp.reduce_to_input(fp.load_rgb(p), "squash") for p in photos[i:i + 16]])
            collect_ranges(header, ops, batch, stats, rng)
        for key, s in stats.items():
            if not isinstance(key, tuple):
                s[2] = np.concatenate(s[2])
        print(f"ranges collected in {time.time() - t0:.1f} s")
        if args.stats_cache:
            with open(args.stats_cache, "wb") as f:
                pickle.dump({"model_sha256": hashlib.sha256(model_bytes).hexdigest(), "photos": photos,
                             "stats": stats}, f)

    qops = []
    input_q = (np.float32(header["input_scale"]), int(round(header["input_mean"] - 128)))
    value_scales = {0: float(input_q[0])}
    for op in ops:
        q = dict(op)
        lo, hi, sample = stats[op["output"]]
        if op["act"] == fp.ACT_RELU6:
            lo, hi = 0.0, min(hi, 6.0)
        if args.ranges == "percentile" and args.percentile < 100:
            lo = min(lo, 0.0) if lo >= 0 else float(np.percentile(sample, 100 - args.percentile))
            hi = float(np.percentile(sample, args.percentile))
        elif args.ranges == "mse":
            lo, hi = mse_range(sample, lo, hi)
        if op["kind"] in (fp.KIND_POOL, fp.KIND_FC):
            q["oscale"], q["ozp"] = 0.0, 0  # the embedding and the logits stay float
        else:
            q["oscale"], q["ozp"] = asymmetric(lo, hi)
        if op["kind"] in fp8.WEIGHTED_KINDS:
            in_scale = value_scales[op["input"]]
            q["qweights"], q["wscales"] = fp8.quantize_weights(op["kind"], op["weights"], op["bias"], in_scale)
            if args.bias_correction:
                total, count = stats[("sum", op["input"])]
                q["bias"] = corrected_bias(op, fp8.dequantize_weights(op["kind"], q["qweights"], q["wscales"]),
                                           np.asarray(total) / count)
                # The corrected bias moves a little: keep it within the int32 accumulator too.
                q["qweights"], q["wscales"] = fp8.quantize_weights(op["kind"], op["weights"], q["bias"], in_scale)
                q["bias"] = corrected_bias(op, fp8.dequantize_weights(op["kind"], q["qweights"], q["wscales"]),
                                           np.asarray(total) / count)
            if in_scale > 0:
                steps = np.abs(q["bias"].astype(np.float64) / (in_scale * q["wscales"].astype(np.float64)))
                assert steps.max() < 2 ** 30, (op["output"], steps.max())
        value_scales[op["output"]] = float(q["oscale"])
        qops.append(q)
    assert abs(header["input_mean"] - 128 - input_q[1]) < 1e-6, "the input mean must be an integer"

    ranges = ("least-squared-error ranges" if args.ranges == "mse" else f"{args.percentile}th-percentile ranges")
    provenance = (f"{header['provenance']}; quantised to int8 by scripts/featureprint/quantize.py "
                  f"(weights symmetric per output channel{', bias-corrected' if args.bias_correction else ''}; "
                  f"activations asymmetric per tensor, {ranges} over {len(photos)} calibration photos: the catalog's "
                  f"and {', '.join(os.path.basename(os.path.dirname(d.rstrip('/'))) + '/' + os.path.basename(d.rstrip('/')) for d in args.calibration) or 'no others'})")
    data = fp8.encode_int8_file(qops, header["value_count"], header["embedding"], header["logits"], provenance,
                               input_q)
    tmp = args.output + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, args.output)
    print(f"wrote {args.output}: {len(data)} bytes")

    with open(args.output, "rb") as f:
        h8, ops8 = fp8.decode_int8_file(f.read())
    catalog = fp.photo_files(os.path.join(root, "Images", "photos"))
    batch = np.stack([fp.reduce_to_input(fp.load_rgb(p), "squash") for p in catalog])
    emb32, log32 = fp.file_forward(header, ops, batch)
    emb8, log8 = fp8.int8_forward(h8, ops8, batch)
    cos = fp.cosine_rows(emb32, emb8)
    top1 = float(np.mean(np.argmax(log32, 1) == np.argmax(log8, 1)))
    print(f"embedding cosine, int8 (simulated) vs float file over {len(catalog)} catalog photos: "
          f"mean {cos.mean():.5f}, min {cos.min():.5f}; top-1 class the same on {top1 * 100:.1f} %")
    if cos.mean() < MIN_COSINE_MEAN or cos.min() < MIN_COSINE_MIN:
        sys.exit(f"int8 file disagrees with the float file: cosine mean {cos.mean():.5f} (< {MIN_COSINE_MEAN}?) "
                 f"min {cos.min():.5f} (< {MIN_COSINE_MIN}?)")
    print("ok")


if __name__ == "__main__":
    main()
