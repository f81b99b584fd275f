#!/usr/bin/env python3
"""Helper of make-lookalikes.sh.

  lookalikes.py build LIST ROOT NEGATIVES LABELLED IMAGES OUT
      LIST:      lookalikes.tsv (role, package, version, path, output name, title, kind, collections,
                 labels, author, license; '#' comments).
      ROOT:      ROOT/PACKAGE/PATH holds the extracted files of the place and null rows.
      NEGATIVES: make-negatives.sh's output (images/ holds the pool rows' photos).
      LABELLED:  the labelled photos (with NEGATIVES/images, the null pool's order).
      IMAGES:    the catalog folder whose places are copied (Images/).
      Writes OUT/lookalike-catalog (catalog.json, photos/, CREDITS.md, copyright/) and
      OUT/lookalike-nulls/images.

  lookalikes.py manifests OUT
      After distort.py has written OUT/lookalike-queries/{default,strong} and
      OUT/lookalike-nulls/{default,strong}: writes OUT/lookalike-queries-{default,strong}.json and
      OUT/lookalike-nulls-{default,strong}.json (paths relative to OUT, place_id null for the nulls)
      and OUT/README.md.
"""
import json
import shutil
import sys
from pathlib import Path

LONG_SIDE = 1024     # as make-negatives.sh: longest side at most 1024 px, JPEG quality 90
QUALITY = 90
SPRITE_SIDE = 512    # sprites (a few hundred px) are enlarged to this longest side
COLUMNS = ("role", "package", "version", "path", "name", "title", "kind", "collections", "labels",
           "author", "license")
COLLECTIONS = {
    "spacecraft": ("Spacecraft", "Endless Sky ship renders seen from above: look-alike objects of one kind."),
    "planets": ("Planets", "Endless Sky planet renders: half-lit spheres, look-alike objects of one kind."),
}
PHOTO_EXTENSIONS = (".jpg", ".jpeg", ".png")


def read_rows(path):
    rows = []
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        cols = line.split("\t")
        if len(cols) != len(COLUMNS):
            sys.exit(f"{path}:{n}: expected {len(COLUMNS)} tab-separated columns, got {len(cols)}")
        row = dict(zip(COLUMNS, cols))
        if row["role"] not in ("place", "null", "pool"):
            sys.exit(f"{path}:{n}: role must be place, null or pool")
        rows.append(row)
    names = [r["name"] for r in rows]
    if len(set(names)) != len(names):
        sys.exit(f"{path}: duplicate output names")
    return rows


def null_pool_order(labelled, negatives):
    """Photo names in make-null-prints.sh's order: labelled photos, then negatives, each by name."""
    names = []
    for folder in (labelled, negatives / "images"):
        names += sorted(p.name for p in folder.iterdir()
                        if p.is_file() and p.suffix.lower() in PHOTO_EXTENSIONS)
    return names


def check_pool_rows(rows, labelled, negatives, here):
    """Each pool row must be a negatives.tsv photo at an even (calibration) position of the pool."""
    listed = set()
    for line in (here / "negatives.tsv").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            listed.add(tuple(line.split("\t")[:4]) + tuple(line.split("\t")[4:6]))
    order = null_pool_order(labelled, negatives)
    position = {name: i for i, name in enumerate(order)}
    for r in rows:
        if r["role"] != "pool":
            continue
        key = (r["package"], r["version"], r["path"], r["name"], r["author"], r["license"])
        if key not in listed:
            sys.exit(f"pool photo {r['name']} is not listed alike in negatives.tsv")
        if r["name"] not in position:
            sys.exit(f"pool photo {r['name']} is not in {negatives}/images")
        if position[r["name"]] % 2:
            sys.exit(f"pool photo {r['name']} is at odd position {position[r['name']]}: held out, not a calibration null")
        r["position"] = position[r["name"]]


def to_rgb(im, background):
    from PIL import Image
    if im.mode in ("RGBA", "LA") or (im.mode == "P" and "transparency" in im.info):
        im = im.convert("RGBA")
        bg = Image.new("RGB", im.size, background)
        bg.paste(im, mask=im.getchannel("A"))
        return bg
    return im.convert("RGB")


def save_photo(src, dst, sprite):
    """Resized JPEG copy; sprites go on black (space) and are enlarged to SPRITE_SIDE."""
    from PIL import Image
    Image.MAX_IMAGE_PIXELS = None
    with Image.open(src) as im:
        im.load()
        im = to_rgb(im, "black" if sprite else "white")
    target = max(min(max(im.size), LONG_SIDE), SPRITE_SIDE if sprite else 0)
    s = target / max(im.size)
    if s != 1:
        im = im.resize((max(1, round(im.width * s)), max(1, round(im.height * s))),
                       Image.LANCZOS)
    im.save(dst, "JPEG", quality=QUALITY)


def split_list(text):
    return [t for t in text.split(",") if t]


def build(list_path, root, negatives, labelled, images, out):
    here = Path(__file__).resolve().parent
    root, negatives, labelled, images, out = map(Path, (root, negatives, labelled, images, out))
    rows = read_rows(list_path)
    check_pool_rows(rows, labelled, negatives, here)

    catalog_dir = out / "lookalike-catalog"
    nulls_dir = out / "lookalike-nulls" / "images"
    for d in (catalog_dir, nulls_dir):
        if d.exists():
            shutil.rmtree(d)
    shutil.copytree(images / "photos", catalog_dir / "photos")
    nulls_dir.mkdir(parents=True)
    catalog = json.loads((images / "catalog.json").read_text(encoding="utf-8"))
    known = {c["id"] for c in catalog["collections"]}
    for cid, (name, summary) in COLLECTIONS.items():
        if cid not in known:
            catalog["collections"].append({"id": cid, "name": name, "summary": summary})
    vocabulary = set(catalog["labels"])
    ids = {p["id"] for p in catalog["places"]}
    number = len(list((images / "photos").iterdir()))

    added, nulls = [], []
    for r in rows:
        sprite = r["package"] == "endless-sky-data"
        if r["role"] == "null":
            name = f"{len(nulls) + 1:03d}-{r['name']}"
            save_photo(root / r["package"] / r["path"], nulls_dir / name, sprite)
            nulls.append((name, r))
            continue
        number += 1
        if r["role"] == "pool":
            stem = r["name"].split("-", 1)[1]
            name = f"{number:03d}-{Path(stem).stem}.jpg"
            shutil.copyfile(negatives / "images" / r["name"], catalog_dir / "photos" / name)  # the pool's very bytes
            place_id = "pool-" + Path(stem).stem
        else:
            name = f"{number:03d}-{r['name']}"
            save_photo(root / r["package"] / r["path"], catalog_dir / "photos" / name, sprite)
            place_id = Path(r["name"]).stem
        labels = split_list(r["labels"])
        if not set(labels) <= vocabulary:
            sys.exit(f"{r['name']}: labels {sorted(set(labels) - vocabulary)} are not in the vocabulary")
        collections = split_list(r["collections"])
        if place_id in ids:
            sys.exit(f"duplicate place id {place_id}")
        ids.add(place_id)
        catalog["places"].append({
            "id": place_id, "name": r["title"], "image": f"photos/{name}", "labels": labels,
            "collections": collections, "kind": r["kind"], "continent": "",
            "credit": {"author": r["author"], "license": r["license"],
                       "source": f"Debian package {r['package']} {r['version']}, {r['path']}"},
        })
        added.append((name, r))
    (catalog_dir / "catalog.json").write_text(json.dumps(catalog, indent=2, ensure_ascii=False) + "\n",
                                              encoding="utf-8")

    cell = lambda s: s.replace("|", "\\|")
    credits = (images / "CREDITS.md").read_text(encoding="utf-8").rstrip("\n").splitlines()
    credits += [
        "",
        "## Added for the look-alike set",
        "",
        "Added by `scripts/calibration/make-lookalikes.sh` from `scripts/calibration/lookalikes.tsv`.",
        f"Endless Sky sprites are put on black and enlarged to a longest side of {SPRITE_SIDE} px (JPEG",
        f"quality {QUALITY}); the null-pool photos are make-negatives.sh's copies, byte for byte. Each",
        "package's `usr/share/doc/PKG/copyright` is in `copyright/`.",
        "",
        "| Image | Title | Author | License | Source (package version, path inside the package) |",
        "|---|---|---|---|---|",
    ]
    for name, r in added:
        credits.append(f"| `photos/{name}` | {cell(r['title'])} | {cell(r['author'])} | {cell(r['license'])} | "
                       f"Debian package {r['package']} {r['version']}, {cell(r['path'])} |")
    (catalog_dir / "CREDITS.md").write_text("\n".join(credits) + "\n", encoding="utf-8")

    null_credits = [
        "# Credits",
        "",
        "Look-alike photos of no catalog place: siblings of the look-alike catalog's ships and planets",
        f"held back from it. Sprites on black, enlarged to a longest side of {SPRITE_SIDE} px, JPEG quality {QUALITY}.",
        "",
        "| Image | Title | Author | License | Source (package version, path inside the package) |",
        "|---|---|---|---|---|",
    ]
    for name, r in nulls:
        null_credits.append(f"| `images/{name}` | {cell(r['title'])} | {cell(r['author'])} | {cell(r['license'])} | "
                            f"Debian package {r['package']} {r['version']}, {cell(r['path'])} |")
    (nulls_dir.parent / "CREDITS.md").write_text("\n".join(null_credits) + "\n", encoding="utf-8")

    cdir = catalog_dir / "copyright"
    cdir.mkdir(exist_ok=True)
    for pkg in sorted({r["package"] for r in rows}):
        for src in (root / pkg / "usr/share/doc" / pkg / "copyright", negatives / "copyright" / f"{pkg}.txt"):
            if src.exists():
                shutil.copyfile(src, cdir / f"{pkg}.txt")
                break
    shutil.copytree(cdir, nulls_dir.parent / "copyright", dirs_exist_ok=True)

    summary = {
        "catalog_places": len(catalog["places"]), "images_places": number - len(added),
        "added": [{"photo": n, "role": r["role"], "kind": r["kind"], "source": f"{r['package']}:{r['path']}",
                   **({"pool_name": r["name"], "pool_position": r["position"]} if r["role"] == "pool" else {})}
                  for n, r in added],
        "nulls": [{"photo": n, "kind": r["kind"], "source": f"{r['package']}:{r['path']}"} for n, r in nulls],
    }
    (out / "lookalike-summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    print(f"{len(catalog['places'])} places ({len(added)} added) in {catalog_dir}; {len(nulls)} nulls in {nulls_dir}")


def manifests(out):
    out = Path(out)
    summary = json.loads((out / "lookalike-summary.json").read_text())
    counts = {}
    for kind in ("queries", "nulls"):
        for strength in ("default", "strong"):
            folder = out / f"lookalike-{kind}" / strength
            entries = json.loads((folder / "queries.json").read_text())
            for e in entries:
                e["query"] = f"lookalike-{kind}/{strength}/{e['query']}"
                if kind == "nulls":
                    e["place_id"] = None
                elif not e.get("place_id"):
                    sys.exit(f"{folder}: {e['source']} has no place in the catalog")
            path = out / f"lookalike-{kind}-{strength}.json"
            path.write_text(json.dumps(entries, indent=1) + "\n")
            counts[path.name] = len(entries)
            print(f"{path}: {len(entries)} queries")

    added = summary["added"]
    by = lambda role, kind=None: sum(1 for a in added if a["role"] == role and (kind is None or a["kind"] == kind))
    nulls_by = lambda kind: sum(1 for n in summary["nulls"] if n["kind"] == kind)
    pool = [a for a in added if a["role"] == "pool"]
    lines = [
        "# Look-alike evaluation sets",
        "",
        "Made by `scripts/calibration/make-lookalikes.sh` (list: `scripts/calibration/lookalikes.tsv`).",
        "Every photo comes from a Debian bookworm package; authors and licenses are in",
        "`lookalike-catalog/CREDITS.md`, `lookalike-nulls/CREDITS.md` and their `copyright/` folders.",
        "",
        "| Path | What |",
        "|---|---|",
        f"| `negatives/` | make-negatives.sh's photos of no place (the calibration negatives) with `default/`, `strong/` copies |",
        f"| `lookalike-catalog/` | {summary['catalog_places']} places: the {summary['images_places']} of `Images/`, "
        f"{by('place', 'ship')} Endless Sky ships, {by('place', 'planet')} Endless Sky planets and "
        f"{len(pool)} photos of the calibration null pool |",
        f"| `lookalike-nulls/images/` | {len(summary['nulls'])} held-back siblings of no place: "
        f"{nulls_by('ship')} ships, {nulls_by('planet')} planets |",
        f"| `lookalike-queries-default.json` | {counts['lookalike-queries-default.json']} queries: one distort.py copy "
        "of every catalog photo (default strength, seed 41), with its place_id |",
        f"| `lookalike-queries-strong.json` | {counts['lookalike-queries-strong.json']} queries: one `--strong --flip` "
        "copy of every catalog photo (seed 42), with its place_id |",
        f"| `lookalike-nulls-default.json` | {counts['lookalike-nulls-default.json']} queries: one default copy of every "
        "held-back sibling (seed 43), place_id null |",
        f"| `lookalike-nulls-strong.json` | {counts['lookalike-nulls-strong.json']} queries: one `--strong --flip` copy "
        "of every held-back sibling (seed 44), place_id null |",
        "| `lookalike-summary.json` | every added photo and null with its source |",
        "",
        "## Sources",
        "",
        "- Ships and planets: `endless-sky-data` 0.9.8-1.2, `usr/share/games/endless-sky/images/ship/*.png` and",
        "  `images/planet/*.png` (CC-BY-SA-4.0, Michael Zahniser and others; NASA planets public domain).",
        f"  Sprites are put on black and enlarged to a longest side of {SPRITE_SIDE} px (JPEG quality {QUALITY}).",
        "  Catalog and held-back sprites are different designs: re-skins, animation frames and ships that",
        "  share parts never fall on both sides (see the comments of `lookalikes.tsv`).",
        "- Null-pool photos made places (calibration half: even positions of the labelled photos, then the",
        "  negatives, each by name; these are make-negatives.sh's very files):",
    ]
    for a in pool:
        lines.append(f"  - `{a['photo']}` = `negatives/images/{a['pool_name']}`, pool position {a['pool_position']}, "
                     f"{a['source']}")
    lines += [
        "- The other places and photos: `Images/` of the repository (copied as they are).",
        "",
        "## Running",
        "",
        "```",
    ]
    for kind in ("queries", "nulls"):
        for strength in ("default", "strong"):
            lines.append(f"glimpse eval --catalog {out}/lookalike-catalog --queries {out}/lookalike-{kind}-{strength}.json --json")
    lines += ["```", ""]
    (out / "README.md").write_text("\n".join(lines), encoding="utf-8")
    print(f"{out / 'README.md'} written")


if __name__ == "__main__":
    a = sys.argv[1:]
    if len(a) == 7 and a[0] == "build":
        build(*a[1:])
    elif len(a) == 2 and a[0] == "manifests":
        manifests(a[1])
    else:
        sys.exit(__doc__)
