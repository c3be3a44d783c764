#!/usr/bin/env python3
"""Mean time per call of calls repeated in a loop, from a bench calls CSV.

    scripts/cluster/loop_report.py CALLS.csv [more CALLS.csv ...]

CALLS.csv is what `intergather-bench --calls` writes (the cluster script
copies it to <output>-calls.csv): one row per timed call.  Run the peers
phase with each algorithm's calls in a row and no pause between them,
PEER_INTERLEAVE=0 PEER_GAP=0 (docs/performance.md, forty-fourth session),
and this report shows what a program calling one algorithm again and again
sees on average: the mean, which every slow call adds to, beside the median
that the peers report uses.

For every point (split, duplex, block size), a Markdown row: each
algorithm's mean and median in ms, its calls slower than 5 times its own
median ("slow"), and intergather's mean over the best peer's mean (native,
MPI_Iallgather, the merge workaround).  Standard library only.
"""
import csv
import statistics
import sys
from collections import defaultdict

PEERS = ("native", "iallgather", "merge-allgatherv")


def load(paths):
    calls = defaultdict(list)
    for path in paths:
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                key = (int(row["p"]), int(row["q"]), row["duplex"], int(row["bytes"]))
                calls[key, row["algorithm"]].append(float(row["seconds"]))
    return calls


def size_name(n):
    for unit, name in ((1 << 20, "M"), (1 << 10, "K")):
        if n % unit == 0:
            return f"{n // unit}{name}"
    return str(n)


def main(paths):
    calls = load(paths)
    points = sorted({key for key, _ in calls}, key=lambda k: (k[2], k[0], k[1], k[3]))
    algorithms = sorted({a for _, a in calls}, key=lambda a: (a != "intergather", a not in PEERS, a))
    print("| p+q | duplex | block | " + " | ".join(f"{a} mean / median ms (slow)" for a in algorithms)
          + " | intergather mean / best peer's |")
    print("|---|---|---|" + "---|" * len(algorithms) + "---|")
    for key in points:
        cells, means = [], {}
        for a in algorithms:
            t = calls.get((key, a))
            if not t:
                cells.append("")
                continue
            median = statistics.median(t)
            means[a] = statistics.fmean(t)
            slow = sum(x > 5 * median for x in t)
            cells.append(f"{1e3 * means[a]:.2f} / {1e3 * median:.2f} ({slow} of {len(t)})")
        peers = [means[a] for a in PEERS if a in means]
        ratio = f"{means['intergather'] / min(peers):.3f}" if "intergather" in means and peers else ""
        p, q, duplex, nbytes = key
        print(f"| {p}+{q} | {duplex} | {size_name(nbytes)} | " + " | ".join(cells) + f" | {ratio} |")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
