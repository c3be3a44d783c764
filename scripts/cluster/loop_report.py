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
import os
import statistics
import sys
from collections import defaultdict

from cluster_report import read  # the reports' one CSV reader
from peers_report import USER_PEERS as PEERS, human  # the targets' peers and block-size names


def load(paths):
    calls = defaultdict(list)
    for path in paths:
        if not os.path.exists(path):  # read() takes a missing file as empty; here it is a mistake
            sys.exit(f"loop_report.py: no such file: {path}")
        for row in read(path):
            key = (int(row["p"]), int(row["q"]), row["duplex"], int(row["bytes"]))
            calls[key, row["algorithm"]].append(float(row["seconds"]))
    return calls


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
        print(f"| {p}+{q} | {duplex} | {human(nbytes)} | " + " | ".join(cells) + f" | {ratio} |")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
