/*
 * linkcheck: every emulated node's uplink and downlink carries its rate.
 * usage: linkcheck BYTES REPS   (an even number of processes, one per node)
 * Two phases: ranks i < n/2 send BYTES to i + n/2, then the reverse, all
 * pairs at once, so every link is loaded in both directions once.  Each
 * receiver times its own receive (after a barrier); the median over REPS per
 * directed pair is reported in Mbit/s, one line per pair:
 *   link SRC->DST MBIT
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (argc != 3 || n % 2 != 0) {
        if (rank == 0)
            fprintf(stderr, "usage: linkcheck BYTES REPS (even number of processes)\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int bytes = atoi(argv[1]), reps = atoi(argv[2]), half = n / 2;
    char *buf = calloc((size_t)bytes, 1);
    double *t = malloc((size_t)reps * sizeof *t), rate[2] = { 0, 0 };
    int peer = rank < half ? rank + half : rank - half;
    for (int phase = 0; phase < 2; phase++) {
        int sender = (phase == 0) == (rank < half);
        for (int r = -1; r < reps; r++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            if (sender)
                MPI_Send(buf, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
            else
                MPI_Recv(buf, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (r >= 0)
                t[r] = MPI_Wtime() - t0;
        }
        qsort(t, (size_t)reps, sizeof *t, cmp);
        rate[phase] = sender ? 0 : 8.0 * bytes / t[reps / 2] / 1e6;
    }
    double *all = rank == 0 ? malloc(2 * (size_t)n * sizeof *all) : NULL;
    MPI_Gather(rate, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        for (int phase = 0; phase < 2; phase++)
            for (int dst = 0; dst < n; dst++)
                if (all[2 * dst + phase] > 0)
                    printf("link %d->%d %.1f\n", dst < half ? dst + half : dst - half, dst, all[2 * dst + phase]);
        free(all);
    }
    free(buf);
    free(t);
    MPI_Finalize();
    return 0;
}
