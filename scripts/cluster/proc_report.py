#!/usr/bin/env python3
"""Who leaves a call when: a summary of the bench's --proc-times file.

    scripts/cluster/proc_report.py FILE-proc.csv [--calls]

For each point (p, q, bytes, duplex, F) and algorithm: the average
per-process time over the timed calls (the bench's avg_proc_s), split into
group A (senders) and group B (receivers), the median over calls of each
world rank's time, and with --calls every call's times rank by rank.  It
shows which processes a difference in the average comes from
(docs/performance.md, sixty-eighth session: the first algorithm to send
between every pair of processes ran on cold TCP connections, whose senders
left later).
"""
import collections
import csv
import statistics
import sys


def load(path):
    points = collections.defaultdict(lambda: collections.defaultdict(lambda: collections.defaultdict(dict)))
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            point = (int(row["p"]), int(row["q"]), int(row["bytes"]), row["duplex"], float(row["imbalance"]))
            call = int(row["call"])
            points[point][row["algorithm"]][call][int(row["rank"])] = (row["group"], 1e3 * float(row["seconds"]))
    return points


def mean_of(calls, group=None):
    """Mean over calls of the mean over processes (of one group, if given)."""
    per_call = []
    for ranks in calls.values():
        times = [t for g, t in ranks.values() if group is None or g == group]
        if times:
            per_call.append(statistics.mean(times))
    return statistics.mean(per_call) if per_call else float("nan")


def report(points, show_calls):
    for (p, q, nbytes, duplex, f), algos in sorted(points.items()):
        print(f"p={p} q={q} bytes={nbytes} {duplex} duplex F={f:g}: per-process time (ms)")
        print(f"  {'algorithm':<18}{'calls':>6}{'average':>10}{'group A':>10}{'group B':>10}   median per world rank")
        for name, calls in sorted(algos.items(), key=lambda kv: mean_of(kv[1])):
            ranks = sorted({r for c in calls.values() for r in c})
            medians = " ".join(f"{statistics.median(calls[c][r][1] for c in calls if r in calls[c]):4.0f}" for r in ranks)
            print(f"  {name:<18}{len(calls):>6}{mean_of(calls):>10.1f}{mean_of(calls, 'A'):>10.1f}"
                  f"{mean_of(calls, 'B'):>10.1f}   {medians}")
            if show_calls:
                for c in sorted(calls):
                    times = " ".join(f"{calls[c][r][1]:4.0f}" for r in ranks if r in calls[c])
                    print(f"    call {c:>3}{'':>24}{statistics.mean(t for _, t in calls[c].values()):>10.1f}   {times}")
        print()


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) >= 2 else 2
    report(load(argv[1]), "--calls" in argv[2:])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
