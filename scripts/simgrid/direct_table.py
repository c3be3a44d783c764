#!/usr/bin/env python3
"""Table of scripts/simgrid/direct.sh: per panel and block size, the simulated
time of root gathering, fc, direct and chain, the fastest, and what the
library's default decision picks (decide_table.c, the library's own
ig_decide with the default network model) and how much slower that is than
the fastest simulated algorithm.

  direct_table.py --data docs/data --decide /tmp/.../decide_table \
      --csv docs/data/sim-direct.csv --md docs/data/sim-direct.md \
      [--alt-model ts=..,tw=..,to=.. ...]

--measured PANEL=ts=..;tw=..;to=.. (repeatable): the model the library's
default measures on that panel's platform (direct.sh); "default picks" then
uses it, else the fixed default network model.

--alt-model adds, per model given, what the decision would pick with those
parameters and its slowdown (a what-if; the library's default is unchanged).
"""
import argparse
import csv
import glob
import os
import subprocess
import sys

ALGOS = ["root-gathering", "fc", "direct", "chain"]
PANELS = {"a": (512, 512, 8), "b": (256, 768, 8), "c": (768, 256, 8),
          "d": (128, 128, 1), "e": (64, 192, 1), "f": (192, 64, 1)}
# The decision's names -> the benchmark's: fc and spread are both `fc` there
# (the benchmark's fc runs the fully connected family: spread for p > q).
BENCH_NAME = {"fc": "fc", "spread": "fc", "direct": "direct", "chain": "chain", "root-gathering": "root-gathering"}
TARGET = 5.0  # per cent


def size_name(b):
    for unit, n in (("M", 1 << 20), ("K", 1 << 10)):
        if b % n == 0:
            return f"{b // n}{unit}"
    return str(b)


def decide(binary, p, q, sizes, model=None):
    cmd = [binary] + (["--model", model] if model else []) + [str(p), str(q)] + [str(s) for s in sizes]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return {int(r["bytes"]): r for r in csv.DictReader(out.splitlines())}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--decide", required=True)
    ap.add_argument("--csv", required=True)
    ap.add_argument("--md", required=True)
    ap.add_argument("--alt-model", action="append", default=[])
    ap.add_argument("--measured", action="append", default=[])
    a = ap.parse_args()
    measured = {}
    for m in a.measured:
        panel, model = m.split("=", 1)
        measured[panel] = model.replace(";", ",")

    rows = []
    for path in sorted(glob.glob(os.path.join(a.data, "figure4-direct-*.csv"))):
        panel = os.path.basename(path)[len("figure4-direct-"):-4]
        if panel not in PANELS:
            continue
        sim = {}
        with open(path) as f:
            for r in csv.DictReader(f):
                sim.setdefault(int(r["bytes"]), {})[r["algorithm"]] = float(r["median_s"])
        p, q, ppn = PANELS[panel]
        sizes = sorted(sim)
        dec = decide(a.decide, p, q, sizes, measured.get(panel))
        alts = [decide(a.decide, p, q, sizes, m) for m in a.alt_model]
        for b in sizes:
            t = sim[b]
            have = {k: v for k, v in t.items() if k in ALGOS}
            best = min(have, key=have.get)
            row = {"panel": panel, "p": p, "q": q, "ranks_per_node": ppn, "bytes": b,
                   "default_model": measured.get(panel, "fixed")}
            for k in ALGOS:
                row[k] = f"{t[k]:.9f}" if k in t else ""
            row["fastest"] = best if len(have) == len(ALGOS) else best + " (of those simulated)"
            row["simulated"] = "+".join(k for k in ALGOS if k in t)

            def judge(d, prefix):
                choice = d[b]["choice"]
                ran = BENCH_NAME.get(choice, choice)
                row[prefix + "choice"] = choice
                row[prefix + "segment"] = d[b]["segment"]
                if ran in t:
                    slow = 100.0 * (t[ran] / have[best] - 1)
                    row[prefix + "slowdown_pct"] = f"{slow:.1f}"
                    row[prefix + "within_target"] = ("yes" if slow <= TARGET else "no") + \
                        ("" if len(have) == len(ALGOS) else " (provisional)")
                else:
                    row[prefix + "slowdown_pct"] = ""
                    row[prefix + "within_target"] = "not simulated"

            judge(dec, "model_")
            for k in ("native", "fc_family", "direct", "chain"):
                row["model_" + k + "_s"] = dec[b][k]
            for i, alt in enumerate(alts):
                judge(alt, f"alt{i + 1}_")
            rows.append(row)

    if not rows:
        sys.exit("direct_table.py: no docs/data/figure4-direct-*.csv")
    with open(a.csv, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)

    def describe_models(models):
        """One entry per distinct model: 'every panel: M' when all are alike."""
        distinct = sorted(set(models.values()))
        if len(distinct) == 1:
            return f"every panel ({', '.join(sorted(models))}): {distinct[0]}"
        return "; ".join(f"{k}: {v}" for k, v in sorted(models.items()))

    def ms(v):
        return f"{1e3 * float(v):.3f}" if v else "-"

    lines = [
        "Simulated time (ms) per call on the Figure 4 fully connected platform (the Cori-like dragonfly), "
        "one timed call per point (SMPI is deterministic); `fc` is the fully connected family (spread for p > q). "
        "Fastest in bold. *Default picks*: what the library's decision (src/decide.c) chooses for the call "
        + ("with the network model its default measures, measured on the panel's platform by the library's own "
           "code (scripts/simgrid/measure_model.c): "
           + describe_models(measured)
           if measured else "with the fixed default network model ts=5e-6, tw=1e-10, to=1e-6")
        + f"; *slower by*: its simulated time over the fastest's (target: within {TARGET:.0f} %). "
        "`-`: not simulated (see docs/simulation.md).",
        "",
    ]
    head = "| panel | p/q | block | root gathering | fc | direct | chain | fastest | default picks | slower by | within 5 % |"
    if a.alt_model:
        for i, m in enumerate(a.alt_model):
            head += f" with {m}: picks | slower by |"
    lines.append(head)
    lines.append("|" + "---|" * (head.count("|") - 1))
    for r in rows:
        cells = []
        for k in ALGOS:
            v = ms(r[k])
            cells.append(f"**{v}**" if k == r["fastest"].split()[0] else v)
        choice = r["model_choice"] + (f" ({int(r['model_segment']) // 1024} KiB segments)"
                                      if r["model_choice"] == "chain" and int(r["model_segment"]) else "")
        slow = r["model_slowdown_pct"]
        line = (f"| {r['panel']} | {r['p']}/{r['q']} | {size_name(r['bytes'])} | " + " | ".join(cells) +
                f" | {r['fastest']} | {choice} | {slow + ' %' if slow else '-'} | {r['model_within_target']} |")
        for i in range(len(a.alt_model)):
            s = r[f"alt{i + 1}_slowdown_pct"]
            line += f" {r[f'alt{i + 1}_choice']} | {s + ' %' if s else '-'} |"
        lines.append(line)
    with open(a.md, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
