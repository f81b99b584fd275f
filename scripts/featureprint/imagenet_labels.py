"""Maps the 1000 ImageNet classes of the feature-print network onto the catalog's label vocabulary through
WordNet 3.0 hypernyms, and writes Models/imagenet-to-labels.json.

Each ImageNet class is a WordNet 3.0 noun synset (wnid = 'n' + 8-digit offset). A class gets the labels of
every synset in ROOTS that is the class itself or one of its (instance) hypernyms, transitively. ROOTS
was written from WordNet's glosses, before any measurement, and is not tuned to photos.

Inputs: the class wnids in network order (timm/data/_info/imagenet_synsets.txt, read straight from the PyPI
wheel `timm` without installing it) and WordNet's data.noun (Debian package wordnet-base).

  apt-get install wordnet-base
  pip download --no-deps timm==1.0.31 -d /tmp/timm-wheel
  python3 scripts/featureprint/imagenet_labels.py --synsets /tmp/timm-wheel/timm-1.0.31-py3-none-any.whl
"""

import argparse
import hashlib
import json
import os
import sys
import zipfile

SYNSETS_IN_WHEEL = "timm/data/_info/imagenet_synsets.txt"

# WordNet 3.0 noun offset -> (lemma, labels). The lemma is checked against data.noun.
ROOTS = {
    "00015388": ("animal", ["animal"]),
    "01503061": ("bird", ["bird"]),
    "02159955": ("insect", ["insect"]),
    "02512053": ("fish", ["water"]),
    "02062017": ("aquatic_mammal", ["water"]),
    "00007846": ("person", ["person"]),
    "00017222": ("plant", ["plant"]),
    "13086908": ("plant_part", ["plant"]),
    "11669921": ("flower", ["flower"]),
    "13104059": ("tree", ["tree"]),
    "03991062": ("pot", ["plant"]),  # flowerpot
    "07555863": ("food", ["food"]),  # solid food
    "07557434": ("dish", ["food"]),  # a particular item of prepared food
    "07707451": ("vegetable", ["food"]),
    "07705931": ("edible_fruit", ["food"]),
    "02913152": ("building", ["building"]),
    "02980441": ("castle", ["castle", "building"]),
    "04460130": ("tower", ["tower"]),
    "02733524": ("arch", ["arch"]),
    "03220513": ("dome", ["dome"]),
    "03074380": ("column", ["column"]),  # a vertical cylindrical structure standing alone
    "03903868": ("pedestal", ["statue"]),  # a base as for a column or statue
    "04306847": ("statue", ["statue"]),
    "02898711": ("bridge", ["bridge"]),
    "09225146": ("body_of_water", ["water"]),
    "09433442": ("shore", ["water"]),
    "09332890": ("lakeside", ["lake"]),
    "09428293": ("seashore", ["sea", "sand"]),
    "09421951": ("sandbar", ["sand", "water"]),
    "09399592": ("promontory", ["sea", "water", "rock"]),
    "09256479": ("coral_reef", ["sea", "water"]),
    "09288635": ("geyser", ["water"]),
    "09246464": ("cliff", ["rock"]),
    "09359803": ("mountain", ["mountain"]),
    "09468604": ("valley", ["mountain"]),
    "04530566": ("vessel", ["boat", "water"]),  # watercraft
    "03791235": ("motor_vehicle", ["road"]),
    "03405725": ("furniture", ["indoor"]),
    "03528263": ("home_appliance", ["indoor"]),
    "03147509": ("cup", ["cup"]),
    "07930864": ("cup", ["cup"]),  # ImageNet's class "cup" is this synset (a punch), its photos show cups
    "03241496": ("drinking_vessel", ["cup"]),
}


def read_wordnet(path):
    """offset -> (lemmas, hypernym offsets, gloss) for every noun synset."""
    syn = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("  "):
                continue
            head, _, gloss = line.partition(" | ")
            parts = head.split()
            offset, n_words = parts[0], int(parts[3], 16)
            words = [parts[4 + 2 * i] for i in range(n_words)]
            i = 4 + 2 * n_words
            n_ptr = int(parts[i])
            hyper = []
            for j in range(n_ptr):
                sym, target, pos = parts[i + 1 + 4 * j:i + 4 + 4 * j]
                if sym in ("@", "@i") and pos == "n":
                    hyper.append(target)
            syn[offset] = (words, hyper, gloss.strip())
    return syn


def ancestors(syn, offset):
    seen, todo = set(), [offset]
    while todo:
        o = todo.pop()
        if o in seen:
            continue
        seen.add(o)
        todo.extend(syn[o][1])
    return seen


def read_synsets(path):
    """(text, source description) of the class list, from timm's wheel or a plain text file."""
    if path.endswith(".whl"):
        with zipfile.ZipFile(path) as z:
            text = z.read(SYNSETS_IN_WHEEL).decode("utf-8")
        return text, f"{SYNSETS_IN_WHEEL} from {os.path.basename(path)}"
    with open(path, encoding="utf-8") as f:
        return f.read(), os.path.basename(path)


def build(synsets_text, wordnet_path, vocabulary):
    wnids = [l.strip() for l in synsets_text.splitlines() if l.strip()]
    if len(wnids) != 1000:
        sys.exit(f"{len(wnids)} ImageNet classes, expected 1000")
    syn = read_wordnet(wordnet_path)
    for off, (lemma, labels) in ROOTS.items():
        if off not in syn or lemma not in syn[off][0]:
            sys.exit(f"WordNet synset {off} is not '{lemma}'")
        for lab in labels:
            if lab not in vocabulary:
                sys.exit(f"label {lab} is not in the catalog vocabulary")
    classes = []
    for idx, wnid in enumerate(wnids):
        off = wnid[1:]
        anc = ancestors(syn, off)
        labels = sorted({lab for r, (_, labs) in ROOTS.items() if r in anc for lab in labs},
                        key=vocabulary.index)
        classes.append({"class": idx, "wnid": wnid, "name": syn[off][0][0].replace("_", " "), "labels": labels})
    return classes


def main():
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--synsets", required=True, help="timm's wheel (.whl) or its imagenet_synsets.txt")
    ap.add_argument("--wordnet", default="/usr/share/wordnet/data.noun")
    ap.add_argument("--catalog", default=os.path.join(root, "Images", "catalog.json"))
    ap.add_argument("--output", default=os.path.join(root, "Models", "imagenet-to-labels.json"))
    args = ap.parse_args()
    vocabulary = json.load(open(args.catalog))["labels"]
    text, source = read_synsets(args.synsets)
    classes = build(text, args.wordnet, vocabulary)
    sha_syn = hashlib.sha256(text.encode("utf-8")).hexdigest()
    sha_wn = hashlib.sha256(open(args.wordnet, "rb").read()).hexdigest()
    doc = {
        "description": "ImageNet-1k classes of Models/featureprint.glimpsemodel (logit order) mapped onto the "
                       "catalog label vocabulary through WordNet 3.0 hypernyms",
        "provenance": f"class wnids: {source} (sha256 {sha_syn}); WordNet 3.0 data.noun (Debian wordnet-base, "
                      f"sha256 {sha_wn}); written by scripts/featureprint/imagenet_labels.py",
        "use": "label score = (1 - a) * kNN score + a * sum of softmax probabilities of the classes carrying the "
               "label (capped at 1); a = 0.5 measured best (scripts/featureprint/measure_labels.py)",
        "roots": [{"wnid": "n" + off, "lemma": lemma, "labels": labels} for off, (lemma, labels) in ROOTS.items()],
        "classes": classes,
    }
    with open(args.output, "w") as f:
        f.write(json.dumps({k: v for k, v in doc.items() if k not in ("roots", "classes")}, indent=1)[:-2])
        for key in ("roots", "classes"):
            f.write(f',\n "{key}": [\n')
            f.write(",\n".join("  " + json.dumps(c) for c in doc[key]))
            f.write("\n ]")
        f.write("\n}\n")
    mapped = sum(1 for c in classes if c["labels"])
    print(f"wrote {args.output}: {mapped} of 1000 classes carry at least one label")


if __name__ == "__main__":
    main()
