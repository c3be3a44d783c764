#!/usr/bin/env python3
"""Platforms and hostfiles for the Figure 4 simulation (SimGrid 3.32 SMPI).

  platforms.py --out DIR            write every platform and hostfile below
  platforms.py --out DIR --print    also list what was written

Written files (all parameters are the defaults of the options below):

  cori_df.xml        Cori-like Cray XC40 Aries dragonfly for the fully
                     connected panels: 4 groups x 6 chassis x 16 routers x 4
                     nodes = 1536 hosts, minimal routing, full-duplex 8 GB/s
                     links with 0.25 us per hop (rank-1 "green" 1 link per
                     router pair, rank-2 "black" 3, rank-3 "blue" 2).
  ring256.xml        1-D torus (bidirectional ring) of 256 nodes: ring
                     panels with 1 process per node (p + q = 256).
  ring128.xml        1-D torus of 128 nodes: ring panels with 8 processes
                     per node (p + q = 1024).
  xbar256.xml        flat crossbar of 256 nodes (each node's own up/down
                     link, no shared network links): only for the
                     sensitivity check in docs/simulation.md.
  hosts-256x1.txt    256 ranks, 1 per node, nodes 0..255 (block order).
  hosts-1024x8.txt   1024 ranks, 8 per node on nodes 0..127 (block order:
                     ranks 8i..8i+7 on node i).

Rank order is ring order (senders 0..p-1, then receivers), so on the ring
platforms ring neighbours are network neighbours (or the same node), which
is the paper's "ring topological constraint".  Intra-node traffic uses the
node's loopback (FATPIPE, 12 GB/s, 0.3 us): no memory contention.
SMPI's calibrated latency/bandwidth factors are neutralised (0:1) so that a
message of k bytes costs exactly hops * lat + k / bw on an idle path.
"""
import argparse
import os
import sys

HEAD = """<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <config>
    <prop id="smpi/lat-factor" value="{latf}"/>
    <prop id="smpi/bw-factor" value="{bwf}"/>
  </config>
"""
TAIL = "</platform>\n"


def link_attrs(a):
    return (f'speed="{a.speed}" bw="{a.bw}" lat="{a.lat}" sharing_policy="{a.sharing}" '
            f'loopback_bw="{a.loopback_bw}" loopback_lat="{a.loopback_lat}"')


def dragonfly(a):
    if a.groups > a.blades:
        sys.exit("platforms.py: SimGrid 3.32 needs dragonfly groups <= routers per chassis")
    n = a.groups * a.chassis * a.blades * a.nodes_per_blade
    topo = f"{a.groups},{a.blue};{a.chassis},{a.black};{a.blades},{a.green};{a.nodes_per_blade}"
    return (HEAD.format(latf=a.lat_factor, bwf=a.bw_factor)
            + f"  <!-- Cori-like dragonfly: {a.groups} groups x {a.chassis} chassis x {a.blades} routers"
              f" x {a.nodes_per_blade} nodes = {n} hosts; host id -> (group, chassis, router, node) row-major -->\n"
            + f'  <cluster id="cori" topology="DRAGONFLY" topo_parameters="{topo}" prefix="{a.prefix}" '
              f'radical="0-{n - 1}" suffix="" {link_attrs(a)}/>\n'
            + TAIL), n


def ring(a, nodes):
    return (HEAD.format(latf=a.lat_factor, bwf=a.bw_factor)
            + f"  <!-- bidirectional ring of {nodes} nodes (1-D torus): node i is linked to i-1 and i+1 mod {nodes};"
              f" other pairs route the short way round and share links -->\n"
            + f'  <cluster id="ring" topology="TORUS" topo_parameters="{nodes}" prefix="{a.prefix}" '
              f'radical="0-{nodes - 1}" suffix="" {link_attrs(a)}/>\n'
            + TAIL)


def crossbar(a, nodes):
    return (HEAD.format(latf=a.lat_factor, bwf=a.bw_factor)
            + f"  <!-- flat crossbar of {nodes} nodes: contention only on each node's own links -->\n"
            + f'  <cluster id="xbar" prefix="{a.prefix}" radical="0-{nodes - 1}" suffix="" {link_attrs(a)}/>\n'
            + TAIL)


def hostfile(prefix, nodes, ppn):
    # Block order: ranks ppn*i .. ppn*i+ppn-1 on node i.
    return "".join(f"{prefix}{i}\n" for i in range(nodes) for _ in range(ppn))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="directory to write into (created)")
    ap.add_argument("--print", action="store_true", help="list the files written")
    ap.add_argument("--groups", type=int, default=4)
    ap.add_argument("--chassis", type=int, default=6)
    ap.add_argument("--blades", type=int, default=16, help="routers per chassis")
    ap.add_argument("--nodes-per-blade", type=int, default=4)
    ap.add_argument("--green", type=int, default=1)
    ap.add_argument("--black", type=int, default=3)
    ap.add_argument("--blue", type=int, default=2)
    ap.add_argument("--bw", default="8GBps", help="every network link, including node injection")
    ap.add_argument("--lat", default="0.25us", help="per link (per hop)")
    ap.add_argument("--sharing", default="SPLITDUPLEX", choices=["SPLITDUPLEX", "SHARED", "FATPIPE"])
    ap.add_argument("--loopback-bw", default="12GBps")
    ap.add_argument("--loopback-lat", default="0.3us")
    ap.add_argument("--lat-factor", default="0:1")
    ap.add_argument("--bw-factor", default="0:1")
    ap.add_argument("--speed", default="1Gf")
    ap.add_argument("--prefix", default="node-")
    a = ap.parse_args()

    os.makedirs(a.out, exist_ok=True)
    df, df_hosts = dragonfly(a)
    files = {
        "cori_df.xml": df,
        "ring256.xml": ring(a, 256),
        "ring128.xml": ring(a, 128),
        "xbar256.xml": crossbar(a, 256),
        "hosts-256x1.txt": hostfile(a.prefix, 256, 1),
        "hosts-1024x8.txt": hostfile(a.prefix, 128, 8),
    }
    assert df_hosts >= 256, "dragonfly too small for the hostfiles"
    for name, text in files.items():
        with open(os.path.join(a.out, name), "w") as f:
            f.write(text)
        if a.print:
            print(os.path.join(a.out, name))


if __name__ == "__main__":
    main()
