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


def panel(axis, rows, series, bar, bar_label, title):
    """One log-log panel: each (column, scale, style, label) of `series` against catalog size, and a bar line."""
    for name, scale, style, label in series:
        points = column(rows, name)
        if points:
            axis.loglog([n for n, _ in points], [v * scale for _, v in points], style, label=label)
    axis.axhline(bar, color="grey", linewidth=0.8, linestyle=":")
    axis.text(float(rows[0]["references"]), bar * 1.08, bar_label, color="grey", fontsize=8)
    axis.set_xlabel("reference photos")
    axis.set_title(title)
    axis.legend(fontsize=8)
    axis.grid(True, which="both", linewidth=0.3)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1], newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.2))
    panel(left, rows, [("bytes_per_reference", 1 / 1024, "o-", "memory per reference (KB)"),
                       ("peak_rss_gb", 1, "s--", "peak resident memory (GB)")], 16, "16 GB bar", "memory")
    panel(right, rows, [("build_seconds", 1, "o-", "build from photos and distractors (s)"),
                        ("load_seconds", 1, "s--", "start from the saved index (s)")], 120, "2 min bar", "time")
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)


if __name__ == "__main__":
    main()
