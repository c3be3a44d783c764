# Open MPI's settings for this project's own runs (sourced, not run): the
# tests (tests/mpi/common.sh), the benchmarks (scripts/bench/env.sh), the
# demo, the soak run and the two memory checks (check-memory.sh,
# check-sanitized.sh) all start MPI jobs on a small machine, often as root
# in a container, with more processes than cores.  The emulated cluster
# (scripts/cluster/run.sh) sets its own on mpirun's command line.
# MPICH ignores every name here.  One place, so that a setting that stops
# working in a new Open MPI is mended once.

# Root may launch (CI runs as root in a container); the same for PRRTE's
# prterun, which Open MPI 5's launches of several application contexts use
# here (tests/mpi/common.sh, ig_openmpi_mpmd_launcher).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export PRTE_ALLOW_RUN_AS_ROOT=1 PRTE_ALLOW_RUN_AS_ROOT_CONFIRM=1

# Oversubscribed: more processes than cores may be started, and a waiting
# process yields its core instead of busy-polling it.
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=1

# The kernel's single copy (cross-memory attach) off: containers often
# forbid it, and with it on Open MPI writes past a truncated receive
# (tests/mpi/test_truncate.sh probes this).  Open MPI 4 names it in its
# shared-memory BTL; Open MPI 5 moved the single copy into a framework of
# its own (smsc) and has no such BTL parameter, so the first name alone left
# it on there; excluding the framework's component turns it off.  Each
# version ignores the other's name.
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_smsc=^cma
