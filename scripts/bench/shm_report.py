#!/usr/bin/python3
"""Summarise a shared-memory sweep (scripts/bench/shm_sweep.sh).

usage: shm_report.py RAW_DIR DATA_DIR FIGURE_DIR

Reads RAW_DIR/bench-P-Q-RUN.csv (intergather-bench) and RAW_DIR/demo.csv
(intergather-demo runs), writes DATA_DIR/shm-bench.csv, DATA_DIR/shm-shim.csv,
FIGURE_DIR/shm-bench.png, FIGURE_DIR/shm-shim.png, and prints Markdown tables
and the INTERGATHER_MIN_BYTES recommendation on stdout.

Speed-ups are paired: within one run (one mpirun of the bench, or one
repetition of the demo, whose modes run back to back) the ratio native/X is
taken, then the median over runs.  On an oversubscribed, shared machine this
cancels much of the drift that separate medians would keep.
"""
import csv
import glob
import os
import statistics
import sys
from collections import defaultdict

ALGS = ["native", "fc", "ring-optimal", "ring-paper", "root-gathering"]


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


def paired(runs_x, runs_ref):
    """Median over common runs of ref/x."""
    common = [r for r in runs_x if r in runs_ref and runs_x[r] > 0]
    if not common:
        return None
    return statistics.median(runs_ref[r] / runs_x[r] for r in common)


def load_bench(raw):
    runs = defaultdict(dict)  # (p, q, bytes, alg) -> {run: median_s}
    mins = defaultdict(list)
    verified = defaultdict(set)
    for path in glob.glob(os.path.join(raw, "bench-*.csv")):
        run = os.path.basename(path)[:-4].split("-")[-1]
        with open(path) as f:
            for row in csv.DictReader(f):
                k = (int(row["p"]), int(row["q"]), int(row["bytes"]), row["algorithm"])
                runs[k][run] = float(row["median_s"])
                mins[k].append(float(row["min_s"]))
                verified[k].add(row["verified"])
    return runs, mins, verified


def load_demo(raw):
    runs = defaultdict(dict)  # (mode, p, q, bytes) -> {rep: median_ms}
    digests = defaultdict(set)
    path = os.path.join(raw, "demo.csv")
    if not os.path.exists(path):
        return runs, digests
    with open(path) as f:
        for row in csv.DictReader(f):
            if not row["median_ms"]:
                continue
            p, q, b = int(row["p"]), int(row["q"]), int(row["bytes"])
            runs[(row["mode"], p, q, b)][row["rep"]] = float(row["median_ms"])
            digests[(p, q, b, row["rep"])].add(row["digest"])
    return runs, digests


def bench_section(runs, mins, verified, data_dir):
    configs = sorted({(k[0], k[1]) for k in runs}, key=config_key)
    sizes = sorted({k[2] for k in runs})
    sp = {}
    for k in runs:
        ref = runs.get(k[:3] + ("native",))
        if ref:
            sp[k] = paired(runs[k], ref)
    with open(os.path.join(data_dir, "shm-bench.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["p", "q", "bytes", "algorithm", "runs", "median_s", "min_s", "speedup_vs_native", "verified"])
        for (p, q) in configs:
            for b in sizes:
                for a in ALGS:
                    k = (p, q, b, a)
                    if k not in runs:
                        continue
                    w.writerow([p, q, b, a, len(runs[k]), f"{statistics.median(runs[k].values()):.4g}",
                                f"{min(mins[k]):.4g}", f"{sp[k]:.2f}" if sp.get(k) else "",
                                "yes" if verified[k] == {"yes"} else "/".join(sorted(verified[k]))])
    print("### intergather-bench: speed-up over native (paired median over runs)\n")
    print("Columns: native's median time per call, then native time / algorithm time. "
          "`root-gathering` is native's own algorithm rebuilt on the pair: its column shows the noise.\n")
    for (p, q) in configs:
        print(f"p = {p}, q = {q} ({p + q} processes on 2 cores):\n")
        print("| block | native (ms) | " + " | ".join(ALGS[1:]) + " |")
        print("|---:|---:|" + "---:|" * (len(ALGS) - 1))
        for b in sizes:
            k = (p, q, b, "native")
            if k not in runs:
                continue
            cells = [f"{sp[(p, q, b, a)]:.2f}" if sp.get((p, q, b, a)) else "" for a in ALGS[1:]]
            print(f"| {human(b)} | {1e3 * statistics.median(runs[k].values()):.3f} | " + " | ".join(cells) + " |")
        print()
    for a in ALGS[1:]:
        print(f"Compact view, {a}: native time / {a} time, one column per p/q:\n")
        print("| block | " + " | ".join(f"{p}/{q}" for p, q in configs) + " |")
        print("|---:|" + "---:|" * len(configs))
        for b in sizes:
            cells = [f"{sp[(p, q, b, a)]:.2f}" if sp.get((p, q, b, a)) else "" for (p, q) in configs]
            print(f"| {human(b)} | " + " | ".join(cells) + " |")
        print()
    bad = sorted(k for k, v in verified.items() if v != {"yes"})
    print("Verification: " + ("every result identical to native's." if not bad else f"MISMATCHES: {bad}") + "\n")
    return configs, sizes, sp


def demo_section(druns, digests, data_dir):
    modes = [m for m in ("shim-all", "shim-default", "shim-rec") if any(k[0] == m for k in druns)]
    configs = sorted({(k[1], k[2]) for k in druns}, key=config_key)
    sizes = sorted({k[3] for k in druns})
    sp = {}
    for k in druns:
        ref = druns.get(("native",) + k[1:])
        if k[0] != "native" and ref:
            sp[k] = paired(druns[k], ref)
    with open(os.path.join(data_dir, "shm-shim.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["p", "q", "bytes", "mode", "runs", "median_ms", "native_over_mode_paired", "digests_equal"])
        for (p, q) in configs:
            for b in sizes:
                same = all(len(v) == 1 for k, v in digests.items() if k[:3] == (p, q, b))
                for m in ["native"] + modes:
                    k = (m, p, q, b)
                    if k not in druns:
                        continue
                    w.writerow([p, q, b, m, len(druns[k]), f"{statistics.median(druns[k].values()):.4g}",
                                f"{sp[k]:.2f}" if sp.get(k) else "", "yes" if same else "NO"])
    names = {"shim-all": "INTERGATHER_MIN_BYTES=0 (no size floor: the cost model decides every call)",
             "shim-default": "default settings (the compiled-in INTERGATHER_MIN_BYTES, 0 since the cost model)",
             "shim-rec": "INTERGATHER_MIN_BYTES set to the recommendation"}
    print("### intergather-demo under LD_PRELOAD: native time / shim time (paired median over repetitions)\n")
    for m in modes:
        print(f"{names[m]}:\n")
        print("| block | " + " | ".join(f"{p}/{q}" for p, q in configs) + " |")
        print("|---:|" + "---:|" * len(configs))
        for b in sizes:
            cells = [f"{sp[(m, p, q, b)]:.2f}" if sp.get((m, p, q, b)) else "" for (p, q) in configs]
            print(f"| {human(b)} | " + " | ".join(cells) + " |")
        print()
    ok = all(len(v) == 1 for v in digests.values())
    print("Digests of everything received: " + ("identical in every mode and run." if ok else "DIFFER.") + "\n")

    def from_size(cfgs):
        for b in sizes:
            if all(sp.get(("shim-all", p, q, s), 0) >= 1.0 for (p, q) in cfgs for s in sizes
                   if s >= b and ("shim-all", p, q, s) in sp):
                return b
        return None

    print("Smallest block size from which the shim with no size floor (MIN_BYTES=0) was never slower than native, "
          "at that size and every larger one:\n")
    for (p, q) in configs:
        r = from_size([(p, q)])
        print(f"- {p}/{q}: {human(r) if r else 'none up to ' + human(max(sizes))}")
    le = [(p, q) for (p, q) in configs if p <= q]
    r_le, r_all = from_size(le), from_size(configs)
    print(f"- all configurations with p <= q: {human(r_le) if r_le else 'none'}")
    print(f"- all configurations: {human(r_all) if r_all else 'none'}\n")
    return configs, sizes, sp, modes


def plot(bcfg, bsizes, bsp, dcfg, dsizes, dsp, modes, fig_dir):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if bcfg:
        n = len(bcfg)
        cols = min(4, n)
        rows = (n + cols - 1) // cols
        fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 3.2 * rows), squeeze=False, sharey=True)
        for i, (p, q) in enumerate(bcfg):
            ax = axes[i // cols][i % cols]
            for a in ALGS[1:]:
                xs = [b for b in bsizes if bsp.get((p, q, b, a))]
                ax.plot(xs, [bsp[(p, q, b, a)] for b in xs], marker="o", ms=3, label=a,
                        ls=":" if a == "root-gathering" else "-")
            ax.axhline(1.0, color="grey", lw=0.8)
            ax.set_xscale("log", base=2)
            ax.set_yscale("log", base=2)
            ax.set_title(f"p={p}, q={q}")
            ax.set_xlabel("bytes per sender block")
            if i % cols == 0:
                ax.set_ylabel("speed-up over native")
        for j in range(n, rows * cols):
            axes[j // cols][j % cols].axis("off")
        axes[0][0].legend(fontsize=7)
        fig.suptitle("intergather-bench on shared memory (2 cores, oversubscribed, loaded): paired medians")
        fig.tight_layout()
        fig.savefig(os.path.join(fig_dir, "shm-bench.png"), dpi=80)
        plt.close(fig)
    if dcfg and modes:
        fig, axes = plt.subplots(1, len(modes), figsize=(5.5 * len(modes), 3.8), sharey=True, squeeze=False)
        for ax, m in zip(axes[0], modes):
            for (p, q) in dcfg:
                xs = [b for b in dsizes if dsp.get((m, p, q, b))]
                ax.plot(xs, [dsp[(m, p, q, b)] for b in xs], marker="o", ms=3, label=f"{p}/{q}")
            ax.axhline(1.0, color="grey", lw=0.8)
            ax.set_xscale("log", base=2)
            ax.set_yscale("log", base=2)
            ax.set_title({"shim-all": "MIN_BYTES=0", "shim-default": "default settings",
                          "shim-rec": "recommended MIN_BYTES"}[m], fontsize=9)
            ax.set_xlabel("bytes per sender block")
        axes[0][0].set_ylabel("native time / shim time")
        axes[0][0].legend(fontsize=7, title="p/q")
        fig.suptitle("intergather-demo under LD_PRELOAD vs native, shared memory: paired medians")
        fig.tight_layout()
        fig.savefig(os.path.join(fig_dir, "shm-shim.png"), dpi=80)
        plt.close(fig)


def main():
    raw, data_dir, fig_dir = sys.argv[1:4]
    runs, mins, verified = load_bench(raw)
    bcfg, bsizes, bsp = bench_section(runs, mins, verified, data_dir) if runs else ([], [], {})
    druns, digests = load_demo(raw)
    dcfg, dsizes, dsp, modes = demo_section(druns, digests, data_dir) if druns else ([], [], {}, [])
    plot(bcfg, bsizes, bsp, dcfg, dsizes, dsp, modes, fig_dir)


if __name__ == "__main__":
    main()
