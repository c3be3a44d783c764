#!/usr/bin/python3
"""Tables and figures from an emulated-cluster run (scripts/cluster/run.sh).

usage: cluster_report.py DATA_DIR FIGURE_DIR [--phases "PHASES"] [--decide PATH]
Reads DATA_DIR/cluster-peers.csv and cluster-arrival.csv (phases peers and
arrival) and the old phases' DATA_DIR/cluster-{links,bench,tuned,fc-*}.csv;
prints Markdown on stdout and writes FIGURE_DIR/cluster-peers.png (and, when
cluster-bench.csv is newer than it, cluster-bench.png).  --phases: print only
those phases' sections (default: every one whose data exists).  --decide: the
decide_table binary (scripts/cluster/decide_table.c: the library's own
decision code) to show what intergather's default model chooses at each
point, and which network-model parameters would choose the fastest algorithm.
"""
import csv
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

TUNED_NAMES = {"0": "default decision", "1": "linear", "2": "bruck", "3": "recursive doubling",
               "4": "ring", "5": "neighbor exchange", "6": "two proc"}
TARGETS = {(4, 4): 2.7, (8, 8): 4.5}


def human(b):
    b = int(b)
    if b % (1 << 20) == 0:
        return f"{b >> 20} MiB"
    return f"{b >> 10} KiB"


def read(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return list(csv.DictReader(f))


def ideal_fc(p, q):
    """Bandwidth term of the fully connected algorithm in units of k t_w."""
    return p if p >= q else p + 1


def main():
    args = sys.argv[1:]
    phases, decide = None, None
    while len(args) > 2:
        if args[-2] == "--phases":
            phases = args[-1].split()
        elif args[-2] == "--decide":
            decide = args[-1]
        else:
            sys.exit(__doc__)
        args = args[:-2]
    if len(args) != 2:
        sys.exit(__doc__)
    data, fig_dir = args
    import peers_report
    peers_report.report(data, fig_dir, phases, decide)
    old = ["bench", "tuned", "fcring", "igring", "igmpi", "manysenders"]
    if phases is not None and not any(ph in phases for ph in old):
        return
    old_report(data, fig_dir)


def old_report(data, fig_dir):
    links = read(os.path.join(data, "cluster-links.csv"))
    rows = read(os.path.join(data, "cluster-bench.csv"))
    tuned = read(os.path.join(data, "cluster-tuned.csv"))
    fcring = {(int(r["p"]), int(r["q"]), int(r["bytes"])): (float(r["median_s"]), r["verified"])
              for r in read(os.path.join(data, "cluster-fc-ring.csv"))}
    join = {(int(r["p"]), int(r["q"]), int(r["bytes"])): (float(r["median_s"]), r["verified"])
            for r in read(os.path.join(data, "cluster-fc-join.csv"))}
    spread = {(int(r["p"]), int(r["q"]), int(r["bytes"])): (float(r["median_s"]), r["verified"])
              for r in read(os.path.join(data, "cluster-fc-spread.csv"))}
    igring = {(int(r["p"]), int(r["q"]), int(r["bytes"])): (float(r["median_s"]), r["verified"])
              for r in read(os.path.join(data, "cluster-fc-igring.csv"))}
    igmpi = {(int(r["p"]), int(r["q"]), int(r["bytes"])): (float(r["median_s"]), r["verified"])
             for r in read(os.path.join(data, "cluster-fc-igmpi.csv"))}
    link_rate = None
    if links:
        rates = [float(r["measured_mbit"]) for r in links]
        link_rate = statistics.median(rates)
        print(f"Link check: {len(rates)} directed links, configured {links[0]['rate_mbit']} Mbit/s, measured "
              f"min {min(rates):.1f}, median {link_rate:.1f}, max {max(rates):.1f} Mbit/s.\n")

    t = {}
    for r in rows:
        t[(int(r["p"]), int(r["q"]), int(r["bytes"]), r["algorithm"])] = (float(r["median_s"]), r["verified"])
    configs = sorted({(k[0], k[1]) for k in t}, key=lambda c: (c[0] + c[1], c[0] != c[1], c[0]))
    sizes = sorted({k[2] for k in t})
    algs = ["fc", "ring-optimal", "ring-paper"]
    for (p, q) in configs:
        print(f"p = {p}, q = {q} ({p + q} nodes), median time per call in seconds (speed-up over native):\n")
        print("| block | native | " + " | ".join(algs) + " | verified |")
        print("|---:|---:|" + "---:|" * len(algs) + "---|")
        for b in sizes:
            if (p, q, b, "native") not in t:
                continue
            nat = t[(p, q, b, "native")][0]
            cells = []
            ver = {t[(p, q, b, a)][1] for a in ["native"] + algs if (p, q, b, a) in t}
            for a in algs:
                if (p, q, b, a) in t:
                    v = t[(p, q, b, a)][0]
                    cells.append(f"{v:.3f} ({nat / v:.2f}x)")
                else:
                    cells.append("")
            print(f"| {human(b)} | {nat:.3f} | " + " | ".join(cells) + " | " + "/".join(sorted(ver)) + " |")
        print()

    big = max(sizes) if sizes else None
    if big is not None:
        print(f"At {human(big)}: fc against the targets and against the bandwidth model "
              f"(k t_w from the measured median link rate):\n")
        print("| p/q | native (s) | fc (s) | speed-up | target | met | fc model (s) | fc / model |")
        print("|---|---:|---:|---:|---:|---|---:|---:|")
        for (p, q) in configs:
            if (p, q, big, "fc") not in t or (p, q, big, "native") not in t:
                continue
            nat, fc = t[(p, q, big, "native")][0], t[(p, q, big, "fc")][0]
            tgt = TARGETS.get((p, q))
            model = ideal_fc(p, q) * big * 8 / (link_rate * 1e6) if link_rate else None
            print(f"| {p}/{q} | {nat:.2f} | {fc:.2f} | {nat / fc:.2f}x | " +
                  (f"{tgt}x | {'yes' if nat / fc >= tgt else 'NO'}" if tgt else "- | -") + " | " +
                  (f"{model:.2f} | {fc / model:.2f}" if model else "- | -") + " |")
        print()

    if tuned:
        tt = {}
        for r in tuned:
            tt[(int(r["p"]), int(r["q"]), r["allgather_algorithm"])] = float(r["median_s"])
        tconfigs = sorted({(k[0], k[1]) for k in tt}, key=lambda c: (c[0] + c[1], c[0] != c[1], c[0]))
        talgs = sorted({k[2] for k in tt}, key=int)
        tsize = int(tuned[0]["bytes"])
        print(f"fc at {human(tsize)} under coll_tuned_allgather_algorithm N (median seconds; "
              f"speed-up over native from the main run):\n")
        print("| allgather algorithm | " + " | ".join(f"{p}/{q}" for p, q in tconfigs) + " |")
        print("|---|" + "---:|" * len(tconfigs))
        for a in talgs:
            cells = []
            for (p, q) in tconfigs:
                v = tt.get((p, q, a))
                nat = t.get((p, q, tsize, "native"), (None,))[0]
                cells.append("" if v is None else f"{v:.2f}" + (f" ({nat / v:.2f}x)" if nat else ""))
            print(f"| {a} {TUNED_NAMES.get(a, '')} | " + " | ".join(cells) + " |")
        print()

    if fcring or igring or igmpi:
        print("fc with each intra-group stage, at every size: the library's default (auto), Open MPI's default "
              "choice (INTERGATHER_GROUP_ALLGATHER=mpi), Open MPI's ring (the same with "
              "coll_tuned_allgather_algorithm=4) and intergather's ring (INTERGATHER_GROUP_ALLGATHER=ring); "
              "median seconds, speed-up over native from the main run; the target is checked against the "
              "default:\n")
        print("| p/q | block | native | fc, default (auto) | fc, Open MPI default | fc, Open MPI ring | "
              "fc, intergather ring | target at 4 MiB | verified |")
        print("|---|---:|---:|---:|---:|---:|---:|---|---|")
        for (p, q) in configs:
            for b in sizes:
                if (p, q, b, "native") not in t:
                    continue
                nat, fcd = t[(p, q, b, "native")][0], t[(p, q, b, "fc")][0]
                cells, vers = [], {t[(p, q, b, "fc")][1]}
                for d in (igmpi, fcring, igring):
                    if (p, q, b) in d:
                        v, ver = d[(p, q, b)]
                        cells.append(f"{v:.3f} ({nat / v:.2f}x)")
                        vers.add(ver)
                    else:
                        cells.append("")
                tgt = TARGETS.get((p, q)) if b == big else None
                met = "" if tgt is None else f"{tgt}x: {'met' if nat / fcd >= tgt else 'NOT met'}"
                print(f"| {p}/{q} | {human(b)} | {nat:.3f} | {fcd:.3f} ({nat / fcd:.2f}x) | " + " | ".join(cells) +
                      f" | {met} | {'/'.join(sorted(vers))} |")
        print()

    if join or spread:
        print("p > q: fc with the paper's plan (INTERGATHER_MANY_SENDERS=join) and with the default spread plan, "
              "median seconds, speed-up over native from the main run:\n")
        print("| p/q | block | native | fc, join | fc, spread | verified |")
        print("|---|---:|---:|---:|---:|---|")
        for (p, q, b) in sorted(set(join) | set(spread)):
            if (p, q, b, "native") not in t:
                continue
            nat = t[(p, q, b, "native")][0]
            cells = [f"{d[(p, q, b)][0]:.3f} ({nat / d[(p, q, b)][0]:.2f}x)" if (p, q, b) in d else ""
                     for d in (join, spread)]
            vers = {d[(p, q, b)][1] for d in (join, spread) if (p, q, b) in d}
            print(f"| {p}/{q} | {human(b)} | {nat:.3f} | " + " | ".join(cells) + f" | {'/'.join(sorted(vers))} |")
        print()

    png = os.path.join(fig_dir, "cluster-bench.png")
    src = os.path.join(data, "cluster-bench.csv")
    if not configs or (os.path.exists(png) and os.path.getmtime(png) >= os.path.getmtime(src)):
        return
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, len(configs), figsize=(3.6 * len(configs), 3.4), sharey=True, squeeze=False)
    for ax, (p, q) in zip(axes[0], configs):
        for a in algs:
            xs = [b for b in sizes if (p, q, b, a) in t and (p, q, b, "native") in t]
            ax.plot(xs, [t[(p, q, b, "native")][0] / t[(p, q, b, a)][0] for b in xs], marker="o", ms=3, label=a + (" (default settings)" if a == "fc" else ""))
        for d, style, color, lab in ((igmpi, "-.", "C5", "fc, Open MPI default allgather"),
                                     (fcring, "--", "C0", "fc, Open MPI ring allgather"),
                                     (igring, ":", "C4", "fc, intergather ring")):
            xs = [b for b in sizes if (p, q, b) in d and (p, q, b, "native") in t]
            if xs:
                ax.plot(xs, [t[(p, q, b, "native")][0] / d[(p, q, b)][0] for b in xs], marker="s", ms=3,
                        ls=style, color=color, label=lab)
        if (p, q) in TARGETS:
            ax.axhline(TARGETS[(p, q)], color="red", lw=0.8, ls="--", label="target")
        ax.axhline(1.0, color="grey", lw=0.8)
        ax.set_xscale("log", base=2)
        ax.set_title(f"p={p}, q={q}")
        ax.set_xlabel("bytes per sender block")
    axes[0][0].set_ylabel("speed-up over native")
    axes[0][0].legend(fontsize=7)
    rate = rows[0]["rate_mbit"] if rows else "?"
    fig.suptitle(f"Emulated cluster, Open MPI over TCP, {rate} Mbit/s per node")
    fig.tight_layout()
    fig.savefig(os.path.join(fig_dir, "cluster-bench.png"), dpi=90)
    plt.close(fig)


if __name__ == "__main__":
    main()
