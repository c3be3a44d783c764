#!/usr/bin/python3
"""Summary of scripts/cluster/timeline.sh's output: timeline_report.py DIR P [spin|rank].

Per variant, over rounds: the bench's measure (the slowest process's time
from its own entry to its exit), the span from the first entry to the last
exit, the last entry (how far apart the barrier let the processes go), the
last exit after the last entry, the mean of the processes' own times (the
arrival benchmark's measure) and each group's median time in the call; the
library's and the hand variants' measure, mean own time and last exit after
the last entry paired with MPI_Iallgather's in the same round.  With traces
(TRACE=1), how long after its entry each process of the library's calls
posted its first message."""
import bisect
import csv
import os
import statistics
import sys

NAMES = {0: "library", 1: "iallgather", 2: "hand", 3: "hand+spin"}


def us(x):
    return f"{x * 1e6:7.1f}"


def round_metrics(c):
    """One call's times: the bench's measure (the slowest process's own
    time), the span (first entry to last exit), the last entry after the
    first, the last exit after the last entry, and the mean own time."""
    t0 = [a for a, _ in c.values()]
    t1 = [b for _, b in c.values()]
    return {"measure": max(b - a for a, b in c.values()), "span": max(t1) - min(t0),
            "last_entry": max(t0) - min(t0), "after_last": max(t1) - max(t0),
            "mean_own": statistics.mean(b - a for a, b in c.values())}


def main():
    out, p = sys.argv[1], int(sys.argv[2])
    if len(sys.argv) > 3 and sys.argv[3] != "spin":
        NAMES[3] = "hand-" + sys.argv[3]
    calls = {}  # (variant, round) -> {rank: (t0, t1)}
    with open(os.path.join(out, "timeline.csv")) as f:
        for r in csv.DictReader(f):
            key = (int(r["variant"]), int(r["round"]))
            calls.setdefault(key, {})[int(r["rank"])] = (float(r["t0"]), float(r["t1"]))
    metrics = {v: [round_metrics(c) for (vv, _), c in sorted(calls.items()) if vv == v] for v in NAMES}
    print("variant        measure  p10     p90     span    last-entry  after-last  mean-own  low group  high group"
          "  paired/iallgather: measure  mean-own  after-last")
    for v, name in NAMES.items():
        rows = [c for (vv, _), c in sorted(calls.items()) if vv == v]
        m = metrics[v]
        low = [t1 - t0 for c in rows for rk, (t0, t1) in c.items() if rk < p]
        high = [t1 - t0 for c in rows for rk, (t0, t1) in c.items() if rk >= p]
        q = sorted(x["measure"] for x in m)
        paired = ""
        if v != 1:
            paired = "                    " + "  ".join(
                f"{statistics.median(a[k] / b[k] for a, b in zip(m, metrics[1])):.3f}   "
                for k in ("measure", "mean_own", "after_last"))
        col = lambda k: us(statistics.median(x[k] for x in m))  # noqa: E731
        print(f"{name:14s} {col('measure')} {us(q[len(q) // 10])} {us(q[(9 * len(q)) // 10])} {col('span')} "
              f"{col('last_entry')}     {col('after_last')}    {col('mean_own')}   {us(statistics.median(low))}    "
              f"{us(statistics.median(high))}{paired}")
    print("(microseconds; medians over rounds)")
    traces = [f for f in os.listdir(out) if f.startswith("trace.")]
    if not traces:
        return
    for group, ranks in (("low", range(p)), ("high", range(p, len(traces)))):
        first = []
        for rk in ranks:
            with open(os.path.join(out, f"trace.{rk}")) as f:
                ev = sorted((float(a), float(b), n) for a, b, n in csv.reader(f))
            starts = [e[0] for e in ev]
            for (v, _), c in calls.items():
                if v != 0:
                    continue
                t0, t1 = c[rk]
                lo, hi = bisect.bisect_left(starts, t0), bisect.bisect_right(starts, t1)
                posts = [a for a, _, n in ev[lo:hi] if n in ("Isend", "Irecv")]
                if posts:
                    first.append(posts[0] - t0)
        if first:
            print(f"library, {group} group: first message posted {us(statistics.median(first))} us after entry (median)")


main()
