"""Tables of scripts/bench/shm_peers.sh: per (split, duplex, size), the
median over runs of each algorithm's median time, and intergather against
the best peer (flagged when a peer is more than 5 % faster).  Given the
runs' call file too (bench --calls, with shm_peers.sh's `rep` column), also
the paired ratio: per peer the median over every round of every run of
intergather's time over the peer's in the same round, and the peer that
intergather trails most by it.

    shm_peers_report.py docs/data/shm-peers.csv [docs/data/shm-peers-calls.csv]
"""
import csv
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import paired  # noqa: E402

PEERS = ["native", "iallgather", "merge-allgatherv"]
SLOWER = 1.05


def human(b):
    return f"{b >> 20}M" if b >= 1 << 20 else f"{b >> 10}K"


def flagged(ratio):
    return f"**{ratio:.3f}**" if ratio > SLOWER else f"{ratio:.3f}"


def main(path, calls_path=None):
    runs = {}
    with open(path) as f:
        for row in csv.DictReader(f):
            if row["verified"] != "yes":
                sys.exit(f"{path}: unverified row {row}")
            runs.setdefault(paired.point_of(row), {}).setdefault(row["algorithm"], []).append(float(row["median_s"]))
    pairs = paired.paired_ratios(paired.read_calls(calls_path, "rep")) if calls_path else {}
    met = met_paired = total = 0
    for split in sorted({k[:3] for k in runs}, key=lambda s: (s[0] + s[1], s[2] != "half")):
        p, q, duplex = split
        print(f"\n### p = {p}, q = {q}, {duplex} duplex (ms, median over runs)\n")
        head = "| block | intergather | " + " | ".join(PEERS) + " | best peer | ig/best |"
        rule = "|---:|---:|" + "---:|" * len(PEERS) + "---|---:|"
        if pairs:
            head += " trailed most, paired | paired ig/peer |"
            rule += "---|---:|"
        print(head)
        print(rule)
        for key in sorted(k for k in runs if k[:3] == split):
            med = {a: statistics.median(v) * 1e3 for a, v in runs[key].items()}
            best = min(PEERS, key=lambda a: med.get(a, float("inf")))
            ratio = med["intergather"] / med[best]
            total += 1
            met += ratio <= SLOWER
            cells = " | ".join(f"{med[a]:.3f}" for a in PEERS)
            line = f"| {human(key[3])} | {med['intergather']:.3f} | {cells} | {best} | {flagged(ratio)} |"
            if pairs:
                peer, pr = paired.worst_peer(pairs.get(key, {}), PEERS)
                if peer is None:
                    sys.exit(f"{calls_path}: no paired calls of intergather and a peer at {key}")
                met_paired += pr <= SLOWER
                line += f" {peer} | {flagged(pr)} |"
            print(line)
    print(f"\nno peer more than 5 % faster at {met} of {total} points (ratio of medians)")
    if pairs:
        print(f"no peer more than 5 % faster at {met_paired} of {total} points (paired ratio)")


if __name__ == "__main__":
    main(*sys.argv[1:3])
