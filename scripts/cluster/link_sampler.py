#!/usr/bin/python3
"""Sample every switch port's byte counters of the emulated cluster.

Runs inside the switch namespace (scripts/cluster/linkrates.sh starts it
there): port pI is node I's link; its rx bytes are what node I sent (its
uplink), its tx bytes what node I received (its downlink, after the
port's htb shaper).  Writes one CSV line per port and sample,

    t_s,node,up_bytes,down_bytes

t_s on the monotonic clock, until SIGTERM or SIGINT.  Reading 2 N small
files every INTERVAL seconds costs well under a percent of one core at
the default 10 ms (measured against the link check, docs/performance.md).

    link_sampler.py NODES OUT.csv [INTERVAL_S]
"""
import os
import signal
import sys
import time


def main():
    nodes, out = int(sys.argv[1]), sys.argv[2]
    interval = float(sys.argv[3]) if len(sys.argv) > 3 else 0.01
    paths = [(f"/sys/class/net/p{i}/statistics/rx_bytes", f"/sys/class/net/p{i}/statistics/tx_bytes")
             for i in range(nodes)]
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    # os.pread at offset 0: a sysfs attribute is regenerated on every read
    # from its start.
    files = [(os.open(up, os.O_RDONLY), os.open(down, os.O_RDONLY)) for up, down in paths]
    with open(out, "w") as f:
        f.write("t_s,node,up_bytes,down_bytes\n")
        next_t = time.monotonic()
        while not stop:
            t = time.monotonic()
            for i, (up, down) in enumerate(files):
                f.write(f"{t:.6f},{i},{int(os.pread(up, 32, 0))},{int(os.pread(down, 32, 0))}\n")
            next_t += interval
            time.sleep(max(0.0, next_t - time.monotonic()))


if __name__ == "__main__":
    main()
