/*
 * A minimal MPI program for tests/mpich/test_foreign_mpi.sh: MPI_Init_thread
 * (which intergather intercepts) and a world allreduce, then MPI_Finalize.
 * Prints "PASS foreign_hello" from rank 0 if the sum is right.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int provided, rank, size, sum = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf(sum == size * (size - 1) / 2 ? "PASS foreign_hello\n" : "FAIL foreign_hello: sum %d\n", sum);
    MPI_Finalize();
    return 0;
}
