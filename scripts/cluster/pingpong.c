/*
 * pingpong: the emulated network's cost-model parameters as MPI sees them.
 * usage: pingpong REPS   (2 or more processes, one per node)
 *   pingpong BYTES T      world ranks 0 and 1: half the round trip of a
 *                         BYTES message, median over REPS (fewer for large
 *                         messages): ts from 1 byte, tw from the slope
 *   fanout M T            rank 0 exchanges 1 byte with ranks 1..M at once
 *                         (all receives, then all sends posted, one wait):
 *                         the slope over M is the per-message cost to
 *   allreduce N T         MPI_Allreduce(MAX) of 12 int64 over all N
 *                         processes (what intergather's agreement step
 *                         does on every call), median over REPS
 *   barrier N T           MPI_Barrier over all N processes
 * T in seconds.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, cmp);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    int reps = argc > 1 ? atoi(argv[1]) : 50;
    if (n < 2 || reps < 1) {
        if (rank == 0)
            fprintf(stderr, "usage: pingpong REPS (2 or more processes)\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    double *t = malloc((size_t)reps * sizeof *t);
    const int sizes[] = { 1, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304 };
    char *buf = calloc(4194304, 1);
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int bytes = sizes[s], r_n = bytes >= 1048576 ? (reps < 5 ? reps : 5) : reps;
        for (int r = -1; r < r_n; r++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            if (rank == 0) {
                MPI_Send(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
                MPI_Recv(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (rank == 1) {
                MPI_Recv(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
            }
            if (r >= 0)
                t[r] = (MPI_Wtime() - t0) / 2;
        }
        if (rank == 0)
            printf("pingpong %d %.9f\n", bytes, median(t, r_n));
    }
    MPI_Request *req = malloc(2 * (size_t)n * sizeof *req);
    char *one = calloc((size_t)n, 1);
    for (int m = 1; m < n; m++) {
        for (int r = -1; r < reps; r++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            if (rank == 0) {
                for (int i = 1; i <= m; i++)
                    MPI_Irecv(one + i, 1, MPI_BYTE, i, 1, MPI_COMM_WORLD, &req[i - 1]);
                for (int i = 1; i <= m; i++)
                    MPI_Isend(one, 1, MPI_BYTE, i, 1, MPI_COMM_WORLD, &req[m + i - 1]);
                MPI_Waitall(2 * m, req, MPI_STATUSES_IGNORE);
            } else if (rank <= m) {
                MPI_Recv(one, 1, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(one, 1, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
            }
            if (r >= 0)
                t[r] = MPI_Wtime() - t0;
        }
        if (rank == 0)
            printf("fanout %d %.9f\n", m, median(t, reps));
    }
    int64_t v[12] = { 0 }, w[12];
    for (int r = -1; r < reps; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        MPI_Allreduce(v, w, 12, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
        double e = MPI_Wtime() - t0, mx;
        MPI_Allreduce(&e, &mx, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (r >= 0)
            t[r] = mx;
    }
    if (rank == 0)
        printf("allreduce %d %.9f\n", n, median(t, reps));
    for (int r = -1; r < reps; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        MPI_Barrier(MPI_COMM_WORLD);
        double e = MPI_Wtime() - t0, mx;
        MPI_Allreduce(&e, &mx, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (r >= 0)
            t[r] = mx;
    }
    if (rank == 0)
        printf("barrier %d %.9f\n", n, median(t, reps));
    free(t);
    free(buf);
    free(req);
    free(one);
    MPI_Finalize();
    return 0;
}
