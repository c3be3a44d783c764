#!/bin/bash
# The library must never call the MPI_ profiling-visible names itself (it would
# re-enter its own wrappers or show internal traffic to profilers): every
# call in src/ goes to PMPI_*.  Definitions of the wrapped entry points are
# the only MPI_Xxx( occurrences allowed.
set -eu
src="${IG_TOP_SRCDIR:-.}/src"
# Comment lines (starting with /*, * or //) may name MPI functions freely.
bad=$(grep -nE '(^|[^P_A-Za-z])MPI_[A-Z][a-z_]+[a-z0-9_]*\s*\(' "$src"/*.c \
      | grep -vE '^[^:]+:[0-9]+:\s*(/\*|\*|//)' \
      | grep -vE '^[^:]+:[0-9]+:(INTERGATHER_API |IG_EXPORT )?(int|void) +MPI_[A-Z][a-z_]+\(' \
      | grep -vE 'MPI_(Aint|Count|Comm|Datatype|Fint|Status|Request)\b' || true)
if [ -n "$bad" ]; then
    echo "calls to MPI_* (not PMPI_*) inside the library:" >&2
    echo "$bad" >&2
    exit 1
fi
echo "ok: the library calls PMPI_* only"
