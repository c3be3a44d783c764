"""Tables of scripts/bench/shm_peers.sh: per (split, duplex, size), the
median over runs of each algorithm's median time, and intergather against
the best peer (flagged when a peer is more than 5 % faster).

    shm_peers_report.py docs/data/shm-peers.csv
"""
import csv
import statistics
import sys

PEERS = ["native", "iallgather", "merge-allgatherv"]
SLOWER = 1.05


def human(b):
    return f"{b >> 20}M" if b >= 1 << 20 else f"{b >> 10}K"


def main(path):
    runs = {}
    with open(path) as f:
        for row in csv.DictReader(f):
            if row["verified"] != "yes":
                sys.exit(f"{path}: unverified row {row}")
            key = (int(row["p"]), int(row["q"]), row["duplex"], int(row["bytes"]))
            runs.setdefault(key, {}).setdefault(row["algorithm"], []).append(float(row["median_s"]))
    met = total = 0
    for split in sorted({k[:3] for k in runs}, key=lambda s: (s[0] + s[1], s[2] != "half")):
        p, q, duplex = split
        print(f"\n### p = {p}, q = {q}, {duplex} duplex (ms, median over runs)\n")
        print("| block | intergather | " + " | ".join(PEERS) + " | best peer | ig/best |")
        print("|---:|---:|" + "---:|" * len(PEERS) + "---|---:|")
        for key in sorted(k for k in runs if k[:3] == split):
            med = {a: statistics.median(v) * 1e3 for a, v in runs[key].items()}
            best = min(PEERS, key=lambda a: med.get(a, float("inf")))
            ratio = med["intergather"] / med[best]
            total += 1
            met += ratio <= SLOWER
            flag = f"**{ratio:.3f}**" if ratio > SLOWER else f"{ratio:.3f}"
            cells = " | ".join(f"{med[a]:.3f}" for a in PEERS)
            print(f"| {human(key[3])} | {med['intergather']:.3f} | {cells} | {best} | {flag} |")
    print(f"\nno peer more than 5 % faster at {met} of {total} points")


if __name__ == "__main__":
    main(sys.argv[1])
