# Sourced by the shared-memory benchmark scripts: the project's top folder
# (made the working directory) and Open MPI's settings for running
# oversubscribed, as root, in a container.
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$top"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_mpi_yield_when_idle=1
# The kernel's single copy off (tests/mpi/common.sh): Open MPI 4's name, 5's.
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_smsc=^cma
MPIRUN=${MPIRUN:-mpirun}
