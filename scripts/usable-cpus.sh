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

cpus=$(nproc)

# The quota of this process's own cgroup, then of the cgroup namespace's
# root (inside a container the two are often one file); "max" or -1: none.
quota_cpus() { # QUOTA PERIOD
    case $1 in max|-1|'') return 1 ;; esac
    [ "$2" -gt 0 ] 2>/dev/null || return 1
    echo $(( ($1 + $2 - 1) / $2 ))
}
limit=""
own=$(sed -n 's/^0:://p' /proc/self/cgroup 2>/dev/null || true)
for f in "/sys/fs/cgroup$own/cpu.max" /sys/fs/cgroup/cpu.max; do # cgroup v2
    if [ -r "$f" ]; then
        read -r quota period <"$f" || continue
        limit=$(quota_cpus "$quota" "$period") && break
    fi
done
if [ -z "$limit" ]; then # cgroup v1: the cpu controller's line, e.g. "4:cpu,cpuacct:/path"
    own=$(awk -F: '$2 ~ /(^|,)cpu(,|$)/ { print $3; exit }' /proc/self/cgroup 2>/dev/null || true)
    for d in "/sys/fs/cgroup/cpu$own" "/sys/fs/cgroup/cpu,cpuacct$own" /sys/fs/cgroup/cpu /sys/fs/cgroup/cpu,cpuacct; do
        if [ -r "$d/cpu.cfs_quota_us" ] && [ -r "$d/cpu.cfs_period_us" ]; then
            limit=$(quota_cpus "$(cat "$d/cpu.cfs_quota_us")" "$(cat "$d/cpu.cfs_period_us")") && break
        fi
    done
fi

if [ -n "$limit" ] && [ "$limit" -lt "$cpus" ]; then cpus=$limit; fi
[ "$cpus" -ge 1 ] || cpus=1
echo "$cpus"
