"""The peers and arrival phases of scripts/cluster/run.sh: tables, a figure,
and (with the decide_table binary) the cost model's choices against the
measurements.  Used by cluster_report.py; also runnable on its own:

    peers_report.py DATA_DIR FIGURE_DIR [DECIDE_TABLE]
"""
import os
import subprocess
import sys

USER_PEERS = ["native", "iallgather", "merge-allgatherv"]  # what a user has without intergather: the targets
OWN = ["direct", "fc", "relay", "chain", "star"]  # the library's algorithms through its pair API: how good the decision is
PEERS = USER_PEERS + OWN
ALGS = ["intergather"] + PEERS
SLOWER = 1.05      # a peer more than 5 % faster than intergather is flagged
BOUND_TARGET = 0.93  # intergather's share of the bound at 4 MiB, half duplex
BOUND_TARGET_BYTES = 4 << 20
TW_LINK = 8e-8     # 100 Mbit/s in seconds per byte


def human(b):
    b = int(b)
    if b >= 1 << 20 and b % (1 << 20) == 0:
        return f"{b >> 20}M"
    return f"{b >> 10}K"


from cluster_report import read  # one CSV reader for both reports

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench"))
import paired  # noqa: E402  (scripts/bench/paired.py: ratios of calls made in the same round)


def shown(ratio, bad):
    """A ratio for a table cell, in bold where it misses its target."""
    return f"**{ratio:.3f}**" if bad else f"{ratio:.3f}"


def target_line(what, summary, ratio_key, peer_key, missing, faster=""):
    """One target over every point of the sweep; a point without a ratio
    (not measured, or not paired) is not met."""
    flagged = [s for s in summary if s[ratio_key] is None or s[ratio_key] > SLOWER]
    print(f"- {what}: {len(summary) - len(flagged)} of {len(summary)} points met" + (", not met at: " + "; ".join(
        f"{s['p']}:{s['q']} {s['d']} {human(s['b'])} " +
        (f"({s[peer_key]} {s[ratio_key]:.2f}x{faster})" if s[ratio_key] is not None else f"({missing})")
        for s in flagged) if flagged else ""))


def order_configs(cs):
    return sorted(cs, key=lambda c: (c[0] + c[1], c[0] != c[1], c[0]))


def bound_s(p, q, k, duplex, rate_mbit):
    """Bandwidth bound: what the busiest receiving link must carry, at the
    configured rate.  Half duplex: a receiver takes p blocks; full duplex: a
    process of group A takes q blocks, one of B takes p."""
    blocks = p if duplex == "half" else max(p, q)
    return blocks * k * 8 / (rate_mbit * 1e6)


def bench_name(choice, duplex):
    """The bench row that runs what the decision chose (None: not measured as such)."""
    if choice in ("native", "direct"):
        return choice
    if duplex == "half" and choice in ("fc", "spread"):
        return "fc"
    if duplex == "half" and choice in ("relay", "star"):
        return choice
    if duplex == "full" and choice == "full-duplex":
        return "fc"
    if duplex == "full" and "+" in choice:
        return "two-pass:" + choice
    return None


def decide(binary, lines):
    out = subprocess.run([binary], input="".join(lines), capture_output=True, text=True, check=True).stdout
    return [ln.split() for ln in out.splitlines()]


DEFAULT_MODEL = (5e-6, 1e-10, 1e-6)  # INTERGATHER_NET_MODEL's fixed values


def read_models(path):
    """The network model the library measured per (p, q, duplex) run
    (run.sh: cluster-peers-measured.csv); the library's default decision
    used these numbers there."""
    return {(int(r["p"]), int(r["q"]), r["duplex"]): (float(r["ts"]), float(r["tw"]), float(r["to"]))
            for r in read(path)}


def model_line(models, p, q, d):
    return " ".join(f"{v:g}" for v in models.get((p, q, d), DEFAULT_MODEL))


def peers_tables(rows, decide_bin, link_mbit, models=None, pairs=None):
    """pairs: paired.paired_ratios of the run's calls (cluster-peers-calls.csv), or None."""
    models = models or {}
    pairs = pairs or {}
    t, rate = {}, {}
    for r in rows:
        if float(r.get("imbalance", 0) or 0) != 0:
            continue
        key = (int(r["p"]), int(r["q"]), r["duplex"], int(r["bytes"]))
        t[key + (r["algorithm"],)] = float(r["median_s"])
        rate[key] = float(r["rate_mbit"])
    points = sorted({k[:4] for k in t}, key=lambda k: (k[0] + k[1], k[0] != k[1], k[0], k[2] != "half", k[3]))
    configs = order_configs({(k[0], k[1]) for k in points})
    choice = {}
    if decide_bin:
        lines = [model_line(models, p, q, d) + f" {p} {q} {b} {d}\n" for (p, q, d, b) in points]
        for (p, q, d, b), res in zip(points, decide(decide_bin, lines)):
            choice[(p, q, d, b)] = res[4]
    summary = []
    print("## Peers: median time per call (ms), balanced arrival\n")
    print("bound: the busiest receiving link's bytes at the configured rate (half duplex p k / rate; full duplex "
          "max(p, q) k / rate); `% bound` = bound / intergather's time; `best peer` the fastest of what a user "
          "has without intergather (" + ", ".join(USER_PEERS) + "), `ig/peer` intergather's time over it "
          "(**bold**: a peer more than 5 % faster: the issue's target); `best own` the fastest of the library's "
          "algorithms run through its pair API (" + ", ".join(OWN) + "; fc in full duplex is the full-duplex "
          "algorithm, ig_pair_allgather_fd; each after a one-allreduce agreement of its own), `ig/own` "
          "intergather's time over it (how far the default decision is from the library's best)"
          + ("; `model` what intergather's default decision runs there, with the network model it measured on "
             "that run's inter-communicator (" + ("; ".join(f"{p}:{q} {d}: ts={m[0]:.3g} tw={m[1]:.3g} to={m[2]:.3g}"
                                                        for (p, q, d), m in sorted(models.items()))
                                               or "none recorded: the fixed default") + ")" if choice else "")
          + ("; `paired` the median over rounds of intergather's time over a peer's in the same round (the "
             "bench's --interleave), for the peer intergather trails most by it" if pairs else "")
          + ".\n")
    for d in ("half", "full"):
        for (p, q) in configs:
            pts = [k for k in points if k[0] == p and k[1] == q and k[2] == d]
            if not pts:
                continue
            print(f"### p = {p}, q = {q}, {d} duplex\n")
            algs = [a for a in ALGS if any(t.get(k + (a,)) is not None for k in pts)]
            print("| block | " + " | ".join(algs) + " | bound | % bound | best peer | ig/peer |"
                  + (" paired |" if pairs else "") + " best own | ig/own |" + (" model |" if choice else ""))
            print("|---:|" + "---:|" * len(algs) + "---:|---:|---|---:|" + ("---:|" if pairs else "")
                  + "---|---:|" + ("---|" if choice else ""))
            for key in pts:
                b = key[3]
                vals = {a: t.get(key + (a,)) for a in ALGS}
                bnd = bound_s(p, q, b, d, rate[key])
                ig = vals["intergather"]
                peers = {a: vals[a] for a in USER_PEERS if vals.get(a) is not None}
                own = {a: vals[a] for a in OWN if vals.get(a) is not None}
                best = min(peers, key=peers.get) if peers else None
                best_own = min(own, key=own.get) if own else None
                ratio = ig / peers[best] if ig and best else None
                ratio_own = ig / own[best_own] if ig and best_own else None
                cells = [f"{1e3 * vals[a]:.1f}" if vals[a] is not None else "" for a in algs]
                flag = ratio is not None and ratio > SLOWER
                rs = "" if ratio is None else shown(ratio, flag)
                ro = "" if ratio_own is None else f"{ratio_own:.3f}"
                pct = f"{100 * bnd / ig:.1f}" if ig else ""
                p_peer, p_ratio = paired.worst_peer(pairs.get(key, {}), USER_PEERS)
                pc = "" if p_ratio is None else f"{p_peer} " + shown(p_ratio, p_ratio > SLOWER)
                print(f"| {human(b)} | " + " | ".join(cells) + f" | {1e3 * bnd:.1f} | {pct} | {best} | {rs} |"
                      + (f" {pc} |" if pairs else "")
                      + f" {best_own or ''} | {ro} |" + (f" {choice.get(key, '')} |" if choice else ""))
                summary.append(dict(p=p, q=q, d=d, b=b, ig=ig, best=best, best_t=peers.get(best), ratio=ratio,
                                    pct=bnd / ig if ig else None, vals=vals, choice=choice.get(key),
                                    paired_peer=p_peer, paired=p_ratio))
            print()
    # Targets
    print("### Targets\n")
    target_line("no peer more than 5 % faster than intergather", summary, "ratio", "best", "not measured",
                " faster")
    if pairs:
        target_line("the same by paired ratio", summary, "paired", "paired_peer", "not paired")
    big = [s for s in summary if s["b"] == max(x["b"] for x in summary)]
    for s in big:
        if s["pct"] is None:
            continue
        # The target is for 4 MiB blocks in half duplex only; a run
        # whose largest block is smaller reports the share without a verdict.
        judged = s["d"] == "half" and s["b"] == BOUND_TARGET_BYTES
        tgt = " (target 93 %: " + ("met" if s["pct"] >= BOUND_TARGET else "NOT met") + ")" if judged else ""
        link = f", {100 * s['pct'] * rate[(s['p'], s['q'], s['d'], s['b'])] / link_mbit:.1f} % of the bound at the " \
               f"measured link rate {link_mbit:.1f} Mbit/s" if link_mbit else ""
        print(f"- {s['p']}:{s['q']} {s['d']} duplex {human(s['b'])}: intergather at {100 * s['pct']:.1f} % of the "
              f"bound{link}{tgt}")
    print()
    return t, points, summary


def arrival_tables(rows):
    a = {}
    for r in rows:
        key = (int(r["p"]), int(r["q"]), int(r["bytes"]), float(r["imbalance"]))
        a[key + (r["algorithm"],)] = (float(r["avg_proc_s"]), float(r["t_balanced_s"]), float(r["omega_s"]),
                                      float(r["worst_proc_s"]))
    if not a:
        return
    print("## Arrival: average and worst per-process time (ms), delays uniform in [0, F T], T = native's balanced "
          "median\n")
    print("Every algorithm sees the same delays (same seed, rank, size and F); `ig/best` intergather's average "
          "over the best peer's (**bold**: a peer is better).\n")
    keys = sorted({k[:3] for k in a}, key=lambda k: (k[0] + k[1], k[2]))
    fails = []
    for (p, q, b) in keys:
        fs = sorted({k[3] for k in a if k[:3] == (p, q, b)})
        algs = [x for x in ALGS if any((p, q, b, f, x) in a for f in fs)]
        tunit = next(a[(p, q, b, f, x)][1] for f in fs for x in algs if (p, q, b, f, x) in a)
        print(f"### p = {p}, q = {q}, {human(b)}, T = {1e3 * tunit:.1f} ms\n")
        print("| F | omega (ms) | " + " | ".join(algs) + " | best peer | ig/best |")
        print("|---:|---:|" + "---:|" * len(algs) + "---|---:|")
        for f in fs:
            v = {x: a[(p, q, b, f, x)][0] for x in algs if (p, q, b, f, x) in a}
            om = max(a[(p, q, b, f, x)][2] for x in algs if (p, q, b, f, x) in a)
            peers = {x: y for x, y in v.items() if x in USER_PEERS}
            best = min(peers, key=peers.get) if peers else None
            r = v["intergather"] / peers[best] if "intergather" in v and best else None
            bad = r is None or r > 1.0  # not measured counts as not met
            if bad:
                fails.append(f"{p}:{q} {human(b)} F={f:g} " + (f"({best} {r:.2f}x)" if r is not None else "(not measured)"))
            print(f"| {f:g} | {1e3 * om:.0f} | " + " | ".join(f"{1e3 * v[x]:.1f}" if x in v else "" for x in algs)
                  + f" | {best or ''} | " + ("" if r is None else shown(r, bad)) + " |")
        print()
        # The seed's other measure: the worst process's exit minus its own arrival.
        print("Worst per-process time (ms):\n")
        print("| F | " + " | ".join(algs) + " |")
        print("|---:|" + "---:|" * len(algs))
        for f in fs:
            print(f"| {f:g} | " + " | ".join(f"{1e3 * a[(p, q, b, f, x)][3]:.1f}" if (p, q, b, f, x) in a else ""
                                          for x in algs) + " |")
        print()
    print("- intergather's average per-process time <= every peer's: " +
          ("met everywhere" if not fails else "NOT met at " + "; ".join(fails)) + "\n")


def model_section(decide_bin, t, points, summary, measured_ts=None, models=None):
    """Which (ts, to) with tw = 8e-8 s/byte (100 Mbit/s) make the decision
    pick the fastest algorithm the library can run at each point."""
    def measured(key, name):
        p, q, d, b = key
        if name.startswith("two-pass:"):  # the two half-duplex passes' own times, group 0's data first
            a0, a1 = (bench_name(a, "half") for a in name.split(":")[1].split("+"))
            x, y = t.get((p, q, "half", b, a0)), t.get((q, p, "half", b, a1))
            return x + y if x is not None and y is not None else None
        return t.get(key + (name,))

    def score(ts, tw, to, per_run=None):
        lines = [(model_line(per_run, p, q, d) if per_run is not None else f"{ts} {tw} {to}") + f" {p} {q} {b} {d}\n"
                 for (p, q, d, b) in points]
        res = decide(decide_bin, lines)
        loss, picks = [], {}
        for key, r in zip(points, res):
            name = bench_name(r[4], key[2])
            got = measured(key, name) if name else None
            opts = {n: measured(key, n) for n in ("native", "direct", "fc", "relay", "star")}
            opts = {n: v for n, v in opts.items() if v is not None}
            best = min(opts.values())
            loss.append(got / best if got else float("inf"))
            picks[key] = (r[4], got, min(opts, key=opts.get))
        return loss, picks

    print("## The cost model against the measurements\n")
    # Only points where some option of the library ran can be scored (a run
    # with PEER_ALGOS of peers and intergather alone has none).
    points = [k for k in points if any(measured(k, n) is not None for n in ("native", "direct", "fc", "relay", "star"))]
    if not points:
        print("Not scored: no point ran any of the library's options (native, direct, fc, relay); "
              "add them to PEER_ALGOS.\n")
        return
    print("For each point: the algorithm the decision would run (the library's own code, decide_table) and its "
          "measured time over the fastest of the library's options (native, direct, fc family / full-duplex "
          "algorithm, relay and star where they were run; a two-pass plan is estimated from its two passes' half-duplex "
          "times).\n")
    grid_ts = [1e-5, 3e-5, 1e-4, 3e-4, 1e-3, 3e-3]
    grid_ratio = [0, 0.1, 0.25, 0.5, 0.7, 0.75, 0.8, 1, 1.5, 2, 3]  # to / ts
    cands = [("default", 5e-6, 1e-10, 1e-6)] + [(None, ts, TW_LINK, r * ts) for ts in grid_ts for r in grid_ratio]
    if measured_ts:
        cands += [(None, measured_ts, TW_LINK, r * measured_ts) for r in grid_ratio]
    results = []
    big = [i for i, k in enumerate(points) if k[3] >= 262144]
    if models:  # what the library ran by default: each run's measured model
        cands.insert(0, ("measured (default)", None, None, None))
    for label, ts, tw, to in cands:
        loss, picks = score(ts, tw, to, models if label == "measured (default)" else None)
        worst = max(loss)
        mean = sum(loss) / len(loss)
        within = sum(1 for x in loss if x <= SLOWER)
        big_mean = sum(loss[i] for i in big) / len(big) if big else float("nan")
        results.append((label or f"ts={ts:g},tw={tw:g},to={to:g}", ts, tw, to, worst, mean, within, picks, big_mean))
    print(f"A grid of ts and to/ts with tw = {TW_LINK:g} s/byte (100 Mbit/s)"
          + (f" and the measured ts = {measured_ts:.3g} s" if measured_ts else "") + ": the best by mean ratio.\n")
    print("| model | points within 5 % of the fastest option | mean ratio | mean ratio, >= 256 KiB | worst ratio |")
    print("|---|---:|---:|---:|---:|")
    fixed = 2 if models else 1  # the library's own models come first
    ranked = sorted(results[fixed:], key=lambda r: (r[5], -r[6]))
    shown = results[:fixed] + ranked[:3] + [r for r in results[fixed:] if measured_ts and r[1] == measured_ts]
    for r in shown:
        print(f"| {r[0]} | {r[6]} of {len(points)} | {r[5]:.3f} | {r[8]:.3f} | {r[4]:.2f} |")
    print()
    cols = results[:fixed] + ranked[:1]
    if measured_ts:
        cols += [r for r in results[fixed:] if r[1] == measured_ts and r[3] / r[1] in (0.1, 1)]
    print("Per point: what each model runs (f: the fc family, fd: the full-duplex algorithm, d: direct, n: native, r: relay, s: star) "
          "and its measured time over the fastest option's:\n")
    print("| point | fastest option | " + " | ".join(c[0] for c in cols) + " |")
    print("|---|---|" + "---|" * len(cols))
    short = {"direct": "d", "fc": "f", "spread": "f (spread)", "full-duplex": "fd", "native": "n", "relay": "r", "star": "s"}
    for key in points:
        cells = []
        for c in cols:
            ch, got, fastest = c[7][key]
            cells.append(f"{short.get(ch, ch)} {'' if got is None else f'{got / measured(key, fastest):.2f}'}")
        fastest = results[0][7][key][2]
        fastest = "fd" if key[2] == "full" and fastest == "fc" else short.get(fastest, fastest)
        print(f"| {key[0]}:{key[1]} {key[2]} {human(key[3])} | {fastest} | " + " | ".join(cells) + " |")
    print()


def latency_section(data, quiet=False):
    """scripts/cluster/pingpong.c's output (the latency phase): ts, tw, to and
    the agreement step's allreduce as MPI over the emulated network sees them."""
    path = os.path.join(data, "cluster-pingpong.txt")
    if not os.path.exists(path):
        return None
    pp, fan, other = {}, {}, []
    with open(path) as f:
        for ln in f:
            w = ln.split()
            if len(w) == 3 and w[0] == "pingpong":
                pp[int(w[1])] = float(w[2])
            elif len(w) == 3 and w[0] == "fanout":
                fan[int(w[1])] = float(w[2])
            elif len(w) == 3 and w[0] in ("allreduce", "barrier"):
                other.append((w[0], int(w[1]), float(w[2])))
    if 1 not in pp:
        return None
    if quiet:
        return pp[1]
    print("## Latency (scripts/cluster/pingpong.c, docs/data/cluster-pingpong.txt)\n")
    print("| message | half round trip (ms) | effective Mbit/s |")
    print("|---:|---:|---:|")
    for b in sorted(pp):
        print(f"| {b} B | {1e3 * pp[b]:.3f} | {8 * b / pp[b] / 1e6:.1f} |")
    big = [b for b in pp if b >= 262144]
    tw = None
    if len(big) >= 2:
        lo, hi = min(big), max(big)
        tw = (pp[hi] - pp[lo]) / (hi - lo)
    to = None
    if len(fan) >= 2:
        ms = sorted(fan)
        n = len(ms)
        mx, my = sum(ms) / n, sum(fan[m] for m in ms) / n
        to = sum((m - mx) * (fan[m] - my) for m in ms) / sum((m - mx) ** 2 for m in ms)
    print()
    print(f"- ts (1 byte, half round trip): {1e6 * pp[1]:.0f} us" +
          (f"; tw (slope 256 KiB .. 4 MiB): {tw:.3g} s/byte = {8 / tw / 1e6:.1f} Mbit/s" if tw else "") +
          (f"; to (slope of a 1-byte fan-out over the number of peers): {1e6 * to:.0f} us per message" if to else ""))
    for name, n, v in other:
        print(f"- MPI_{name.capitalize()} over {n} processes (the agreement step is one such allreduce of "
              f"12 int64 on the merged communicator): {1e3 * v:.2f} ms" if name == "allreduce" else
              f"- MPI_Barrier over {n} processes: {1e3 * v:.2f} ms")
    print()
    return pp[1]


def models_tables(rows, t):
    """The models phase: intergather (MPI_Allgather through the library) under
    each variant, next to the pair-API algorithms of the same run and the
    peers phase's best peer."""
    if not rows:
        return
    m = {}
    for r in rows:
        key = (r["variant"], int(r["p"]), int(r["q"]), r["duplex"], int(r["bytes"]))
        m[key + (r["algorithm"],)] = float(r["median_s"])
    variants = list(dict.fromkeys(r["variant"] for r in rows))
    algs = [a for a in ["intergather", "direct", "fc", "iallgather"] if any(k[5] == a for k in m)]
    print("## Models: intergather under forced algorithms and model overrides (median ms)\n")
    print("Each variant is one set of runs with that setting for the library (`ig: X`: MPI_Allgather through the "
          "library with INTERGATHER_ALGORITHM or the model set so); the pair-API rows direct and fc (no agreement "
          "step) ignore settings: they run the same code in every variant, their range shows the run-to-run "
          "spread. Last columns: the peers phase's intergather (default decision) and best peer at that point.\n")
    pts = sorted({k[1:5] for k in m}, key=lambda k: (k[0] + k[1], k[2] != "half", k[3]))
    print("| point | " + " | ".join(f"ig: {v.split('=', 1)[1]}" for v in variants) + " | " +
          " | ".join(f"{a} (runs)" for a in algs if a != "intergather") + " | peers: intergather | peers: best |")
    print("|---|" + "---:|" * len(variants) + "---:|" * (len(algs) - 1) + "---:|---:|")
    for (p, q, d, b) in pts:
        igs = [m.get((v, p, q, d, b, "intergather")) for v in variants]
        others = []
        for a in algs:
            if a == "intergather":
                continue
            vals = [m[(v, p, q, d, b, a)] for v in variants if (v, p, q, d, b, a) in m]
            others.append(f"{1e3 * min(vals):.1f}..{1e3 * max(vals):.1f}" if vals else "")
        peer = {a: t[(p, q, d, b, a)] for a in PEERS if (p, q, d, b, a) in t}
        best = min(peer.values()) if peer else None
        ig_peers = t.get((p, q, d, b, "intergather"))
        print(f"| {p}:{q} {d} {human(b)} | " + " | ".join("" if x is None else f"{1e3 * x:.1f}" for x in igs) + " | "
              + " | ".join(others) + f" | {'' if ig_peers is None else f'{1e3 * ig_peers:.1f}'} | "
              + ("" if best is None else f"{1e3 * best:.1f} ({min(peer, key=peer.get)})") + " |")
    print()


def figure(t, points, fig_dir):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    configs = order_configs({(k[0], k[1]) for k in points})
    duplexes = [d for d in ("half", "full") if any(k[2] == d for k in points)]
    fig, axes = plt.subplots(len(duplexes), len(configs), figsize=(3.4 * len(configs), 3.0 * len(duplexes)),
                             sharey=True, squeeze=False)
    styles = {"intergather": ("k", "o", "-", 2.0), "native": ("C3", "v", ":", 1), "iallgather": ("C1", "s", "--", 1),
              "merge-allgatherv": ("C2", "^", "--", 1), "direct": ("C0", "x", "-.", 1), "fc": ("C4", "d", "-.", 1),
              "chain": ("C5", "+", "-.", 1), "relay": ("C6", "*", "-.", 1), "star": ("C7", "P", "-.", 1)}
    for i, d in enumerate(duplexes):
        for j, (p, q) in enumerate(configs):
            ax = axes[i][j]
            pts = [k for k in points if k[:3] == (p, q, d)]
            if not pts:
                ax.set_visible(False)
                continue
            for a in ALGS:
                xs = [k[3] for k in pts if k + (a,) in t]
                # Fraction of the bandwidth bound reached (1 = the busiest link saturated at the configured rate).
                ys = [bound_s(p, q, k[3], d, 100) / t[k + (a,)] for k in pts if k + (a,) in t]
                c, m, ls, lw = styles[a]
                ax.plot(xs, ys, color=c, marker=m, ms=3, ls=ls, lw=lw,
                        label="fc (full duplex: full-duplex alg.)" if a == "fc" else a)
            ax.axhline(1.0, color="grey", lw=0.6)
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_title(f"p={p}, q={q}, {d} duplex", fontsize=9)
            if i == len(duplexes) - 1:
                ax.set_xlabel("bytes per block")
    for i in range(len(duplexes)):
        axes[i][0].set_ylabel("bound / time")
    axes[0][0].legend(fontsize=7)
    fig.suptitle("Emulated cluster (Open MPI over TCP, 100 Mbit/s per node):\nshare of the bandwidth bound reached",
                 fontsize=10)
    fig.tight_layout()
    fig.savefig(os.path.join(fig_dir, "cluster-peers.png"), dpi=90)
    plt.close(fig)


def verified(rows, path):
    """The rows, every one of them checked byte for byte by the bench (its
    verified column: the checked call before each measurement and the last
    timed call of it, under the same arrival pattern); a report never rests
    on an unchecked or mismatched row."""
    for r in rows:
        if r.get("verified") != "yes":
            sys.exit(f"{path}: a row not verified byte for byte: {r}")
    return rows


def report(data, fig_dir, phases=None, decide_bin=None):
    want = lambda ph: phases is None or ph in phases
    path = os.path.join(data, "cluster-peers.csv")
    rows = verified(read(path), path)
    models = read_models(os.path.join(data, "cluster-peers-measured.csv"))
    calls = os.path.join(data, "cluster-peers-calls.csv")
    pairs = paired.paired_ratios(paired.read_calls(calls)) if os.path.exists(calls) else None
    if want("peers") and rows:
        links = read(os.path.join(data, "cluster-peers-links.csv"))
        link_mbit = None
        if links:
            rates = sorted(float(r["measured_mbit"]) for r in links)
            link_mbit = rates[len(rates) // 2]
            print(f"Link check: {len(links)} directed links, median {link_mbit:.1f} Mbit/s "
                  f"(min {rates[0]:.1f}, max {rates[-1]:.1f}).\n")
        t, points, summary = peers_tables(rows, decide_bin, link_mbit, models, pairs)
    elif rows:
        with open(os.devnull, "w") as null:  # the tables, quietly: the other sections compare with them
            out, sys.stdout = sys.stdout, null
            try:
                t, points, summary = peers_tables(rows, decide_bin, None, models)
            finally:
                sys.stdout = out
    measured_ts = latency_section(data, quiet=not (want("latency") or want("peers")))
    if rows and decide_bin and (want("peers") or want("models")):
        model_section(decide_bin, t, points, summary, measured_ts, models)
    if rows and want("models"):
        models_tables(read(os.path.join(data, "cluster-models.csv")), t)
    if want("arrival"):
        path = os.path.join(data, "cluster-arrival.csv")
        arrival_tables(verified(read(path), path))
    if rows and want("peers"):
        try:
            figure(t, points, fig_dir)
        except ImportError:
            print("(matplotlib missing: no figure; apt-get install python3-matplotlib)\n")


if __name__ == "__main__":
    report(sys.argv[1], sys.argv[2], None, sys.argv[3] if len(sys.argv) > 3 else None)
