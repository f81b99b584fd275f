#!/usr/bin/env python3
"""Split the photos of no catalog place into a distractor pool and probes, for
`glimpse eval --check-distractors --distractor-pool`.

  split-pool.py NEGATIVES LABELLED OUT [--by position|collection|source]

  NEGATIVES  the folder scripts/calibration/make-negatives.sh wrote (images/, and negatives.tsv
             beside this script for where each photo came from).
  LABELLED   the shared labelled photos (images/ and CREDITS.md), e.g. ../shared/labelled.
  OUT        gets pool.json (a manifest of the pool's photos) and probes/ (copies of the probes,
             to distort with distort.py: they are the check's queries).

  --by position    (default) even positions to the pool, odd to the probes, labelled first then
                   negatives, each in name order: the halves make-null-prints.sh uses. Photos of one
                   collection fall on both sides.
  --by collection  whole collections to one side or the other (the larger ones first, each to the
                   side with fewer photos so far), so that no set of look-alike photos (one game's
                   canyons, one activity's fishes) is on both sides.
  --by source      the endless-sky-data landscapes are the pool, every other photo a probe.

A collection is a photo's package and folder; for endless-sky-data, the landscape kind its file name
starts with (canyon, city, sea...).
"""
import json
import re
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def collections(negatives, labelled):
    """(path, collection) of every photo: labelled first, then negatives, each in name order."""
    from_credits = {}
    for line in (labelled / "CREDITS.md").read_text(encoding="utf-8").splitlines():
        m = re.match(r"\| `images/([^`]+)` \|.*\| Debian package (\S+) [^,]*, ([^;|]+)", line)
        if m:
            name, package, path = m.groups()
            from_credits[name] = package + ":" + path.strip().split("/")[-2]
    from_list = {}
    for line in (HERE / "negatives.tsv").read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        package, _, path, name = line.split("\t")[:4]
        if package == "endless-sky-data":
            from_list[name] = "endless-sky-data:" + re.match(r"[a-z]*", path.split("/")[-1]).group(0)
        else:
            from_list[name] = package
    photos = []
    for folder, known in ((labelled / "images", from_credits), (negatives / "images", from_list)):
        for p in sorted(folder.iterdir()):
            if p.suffix.lower() in (".jpg", ".jpeg", ".png"):
                photos.append((p, known.get(p.name, "unknown:" + p.name)))
    return photos


def split(photos, by):
    if by == "position":
        return [p for i, p in enumerate(photos) if i % 2 == 0], [p for i, p in enumerate(photos) if i % 2 == 1]
    if by == "source":
        return ([p for p in photos if p[1].startswith("endless-sky-data:")],
                [p for p in photos if not p[1].startswith("endless-sky-data:")])
    groups = {}
    for p in photos:
        groups.setdefault(p[1], []).append(p)
    pool, probes = [], []
    for name in sorted(groups, key=lambda g: (-len(groups[g]), g)):
        (pool if len(pool) <= len(probes) else probes).extend(groups[name])
    return pool, probes


def main(argv):
    by = "position"
    if "--by" in argv:
        i = argv.index("--by")
        by = argv[i + 1] if i + 1 < len(argv) else ""
        argv = argv[:i] + argv[i + 2:]
    if len(argv) != 3 or by not in ("position", "collection", "source"):
        sys.exit(__doc__)
    negatives, labelled, out = (Path(a).resolve() for a in argv)
    pool, probes = split(collections(negatives, labelled), by)
    out.mkdir(parents=True, exist_ok=True)
    (out / "pool.json").write_text(json.dumps(
        [{"query": str(p), "place_id": None, "ops": []} for p, _ in pool], indent=1) + "\n")
    folder = out / "probes"
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir()
    for p, _ in probes:
        shutil.copyfile(p, folder / p.name)
    for side, photos in (("pool", pool), ("probes", probes)):
        kinds = sorted({c for _, c in photos})
        print(f"{side}: {len(photos)} photos from {len(kinds)} collections")
    shared = {c for _, c in pool} & {c for _, c in probes}
    print(f"collections on both sides: {len(shared)}")


if __name__ == "__main__":
    main(sys.argv[1:])
