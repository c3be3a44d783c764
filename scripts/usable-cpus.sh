#!/bin/bash
# Prints how many CPUs this machine lets the build and the tests use: the
# CPUs `nproc` sees (the affinity mask), capped by the cgroup's CPU quota,
# rounded up.  A container started with `docker run --cpus=2` on a
# 64-core host sees 64 CPUs but gets the time of 2: `make -j64 check` there
# would start every MPI test at once, hundreds of processes on 2 CPUs, and
# their launches would reach their time limits.  The scripts that run make
# -j (setup-debian.sh, test-all.sh, test-mpich.sh, check-sanitized.sh) take
# their job count from here.
set -eu

cpus=${IG_NPROC:-$(nproc)}

# Where to read: the real files, unless a test points elsewhere
# (tests/test_usable_cpus.sh builds fake cgroup trees).
cgroup_fs=${IG_CGROUP_FS:-/sys/fs/cgroup}
proc_cgroup=${IG_PROC_CGROUP:-/proc/self/cgroup}

# CPUs a quota of QUOTA per PERIOD microseconds gives, rounded up;
# "max" or -1: no quota.
quota_cpus() { # QUOTA PERIOD
    case $1 in max|-1|'') return 1 ;; esac
    [ "$1" -gt 0 ] 2>/dev/null && [ "$2" -gt 0 ] 2>/dev/null || return 1
    echo $(( ($1 + $2 - 1) / $2 ))
}
limit=""
keep_smaller() { # CPUS
    if [ -z "$limit" ] || [ "$1" -lt "$limit" ]; then limit=$1; fi
}
# The cgroup path P and every ancestor of it, P first, "/" last: a quota
# set on a parent (a systemd slice, a job's cgroup above its steps) binds
# too.
ancestors() { # P
    local p=${1%/}
    while [ -n "$p" ]; do
        echo "$p"
        p=${p%/*}
    done
    echo /
}
# cgroup v2: cpu.max ("QUOTA PERIOD") along this process's own path and,
# inside a container whose cgroup namespace root is its own cgroup, at the
# mount's root.
own=$(sed -n 's/^0:://p' "$proc_cgroup" 2>/dev/null || true)
for p in $( [ -n "$own" ] && ancestors "$own"); do
    f="$cgroup_fs${p%/}/cpu.max"
    if [ -r "$f" ] && read -r quota period <"$f" && n=$(quota_cpus "$quota" "$period"); then keep_smaller "$n"; fi
done
# cgroup v1: the cpu controller's line, e.g. "4:cpu,cpuacct:/path"; its
# hierarchy mounted as cpu or cpu,cpuacct.  Inside a container the mount
# is often the container's own cgroup while the line names the host's
# path: that path does not exist there and the mount's root is read.
own=$(awk -F: '$2 ~ /(^|,)cpu(,|$)/ { print $3; exit }' "$proc_cgroup" 2>/dev/null || true)
if [ -n "$own" ]; then
    for mount in "$cgroup_fs/cpu" "$cgroup_fs/cpu,cpuacct"; do
        for p in $(ancestors "$own"); do
            d="$mount${p%/}"
            if [ -r "$d/cpu.cfs_quota_us" ] && [ -r "$d/cpu.cfs_period_us" ] &&
                n=$(quota_cpus "$(cat "$d/cpu.cfs_quota_us")" "$(cat "$d/cpu.cfs_period_us")"); then
                keep_smaller "$n"
            fi
        done
    done
fi

if [ -n "$limit" ] && [ "$limit" -lt "$cpus" ]; then cpus=$limit; fi
[ "$cpus" -ge 1 ] || cpus=1
echo "$cpus"
