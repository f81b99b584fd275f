#!/usr/bin/env python3
"""How the print-alone accept line would do for each margin weight, from `glimpse eval --dump-candidates`.

    scripts/calibration/print-line.py --nulls CAL.jsonl [CAL2.jsonl ...] --queries Q1.jsonl [...] \
        [--held-out H1.jsonl ...] [--rate 0.01] [--weights 0,0.5,1,2,3,5]

Dumps made without a null-print file (so their accept decision is the keypoint and logistic rule alone).
For each weight w of the print evidence e = c + w * (c - max(r, 0.5)) (c the candidate's print similarity,
r the most similar other place's), the line is set on the --nulls dumps (photos of no catalog place the
line is calibrated on) so that at most --rate of them lie above it; then, on the --queries dumps (photos of
catalog places), what the print adds to the rule in force: queries it accepts that the rule did not, right
or wrong; and on --held-out (photos of no catalog place kept out of the calibration) how many it accepts.
"""
import argparse
import json


def load(paths):
    rows = []
    for path in paths:
        with open(path) as f:
            rows += [json.loads(line) for line in f if line.strip()]
    return rows


def evidence(candidate, w):
    c = candidate.get("similarity")
    m = candidate.get("margin")
    if c is None or m is None:
        return None
    rival = c - m
    return c + w * (c - max(rival, 0.5))


def best(row, w):
    scored = [(evidence(c, w), c["id"]) for c in row["candidates"]]
    scored = [s for s in scored if s[0] is not None]
    return max(scored) if scored else (None, None)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--nulls", nargs="+", required=True)
    p.add_argument("--queries", nargs="+", required=True)
    p.add_argument("--held-out", nargs="*", default=[])
    p.add_argument("--rate", type=float, default=0.01)
    p.add_argument("--weights", default="0,0.5,1,2,3,5")
    a = p.parse_args()
    nulls, queries, held = load(a.nulls), load(a.queries), load(a.held_out)
    print(f"{len(nulls)} calibration nulls, {len(queries)} queries, {len(held)} held-out nulls, rate {a.rate}")
    print("w      line    rule r@1   +print r@1   print-added right/wrong   held-out over the line")
    base = sum(1 for r in queries if r["accepted"] == r["expected"] and r["expected"] is not None)
    for w in [float(x) for x in a.weights.split(",")]:
        values = sorted((e for e, _ in (best(r, w) for r in nulls) if e is not None), reverse=True)
        k = int(a.rate * len(values))
        line = values[k] + 1e-6 if k < len(values) else float("-inf")
        right = wrong = 0
        for r in queries:
            if r["accepted"] is not None:
                continue
            e, place = best(r, w)
            if e is not None and e > line:
                if place == r["expected"]:
                    right += 1
                else:
                    wrong += 1
        over = sum(1 for r in held if (best(r, w)[0] or float("-inf")) > line and r["accepted"] is None)
        n = len(queries)
        print(f"{w:<5}  {line:6.3f}  {base / n:9.3f}   {(base + right) / n:10.3f}   {right:>11} / {wrong:<11}"
              f"   {over} of {len(held)}")


if __name__ == "__main__":
    main()
