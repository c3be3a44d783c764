#!/usr/bin/python3
"""Summarise a shared-memory sweep (scripts/bench/shm_sweep.sh).

usage: shm_report.py RAW_DIR DATA_DIR FIGURE_DIR

Reads RAW_DIR/bench-P-Q-REP.csv (intergather-bench) and RAW_DIR/demo.csv
(intergather-demo runs), writes DATA_DIR/shm-bench.csv, DATA_DIR/shm-shim.csv,
FIGURE_DIR/shm-bench.png, FIGURE_DIR/shm-shim.png, and prints Markdown tables
and the INTERGATHER_MIN_BYTES recommendation on stdout.
"""
import csv
import glob
import os
import statistics
import sys
from collections import defaultdict


def human(b):
    b = int(b)
    if b >= 1 << 20 and b % (1 << 20) == 0:
        return f"{b >> 20} MiB"
    if b >= 1 << 10 and b % (1 << 10) == 0:
        return f"{b >> 10} KiB"
    return f"{b} B"


def config_key(pq):
    p, q = pq
    return (p + q, p != q, p, q)


def load_bench(raw):
    runs = defaultdict(list)  # (p, q, bytes, alg) -> [median_s per run]
    verified = defaultdict(set)
    for path in glob.glob(os.path.join(raw, "bench-*.csv")):
        with open(path) as f:
            for row in csv.DictReader(f):
                k = (int(row["p"]), int(row["q"]), int(row["bytes"]), row["algorithm"])
                runs[k].append(float(row["median_s"]))
                verified[k].add(row["verified"])
    return runs, verified


def load_demo(raw):
    runs = defaultdict(list)  # (mode, p, q, bytes) -> [median_ms per run]
    digests = defaultdict(set)  # (p, q, bytes, rep) -> digests over modes
    path = os.path.join(raw, "demo.csv")
    if not os.path.exists(path):
        return runs, digests
    with open(path) as f:
        for row in csv.DictReader(f):
            if not row["median_ms"]:
                continue
            k = (row["mode"], int(row["p"]), int(row["q"]), int(row["bytes"]))
            runs[k].append(float(row["median_ms"]))
            digests[(int(row["p"]), int(row["q"]), int(row["bytes"]), row["rep"])].add(row["digest"])
    return runs, digests


def main():
    raw, data_dir, fig_dir = sys.argv[1:4]
    algs = ["native", "fc", "ring-optimal", "ring-paper", "root-gathering"]
    runs, verified = load_bench(raw)
    configs = sorted({(k[0], k[1]) for k in runs}, key=config_key)
    sizes = sorted({k[2] for k in runs})
    med = {k: statistics.median(v) for k, v in runs.items()}

    with open(os.path.join(data_dir, "shm-bench.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["p", "q", "bytes", "algorithm", "runs", "median_s", "min_run_s", "max_run_s",
                    "speedup_vs_native", "verified"])
        for (p, q) in configs:
            for b in sizes:
                for a in algs:
                    k = (p, q, b, a)
                    if k not in runs:
                        continue
                    nat = med.get((p, q, b, "native"))
                    w.writerow([p, q, b, a, len(runs[k]), f"{med[k]:.6g}", f"{min(runs[k]):.6g}",
                                f"{max(runs[k]):.6g}", f"{nat / med[k]:.3f}" if nat else "",
                                "yes" if verified[k] == {"yes"} else "/".join(sorted(verified[k]))])

    print("## intergather-bench: speed-up over native (median of runs of median times)\n")
    for (p, q) in configs:
        print(f"p = {p}, q = {q}:\n")
        print("| block | native (ms) | " + " | ".join(a for a in algs[1:]) + " |")
        print("|---:|---:|" + "---:|" * (len(algs) - 1))
        for b in sizes:
            nat = med.get((p, q, b, "native"))
            if nat is None:
                continue
            cells = [f"{nat / med[(p, q, b, a)]:.2f}x" if (p, q, b, a) in med else "" for a in algs[1:]]
            print(f"| {human(b)} | {1e3 * nat:.3f} | " + " | ".join(cells) + " |")
        print()
    bad = [k for k, v in verified.items() if v != {"yes"}]
    print(f"verification: {'all results identical to native' if not bad else 'MISMATCHES: ' + str(bad)}\n")

    druns, digests = load_demo(raw)
    dconfigs = sorted({(k[1], k[2]) for k in druns}, key=config_key)
    dsizes = sorted({k[3] for k in druns})
    dmed = {k: statistics.median(v) for k, v in druns.items()}
    rows = []
    for (p, q) in dconfigs:
        for b in dsizes:
            n = dmed.get(("native", p, q, b))
            a = dmed.get(("shim-all", p, q, b))
            d = dmed.get(("shim-default", p, q, b))
            if n is None or a is None:
                continue
            same = all(len(v) == 1 for k, v in digests.items() if k[:3] == (p, q, b))
            rows.append((p, q, b, n, a, d, same))
    with open(os.path.join(data_dir, "shm-shim.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["p", "q", "bytes", "runs", "native_ms", "shim_min0_ms", "shim_default_ms",
                    "native_over_shim_min0", "native_over_shim_default", "digests_equal"])
        for (p, q, b, n, a, d, same) in rows:
            w.writerow([p, q, b, len(druns[("native", p, q, b)]), f"{n:.4g}", f"{a:.4g}",
                        f"{d:.4g}" if d is not None else "", f"{n / a:.3f}",
                        f"{n / d:.3f}" if d else "", "yes" if same else "NO"])

    if rows:
        print("## intergather-demo: native / shim (median time per call), > 1 means the shim is faster\n")
        print("| block | " + " | ".join(f"{p}/{q} MIN=0" for p, q in dconfigs) + " |")
        print("|---:|" + "---:|" * len(dconfigs))
        by = {(p, q, b): (n, a, d) for (p, q, b, n, a, d, _) in rows}
        for b in dsizes:
            cells = []
            for (p, q) in dconfigs:
                v = by.get((p, q, b))
                cells.append(f"{v[0] / v[1]:.2f}" if v else "")
            print(f"| {human(b)} | " + " | ".join(cells) + " |")
        print()
        print("| block | " + " | ".join(f"{p}/{q} default" for p, q in dconfigs) + " |")
        print("|---:|" + "---:|" * len(dconfigs))
        for b in dsizes:
            cells = []
            for (p, q) in dconfigs:
                v = by.get((p, q, b))
                cells.append(f"{v[0] / v[2]:.2f}" if v and v[2] else "")
            print(f"| {human(b)} | " + " | ".join(cells) + " |")
        print()
        # Smallest size from which the served path is never slower, in every configuration.
        rec = None
        for b in dsizes:
            if all(by[(p, q, s)][1] <= by[(p, q, s)][0] for (p, q) in dconfigs for s in dsizes
                   if s >= b and (p, q, s) in by):
                rec = b
                break
        worst = {}
        for (p, q, b, n, a, d, _) in rows:
            worst[b] = min(worst.get(b, 9e9), n / a)
        print("worst native/shim(MIN_BYTES=0) over configurations, per size: " +
              ", ".join(f"{human(b)} {worst[b]:.2f}" for b in dsizes if b in worst))
        print(f"recommended INTERGATHER_MIN_BYTES: {rec} ({human(rec) if rec else 'none'})")
        print("digests: " + ("identical in every mode" if all(r[6] for r in rows) else "DIFFER somewhere"))

    plot(configs, sizes, med, algs, dconfigs, dsizes, dmed, fig_dir)


def plot(configs, sizes, med, algs, dconfigs, dsizes, dmed, fig_dir):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n = len(configs)
    cols = min(4, n)
    rows = (n + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 3.2 * rows), squeeze=False, sharey=True)
    for i, (p, q) in enumerate(configs):
        ax = axes[i // cols][i % cols]
        for a in algs[1:]:
            xs = [b for b in sizes if (p, q, b, a) in med and (p, q, b, "native") in med]
            ax.plot(xs, [med[(p, q, b, "native")] / med[(p, q, b, a)] for b in xs], marker="o", ms=3, label=a)
        ax.axhline(1.0, color="grey", lw=0.8)
        ax.set_xscale("log", base=2)
        ax.set_title(f"p={p}, q={q}")
        ax.set_xlabel("bytes per sender block")
        if i % cols == 0:
            ax.set_ylabel("speed-up over native")
    for j in range(n, rows * cols):
        axes[j // cols][j % cols].axis("off")
    axes[0][0].legend(fontsize=7)
    fig.suptitle("intergather-bench, shared memory (2 cores, oversubscribed), median of runs")
    fig.tight_layout()
    fig.savefig(os.path.join(fig_dir, "shm-bench.png"), dpi=90)
    plt.close(fig)

    if not dconfigs:
        return
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.8), sharey=True)
    for ax, mode, title in ((axes[0], "shim-all", "INTERGATHER_MIN_BYTES=0 (every call served)"),
                            (axes[1], "shim-default", "default settings")):
        for (p, q) in dconfigs:
            xs = [b for b in dsizes if (mode, p, q, b) in dmed and ("native", p, q, b) in dmed]
            ax.plot(xs, [dmed[("native", p, q, b)] / dmed[(mode, p, q, b)] for b in xs], marker="o", ms=3,
                    label=f"{p}/{q}")
        ax.axhline(1.0, color="grey", lw=0.8)
        ax.set_xscale("log", base=2)
        ax.set_title(title, fontsize=9)
        ax.set_xlabel("bytes per sender block")
    axes[0].set_ylabel("native time / shim time")
    axes[0].legend(fontsize=7, title="p/q")
    fig.suptitle("intergather-demo under LD_PRELOAD vs native, shared memory")
    fig.tight_layout()
    fig.savefig(os.path.join(fig_dir, "shm-shim.png"), dpi=90)
    plt.close(fig)


if __name__ == "__main__":
    main()
