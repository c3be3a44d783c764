#!/usr/bin/python3
"""Per-link rates of the emulated cluster during each timed call.

Reads link_sampler.py's CSV and finds the runs of traffic on the links,
separated by idle gaps (the bench's --gap before every timed call).  The
last of them are the bench's timed calls, one run per row of its --calls
CSV in the order they ran (round by round, each round in its positions:
--interleave); the bench's checks and warm-ups come before them.  For each
call and node it reports the downlink's (what the node received) and the
uplink's (what it sent) bytes, when the link finished (its last traffic,
from the call's first), and how the link spent that time in windows of
WINDOW seconds: busy (at least BUSY of the configured rate), partial
(some traffic, less than that: a flow waiting for data, a starved host,
or TCP holding a flow back) or idle.

    link_report.py SAMPLES.csv RATE_MBIT P CALLS.csv [WINDOW_S]
    link_report.py SAMPLES.csv RATE_MBIT P CALLS.csv --series ALGORITHM:CALL NODES [STEP_S]

P: nodes 0..P-1 are group A (the bench's -p); the others group B.
LINK_GAP_S (environment, default 0.1): the idle time that separates two
calls, less than the bench's --gap (linkrates.sh sets it from its GAP).
With --series: one timed call's rates, Mbit/s per STEP_S (default 0.1 s), of
each link of the nodes in NODES (e.g. 0,1,2,3), "dn" what a node received
and "up" what it sent.
"""
import collections
import csv
import os
import sys

BUSY = 0.85          # of the configured rate
IDLE_MBIT = 2.0      # below this a window counts as idle
# idle time that separates two calls: less than the bench's --gap
GAP_S = float(os.environ.get("LINK_GAP_S", "0.1"))


def load(path):
    samples = collections.defaultdict(list)  # node -> [(t, up, down)]
    with open(path) as f:
        next(f)
        for line in f:
            t, node, up, down = line.split(",")
            samples[int(node)].append((float(t), int(up), int(down)))
    return samples


def calls_of(samples):
    """[(t_start, t_end)] of the runs of traffic on any link."""
    nodes = sorted(samples)
    n = min(len(samples[k]) for k in nodes)
    active = []
    for s in range(1, n):
        moved = sum(samples[k][s][2] - samples[k][s - 1][2] for k in nodes)
        active.append((samples[nodes[0]][s - 1][0], samples[nodes[0]][s][0], moved > 1500 * len(nodes)))
    runs, start, last = [], None, None
    for t0, t1, on in active:
        if on:
            if start is None or t0 - last > GAP_S:
                if start is not None:
                    runs.append((start, last))
                start = t0
            last = t1
    if start is not None:
        runs.append((start, last))
    return runs


def link_rows(samples, node, col, t0, t1):
    """[(t, counter)] of one link's counter col (1 up, 2 down) within [t0, t1]."""
    return [(x[0], x[col]) for x in samples[node] if t0 - 1e-9 <= x[0] <= t1 + 1e-9]


def window_rates(rows, step):
    """Mbit/s in consecutive windows of at least step seconds over rows."""
    out, (w_start, c_start) = [], rows[0]
    for t, c in rows[1:]:
        if t - w_start >= step - 1e-9:
            out.append((c - c_start) * 8 / (t - w_start) / 1e6)
            w_start, c_start = t, c
    return out


def link_stats(rows, t0, rate_mbit, window):
    """rows: link_rows of one call from t0.  Bytes, finish time from t0,
    and the busy / partial / idle windows up to the finish."""
    if len(rows) < 2:
        return 0, 0.0, 0, 0, 0
    base = rows[0][1]
    total = rows[-1][1] - base
    finish = next((t for t, c in rows if c - base >= total), rows[-1][0]) - t0
    mbits = window_rates([(t, c) for t, c in rows if t - t0 <= finish + 1e-9], window)
    busy = sum(m >= BUSY * rate_mbit for m in mbits)
    idle = sum(m < IDLE_MBIT for m in mbits)
    return total, finish, busy, len(mbits) - busy - idle, idle


def rates(samples, node, col, t0, t1, step):
    """One link's Mbit/s per step from t0 to past t1."""
    return [int(m) for m in window_rates(link_rows(samples, node, col, t0, t1 + 2 * step), step)]


def print_series(samples, timed, runs, which, nodes, step):
    algorithm, call = which.split(":")
    for c, (t0, t1) in zip(timed, runs[-len(timed):]):
        if c["algorithm"] == algorithm and c["call"] == call:
            print(f"# {algorithm} call {call}: {float(c['seconds']):.3f} s in the bench, traffic for {t1 - t0:.2f} s;"
                  f" Mbit/s per {step * 1e3:.0f} ms")
            for k in nodes:
                for col, name in ((2, "dn"), (1, "up")):
                    print(f"{k}{name} " + " ".join(f"{v:2d}" for v in rates(samples, k, col, t0, t1, step)))
            return
    sys.exit(f"link_report: no timed call {which}")


def main():
    path, rate, p = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
    with open(sys.argv[4]) as f:
        timed = sorted(csv.DictReader(f), key=lambda r: (int(r["call"]), int(r["position"])))
    ncalls = len(timed)
    if len(sys.argv) > 5 and sys.argv[5] == "--series":
        samples = load(path)
        step = float(sys.argv[8]) if len(sys.argv) > 8 else 0.1
        return print_series(samples, timed, calls_of(samples), sys.argv[6], [int(k) for k in sys.argv[7].split(",")],
                            step)
    window = float(sys.argv[5]) if len(sys.argv) > 5 else 0.05
    samples = load(path)
    nodes = sorted(samples)
    runs = calls_of(samples)
    print(f"# link_report: {len(runs)} runs of traffic, the last {ncalls} taken as the timed calls; "
          f"windows of {window * 1e3:.0f} ms; busy >= {BUSY * 100:.0f} % "
          f"of {rate:g} Mbit/s, idle < {IDLE_MBIT:g} Mbit/s; nodes 0..{p - 1} group A")
    print("algorithm,call,bench_s,duration_s,node,group,link,mbytes,finish_s,mean_mbit,busy_windows,partial_windows,idle_windows")
    for c, (t0, t1) in zip(timed, runs[-ncalls:]):
        label = f"{c['algorithm']},{c['call']},{float(c['seconds']):.3f}"
        for k in nodes:
            for col, name in ((2, "down"), (1, "up")):
                total, finish, busy, partial, idle = link_stats(link_rows(samples, k, col, t0, t1), t0, rate, window)
                mean = total * 8 / finish / 1e6 if finish > 0 else 0.0
                print(f"{label},{t1 - t0:.3f},{k},{'A' if k < p else 'B'},{name},{total / 2**20:.2f},"
                      f"{finish:.3f},{mean:.1f},{busy},{partial},{idle}")


if __name__ == "__main__":
    main()
