/*
 * linkcheck: every emulated node's uplink and downlink carries its rate.
 * usage: linkcheck BYTES REPS   (an even number of processes, one per node)
 * Two phases: ranks i < n/2 send BYTES to i + n/2, then the reverse, all
 * pairs at once, so every link is loaded in both directions once.  Each
 * receiver times its own receive (after a barrier); the median over REPS per
 * directed pair is reported in Mbit/s, one line per pair:
 *   link SRC->DST MBIT
 * A third phase loads every link in both directions at once: each rank sends
 * BYTES to rank + 1 and receives from rank - 1 (a ring shift, n flows).  It
 * shows what the machine, not the emulated network, lets all links carry
 * together (16 ranks' TCP stacks share the host's cores), the ceiling of any
 * algorithm that keeps every link busy:
 *   all SRC->DST MBIT
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
    char *out = calloc((size_t)bytes, 1);
    double *t = malloc((size_t)reps * sizeof *t), rate[3] = { 0, 0, 0 };
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
    int right = (rank + 1) % n, left = (rank + n - 1) % n;
    for (int r = -1; r < reps; r++) {
        MPI_Request req[2];
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        MPI_Irecv(buf, bytes, MPI_BYTE, left, 1, MPI_COMM_WORLD, &req[0]);
        MPI_Isend(out, bytes, MPI_BYTE, right, 1, MPI_COMM_WORLD, &req[1]);
        MPI_Wait(&req[0], MPI_STATUS_IGNORE);
        if (r >= 0)
            t[r] = MPI_Wtime() - t0;
        MPI_Wait(&req[1], MPI_STATUS_IGNORE);
    }
    qsort(t, (size_t)reps, sizeof *t, cmp);
    rate[2] = 8.0 * bytes / t[reps / 2] / 1e6;
    double *all = rank == 0 ? malloc(3 * (size_t)n * sizeof *all) : NULL;
    MPI_Gather(rate, 3, MPI_DOUBLE, all, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        for (int phase = 0; phase < 2; phase++)
            for (int dst = 0; dst < n; dst++)
                if (all[3 * dst + phase] > 0)
                    printf("link %d->%d %.1f\n", dst < half ? dst + half : dst - half, dst, all[3 * dst + phase]);
        for (int dst = 0; dst < n; dst++)
            printf("all %d->%d %.1f\n", (dst + n - 1) % n, dst, all[3 * dst + 2]);
        free(all);
    }
    free(out);
    free(buf);
    free(t);
    MPI_Finalize();
    return 0;
}
