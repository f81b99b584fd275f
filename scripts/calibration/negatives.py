#!/usr/bin/env python3
"""Helper of make-negatives.sh.

  negatives.py LIST ROOT OUT
      LIST: negatives.tsv (package, version, path, output name, author, license; '#' comments).
      ROOT: ROOT/PACKAGE/PATH holds the extracted files.
      Writes OUT/images/*.jpg (long side <= 1024 px, JPEG quality 90), OUT/queries.json,
      OUT/CREDITS.md and OUT/copyright/PACKAGE.txt.

  negatives.py --null-places MANIFEST...
      Sets "place_id": null in every entry of each manifest (distorted copies of negatives).
"""
import json
import shutil
import sys
from pathlib import Path

LONG_SIDE = 1024
QUALITY = 90


def read_list(path):
    rows = []
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        cols = line.split("\t")
        if len(cols) != 6:
            sys.exit(f"{path}:{n}: expected 6 tab-separated columns, got {len(cols)}")
        rows.append(dict(zip(("package", "version", "path", "name", "author", "license"), cols)))
    names = [r["name"] for r in rows]
    if len(set(names)) != len(names):
        sys.exit(f"{path}: duplicate output names")
    return rows


def to_rgb(im):
    """RGB copy; transparent parts (a few wallpapers are RGBA/LA) go on white."""
    from PIL import Image
    if im.mode in ("RGBA", "LA") or (im.mode == "P" and "transparency" in im.info):
        im = im.convert("RGBA")
        bg = Image.new("RGB", im.size, "white")
        bg.paste(im, mask=im.getchannel("A"))
        return bg
    return im.convert("RGB")


def build(list_path, root, out):
    from PIL import Image
    Image.MAX_IMAGE_PIXELS = None
    rows = read_list(list_path)
    root, out = Path(root), Path(out)
    images = out / "images"
    if images.exists():
        shutil.rmtree(images)
    images.mkdir(parents=True)
    for r in rows:
        src = root / r["package"] / r["path"]
        with Image.open(src) as im:
            im.load()
            im = to_rgb(im)
        s = LONG_SIDE / max(im.size)
        if s < 1:
            im = im.resize((max(1, round(im.width * s)), max(1, round(im.height * s))), Image.LANCZOS)
        im.save(images / r["name"], "JPEG", quality=QUALITY)
    manifest = [{"query": f"images/{r['name']}", "place_id": None, "labels": [], "ops": []} for r in rows]
    (out / "queries.json").write_text(json.dumps(manifest, indent=1) + "\n")

    lines = [
        "# Credits",
        "",
        "Photos of no catalog place, for calibrating the accept threshold (every one should get \"no match\").",
        f"Each is a resized copy (longest side at most {LONG_SIDE} px, JPEG quality {QUALITY}) of a photo shipped",
        "in a Debian bookworm package. Author and license come from the package's",
        "`usr/share/doc/PKG/copyright` (copied into `copyright/`) and, for the KDE wallpapers, from each",
        "wallpaper's `metadata.json`. Rebuilt by `scripts/calibration/make-negatives.sh` from",
        "`scripts/calibration/negatives.tsv`. Keep this file and `copyright/` with the images.",
        "",
        "| Image | Package (version) | Path inside the package | Author | License |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        cell = lambda s: s.replace("|", "\\|")
        lines.append(f"| `images/{r['name']}` | {r['package']} ({r['version']}) | {cell(r['path'])} | "
                     f"{cell(r['author'])} | {cell(r['license'])} |")
    (out / "CREDITS.md").write_text("\n".join(lines) + "\n", encoding="utf-8")

    cdir = out / "copyright"
    cdir.mkdir(exist_ok=True)
    for pkg in sorted({r["package"] for r in rows}):
        src = root / pkg / "usr/share/doc" / pkg / "copyright"
        if src.exists():
            shutil.copyfile(src, cdir / f"{pkg}.txt")
    print(f"{len(rows)} photos written to {images}")


def null_places(paths):
    for p in paths:
        entries = json.loads(Path(p).read_text())
        for e in entries:
            e["place_id"] = None
        Path(p).write_text(json.dumps(entries, indent=1) + "\n")
        print(f"{p}: {len(entries)} entries, place_id null")


if __name__ == "__main__":
    a = sys.argv[1:]
    if a and a[0] == "--null-places":
        null_places(a[1:])
    elif len(a) == 3:
        build(*a)
    else:
        sys.exit(__doc__)
