#!/bin/bash
# scripts/usable-cpus.sh (the job count of setup-debian.sh, test-all.sh,
# test-mpich.sh and check-sanitized.sh) on fake cgroup trees: the quota of
# this process's cgroup or of any ancestor caps nproc, under cgroup v2 and
# v1, inside a container whose mount is its own cgroup, and without any.
set -eu
script=${IG_TOP_SRCDIR:-.}/scripts/usable-cpus.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

# case NAME NPROC EXPECTED PROC_CGROUP_LINES FILE=CONTENT...
case_() {
    local name=$1 nproc=$2 expected=$3 lines=$4
    shift 4
    local root="$tmp/$name"
    mkdir -p "$root/fs"
    printf '%b\n' "$lines" >"$root/cgroup"
    for spec in "$@"; do
        mkdir -p "$(dirname "$root/fs/${spec%%=*}")"
        echo "${spec#*=}" >"$root/fs/${spec%%=*}"
    done
    local got
    got=$(IG_NPROC=$nproc IG_CGROUP_FS="$root/fs" IG_PROC_CGROUP="$root/cgroup" bash "$script")
    if [ "$got" = "$expected" ]; then
        echo "ok $name: $got"
    else
        echo "FAIL $name: printed $got, expected $expected" >&2
        failures=$((failures + 1))
    fi
}

case_ v2-own 8 2 '0::/a/b' 'a/b/cpu.max=150000 100000' 'a/cpu.max=max 100000'
case_ v2-parent 8 1 '0::/a/b' 'a/b/cpu.max=max 100000' 'a/cpu.max=50000 100000'
case_ v2-smallest-wins 8 2 '0::/a/b/c' 'a/b/c/cpu.max=600000 100000' 'a/b/cpu.max=200000 100000' \
    'a/cpu.max=400000 100000'
case_ v2-namespace-root 8 2 '0::/' 'cpu.max=200000 100000'
case_ v2-no-quota 8 8 '0::/a' 'a/cpu.max=max 100000' 'cpu.max=max 100000'
case_ v2-quota-above-nproc 2 2 '0::/a' 'a/cpu.max=400000 100000'
case_ v2-rounds-up 8 3 '0::/a' 'a/cpu.max=250000 100000'
case_ v1-own 8 3 '4:cpu,cpuacct:/job/step' 'cpu,cpuacct/job/step/cpu.cfs_quota_us=300000' \
    'cpu,cpuacct/job/step/cpu.cfs_period_us=100000'
case_ v1-parent 8 1 '4:cpuacct,cpu:/job/step' 'cpu/job/step/cpu.cfs_quota_us=-1' \
    'cpu/job/step/cpu.cfs_period_us=100000' 'cpu/job/cpu.cfs_quota_us=50000' 'cpu/job/cpu.cfs_period_us=100000'
case_ v1-container-mount 8 2 '4:cpu,cpuacct:/docker/0123abcd\n3:memory:/docker/0123abcd' \
    'cpu,cpuacct/cpu.cfs_quota_us=200000' 'cpu,cpuacct/cpu.cfs_period_us=100000'
case_ v1-no-quota 8 8 '4:cpu,cpuacct:/' 'cpu,cpuacct/cpu.cfs_quota_us=-1' 'cpu,cpuacct/cpu.cfs_period_us=100000'
case_ no-cgroup-files 6 6 '0::/a'
case_ hybrid-v1-binds 8 2 '0::/user.slice\n4:cpu,cpuacct:/user.slice' 'user.slice/cpu.max=max 100000' \
    'cpu,cpuacct/user.slice/cpu.cfs_quota_us=200000' 'cpu,cpuacct/user.slice/cpu.cfs_period_us=100000'

# And on this machine: a number from 1 to nproc.
real=$(bash "$script")
if [ "$real" -ge 1 ] 2>/dev/null && [ "$real" -le "$(nproc)" ]; then
    echo "ok this machine: $real of $(nproc)"
else
    echo "FAIL this machine: printed '$real' (nproc $(nproc))" >&2
    failures=$((failures + 1))
fi
[ "$failures" -eq 0 ]
