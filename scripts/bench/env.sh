# Sourced by the shared-memory benchmark scripts: the project's top folder
# (made the working directory) and Open MPI's settings for running
# oversubscribed, as root, in a container.
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$top"
. scripts/openmpi-env.sh
MPIRUN=${MPIRUN:-mpirun}
