#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz-jpeg and fuzz-png targets: small re-encodings of a few catalog
photos (Images/photos) in the variants the decoders handle differently.

    image_seeds.py IMAGES_PHOTOS CORPUS

JPEG (CORPUS/jpeg): baseline 4:2:0 and 4:4:4, progressive, optimised Huffman tables, grayscale, CMYK
(Adobe), EXIF orientations 3, 6 and 8, and one larger picture for the scaled decode. PNG (CORPUS/png):
RGB, RGBA, grayscale, grayscale with alpha, palette with transparency, 1-bit, 16-bit grayscale, EXIF
orientation 6, and Adam7-interlaced RGB and grayscale (written here, as Pillow does not interlace).
Needs Pillow (Debian: python3-pil). Output depends only on the photos and the Pillow version.
"""
import io
import os
import struct
import sys
import zlib

from PIL import Image

PHOTOS = ["001-wooden-jetty-on-a-calm-lake.jpg", "009-water-drop-splash.jpg",
          "014-ladybug-among-forget-me-nots.jpg", "005-fallen-maple-leaf-in-autumn.jpg"]


def small(photos, index, side):
    """Catalog photo `index`, RGB, its longer side `side` pixels."""
    image = Image.open(os.path.join(photos, PHOTOS[index])).convert("RGB")
    image.thumbnail((side, side), Image.LANCZOS)
    return image


def encoded(image, fmt, **options):
    out = io.BytesIO()
    image.save(out, fmt, **options)
    return out.getvalue()


def exif(orientation):
    data = Image.Exif()
    data[0x0112] = orientation
    return data.tobytes()


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def interlaced_png(image):
    """`image` (mode RGB or L, 8-bit) as an Adam7-interlaced PNG, every scanline with filter 0."""
    channels = {"RGB": 3, "L": 1}[image.mode]
    width, height = image.size
    pixels = image.tobytes()
    passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
    raw = bytearray()
    for x0, y0, dx, dy in passes:
        for y in range(y0, height, dy):
            row = bytearray()
            for x in range(x0, width, dx):
                start = (y * width + x) * channels
                row += pixels[start:start + channels]
            if row:
                raw += b"\x00" + row
    colour = {"RGB": 2, "L": 0}[image.mode]
    header = struct.pack(">IIBBBBB", width, height, 8, colour, 0, 0, 1)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(raw), 9))
            + chunk(b"IEND", b""))


def write(folder, files):
    os.makedirs(folder, exist_ok=True)
    for name in os.listdir(folder):
        os.remove(os.path.join(folder, name))
    for name, data in files:
        with open(os.path.join(folder, name), "wb") as out:
            out.write(data)
    print(f"{os.path.basename(folder)}: {len(files)} seeds, {sum(len(d) for _, d in files)} bytes")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    photos, corpus = sys.argv[1], sys.argv[2]
    a, b, c, d = (small(photos, i, 24) for i in range(4))
    write(os.path.join(corpus, "jpeg"), [
        ("baseline-420.jpg", encoded(a, "JPEG", quality=75, subsampling=2)),
        ("baseline-444.jpg", encoded(b, "JPEG", quality=90, subsampling=0)),
        ("progressive.jpg", encoded(c, "JPEG", quality=80, progressive=True)),
        ("optimised.jpg", encoded(d, "JPEG", quality=60, optimize=True)),
        ("grayscale.jpg", encoded(a.convert("L"), "JPEG", quality=70)),
        ("cmyk.jpg", encoded(b.convert("CMYK"), "JPEG", quality=70)),
        ("orientation-3.jpg", encoded(c, "JPEG", quality=50, exif=exif(3))),
        ("orientation-6.jpg", encoded(d, "JPEG", quality=50, exif=exif(6))),
        ("orientation-8-progressive.jpg", encoded(a, "JPEG", quality=50, exif=exif(8), progressive=True)),
        ("larger-96.jpg", encoded(small(photos, 1, 96), "JPEG", quality=40)),
    ])
    palette = c.quantize(colors=16)
    palette.info["transparency"] = 0
    write(os.path.join(corpus, "png"), [
        ("rgb.png", encoded(a, "PNG")),
        ("rgba.png", encoded(Image.merge("RGBA", (*b.split(), b.convert("L"))), "PNG")),
        ("gray.png", encoded(c.convert("L"), "PNG")),
        ("gray-alpha.png", encoded(d.convert("LA"), "PNG")),
        ("palette-transparent.png", encoded(palette, "PNG", transparency=0)),
        ("one-bit.png", encoded(a.convert("1"), "PNG")),
        ("gray-16.png", encoded(b.convert("I").point(lambda v: v * 257).convert("I;16"), "PNG")),
        ("orientation-6.png", encoded(c, "PNG", exif=exif(6))),
        ("interlaced-rgb.png", interlaced_png(d)),
        ("interlaced-gray.png", interlaced_png(small(photos, 0, 13).convert("L"))),
    ])


if __name__ == "__main__":
    main()
