#!/usr/bin/env python3
"""Draws the memory and build-time scaling of the matcher as a log-log PNG.

    scripts/scale/plot.py TABLE.tsv OUT.png

TABLE.tsv has a header line and one row per catalog size, tab-separated:
    references  bytes_per_reference  build_seconds  load_seconds  peak_rss_gb
(`load_seconds` may be empty where no index was loaded). Needs matplotlib (`pip install matplotlib`).
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def column(rows, name):
    return [(float(r["references"]), float(r[name])) for r in rows if r.get(name, "").strip()]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1], newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.2))
    per_ref = column(rows, "bytes_per_reference")
    left.loglog([n for n, _ in per_ref], [b / 1024 for _, b in per_ref], "o-", label="memory per reference (KB)")
    rss = column(rows, "peak_rss_gb")
    left.loglog([n for n, _ in rss], [g for _, g in rss], "s--", label="peak resident memory (GB)")
    left.axhline(16, color="grey", linewidth=0.8, linestyle=":")
    left.text(per_ref[0][0], 17, "16 GB bar", color="grey", fontsize=8)
    left.set_xlabel("reference photos")
    left.set_title("memory")
    left.legend(fontsize=8)
    build = column(rows, "build_seconds")
    right.loglog([n for n, _ in build], [s for _, s in build], "o-", label="build from photos and distractors (s)")
    load = column(rows, "load_seconds")
    if load:
        right.loglog([n for n, _ in load], [s for _, s in load], "s--", label="start from the saved index (s)")
    right.axhline(120, color="grey", linewidth=0.8, linestyle=":")
    right.text(build[0][0], 130, "2 min bar", color="grey", fontsize=8)
    right.set_xlabel("reference photos")
    right.set_title("time")
    right.legend(fontsize=8)
    for axis in (left, right):
        axis.grid(True, which="both", linewidth=0.3)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)


if __name__ == "__main__":
    main()
