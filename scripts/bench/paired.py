"""Paired ratios from the call files of intergather-bench --calls.

For each point (p, q, duplex, bytes) and each other algorithm, the median
over calls of intergather's time divided by that algorithm's time in the
same round (the same call index of the same run).  With --interleave, call i
of every algorithm ran in one round, so a change of load between rounds
falls on both sides of a ratio and cancels; in the ratio of two medians,
taken over different stretches of time, it does not.  Used by
scripts/bench/shm_peers_report.py and scripts/cluster/peers_report.py.
"""
import csv
import statistics

SUBJECT = "intergather"


def point_of(row):
    return (int(row["p"]), int(row["q"]), row["duplex"], int(row["bytes"]))


def read_calls(path, run_field=None):
    """{point: {algorithm: {(run, call): seconds}}}; run_field names the
    column that tells runs apart when one file holds several (shm_peers.sh's
    `rep`)."""
    calls = {}
    with open(path) as f:
        for row in csv.DictReader(f):
            run = row[run_field] if run_field else ""
            calls.setdefault(point_of(row), {}).setdefault(row["algorithm"], {})[(run, int(row["call"]))] = \
                float(row["seconds"])
    return calls


def paired_ratios(calls):
    """{point: {algorithm: median of intergather / algorithm over shared rounds}};
    a point without intergather, or an algorithm sharing no round with it,
    is left out."""
    out = {}
    for point, algs in calls.items():
        ig = algs.get(SUBJECT)
        if not ig:
            continue
        ratios = {}
        for alg, times in algs.items():
            shared = [ig[c] / times[c] for c in ig if c in times and times[c] > 0]
            if alg != SUBJECT and shared:
                ratios[alg] = statistics.median(shared)
        out[point] = ratios
    return out


def worst_peer(ratios, peers):
    """The peer intergather trails most by paired ratio, and that ratio (None, None if no peer was paired)."""
    known = [(ratios[a], a) for a in peers if a in ratios]
    if not known:
        return None, None
    r, a = max(known)
    return a, r
