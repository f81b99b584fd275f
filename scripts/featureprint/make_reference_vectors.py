"""Writes the reference vectors the Swift feature-print test pins its output to:
Tests/GlimpseFeaturePrintTests/Fixtures/reference-inputs/NAME.png (catalog photos reduced to exactly
224 x 224 RGB; the PNG is the network input itself) and reference-vectors.json with, for each PNG, the
1280-d pooled embedding and the top-5 logits of the ORIGINAL unfolded fp32 network on exactly those
pixels, scaled (x - 127) / 128. Also checks that the converted file agrees on them.
"""

import argparse
import json
import os
import sys

import numpy as np
import torch
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import featureprint as fp  # noqa: E402

PHOTOS = [
    "003-misty-lake-at-blue-hour.jpg",
    "012-orange-gerbera-close-up.jpg",
    "019-paintbrushes-in-a-jar.jpg",
    "039-cit-de-carcassonne.jpg",
    "040-eiffel-tower.jpg",
    "060-taj-mahal.jpg",
    "082-giant-panda.jpg",
    "086-brown-hens-on-grass.jpg",
]


def g7(v):
    return float(f"{float(v):.7g}")


def main():
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--fixtures", default=os.path.join(root, "Tests", "GlimpseFeaturePrintTests", "Fixtures"))
    ap.add_argument("--model", default=os.path.join(root, "Models", "featureprint.glimpsemodel"))
    args = ap.parse_args()
    torch.set_num_threads(1)

    inputs_dir = os.path.join(args.fixtures, "reference-inputs")
    os.makedirs(inputs_dir, exist_ok=True)
    model = fp.load_original()
    pixels, entries = [], []
    for name in PHOTOS:
        src = os.path.join("Images", "photos", name)
        arr = fp.reduce_to_input(fp.load_rgb(os.path.join(root, src)), "squash")
        png = os.path.join(inputs_dir, os.path.splitext(name)[0] + ".png")
        Image.fromarray(arr, "RGB").save(png, optimize=True)
        back = np.asarray(Image.open(png).convert("RGB"))  # the network sees the PNG's pixels
        assert back.shape == (224, 224, 3) and np.array_equal(back, arr)
        pixels.append(back)
        entries.append({"input": "reference-inputs/" + os.path.basename(png), "source": src})
    batch = np.stack(pixels)
    emb, logits = fp.original_forward(model, batch)
    for e, v, lg in zip(entries, emb, logits):
        top = np.argsort(-lg)[:5]
        e["embedding"] = [g7(x) for x in v]
        e["top5"] = [{"class": int(i), "logit": g7(lg[i])} for i in top]
    out = os.path.join(args.fixtures, "reference-vectors.json")
    with open(out, "w") as f:
        f.write("[\n")
        f.write(",\n".join(json.dumps(e, separators=(",", ":")) for e in entries))
        f.write("\n]\n")
    print(f"wrote {out} ({os.path.getsize(out)} bytes) and {len(entries)} PNGs in {inputs_dir}")

    # The rounded reference values and the converted file both agree with the network.
    stored = np.array([e["embedding"] for e in entries], dtype=np.float64)
    print(f"  7-digit rounding: cosine min {fp.cosine_rows(stored, emb).min():.9f}")
    if os.path.exists(args.model):
        with open(args.model, "rb") as f:
            header, ops = fp.decode_file(f.read())
        emb_file, logits_file = fp.file_forward(header, ops, batch)
        cos = fp.cosine_rows(stored, emb_file)
        print(f"  {os.path.relpath(args.model, root)} on these inputs: cosine min {cos.min():.7f}, "
              f"top-1 same {np.mean(np.argmax(logits_file, 1) == np.argmax(logits, 1)) * 100:.0f} %")
        if cos.min() < 0.9999:
            sys.exit("the converted file disagrees with the reference vectors")


if __name__ == "__main__":
    main()
