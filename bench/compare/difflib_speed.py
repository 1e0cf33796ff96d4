#!/usr/bin/env python3
"""CPython difflib timings for the pairs bench_compare times: median seconds over runs.

Prints JSON: {"short_pairs_s": ..., "short_pairs_count": N, "long_pairs_s": [...], ...}
"""
import json
import os
import statistics
import sys
import time
import difflib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from gen_difflib_goldens import generated_pair  # noqa: E402

LONG = [(11, 30000, 5), (12, 30000, 1)]  # keep in sync with compare_bench.cpp


def char_pairs():
    with open(os.path.join(ROOT, "tests", "fixtures", "difflib", "short_pairs.json"),
              encoding="utf-8") as f:
        cases = json.load(f)["cases"]
    return [(c["a"], c["b"]) for c in cases
            if c.get("mode", "char") == "char" and "junk" not in c and c.get("autojunk", True)]


def median_time(fn, runs):
    times = []
    for _ in range(runs):
        t0 = time.thread_time()  # CPU time, as bench_compare measures
        fn()
        times.append(time.thread_time() - t0)
    return statistics.median(times)


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    pairs = char_pairs()
    short = median_time(lambda: [difflib.SequenceMatcher(None, a, b).ratio() for a, b in pairs],
                        runs)
    long_times = []
    for seed, words, permille in LONG:
        a, b = generated_pair(seed, words, permille)
        long_times.append(median_time(lambda: difflib.SequenceMatcher(None, a, b).ratio(), 1))
    print(json.dumps(dict(python=sys.version.split()[0], runs=runs, short_pairs_count=len(pairs),
                          short_pairs_s=short, long_pairs_s=long_times)))


if __name__ == "__main__":
    main()
