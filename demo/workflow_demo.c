/*
 * intergather-demo: an ordinary MPI program (it knows nothing about
 * intergather) coupling a "simulation" group and an "analysis" group through
 * an inter-communicator.  Every iteration each simulation process publishes a
 * block of doubles to every analysis process with MPI_Allgather.
 *
 * usage: intergather-demo [-p SIM_PROCS] [-b BYTES_PER_BLOCK] [-n ITERATIONS]
 * Prints the time per call (max over processes, median over iterations) and a
 * digest of everything the analysis group received, so a run with and
 * without LD_PRELOAD=libintergather.so can be compared.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint64_t fnv1a(const unsigned char *data, size_t n, uint64_t h)
{
    for (size_t i = 0; i < n; i++) {
        h ^= data[i];
        h *= 1099511628211ULL;
    }
    return h;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int wrank, wsize, sim_procs = 0, iterations = 20, opt;
    long block_bytes = 1 << 20;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    while ((opt = getopt(argc, argv, "p:b:n:")) != -1) {
        if (opt == 'p') sim_procs = atoi(optarg);
        else if (opt == 'b') block_bytes = atol(optarg);
        else if (opt == 'n') iterations = atoi(optarg);
    }
    if (sim_procs <= 0)
        sim_procs = wsize / 2;
    if (wsize < 2 || sim_procs >= wsize || block_bytes < 8 || iterations < 1) {
        if (wrank == 0)
            fprintf(stderr, "usage: intergather-demo [-p SIM_PROCS] [-b BYTES] [-n ITERATIONS], >= 2 processes\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    int is_sim = wrank < sim_procs;
    MPI_Comm group, inter;
    MPI_Comm_split(MPI_COMM_WORLD, is_sim, wrank, &group);
    MPI_Intercomm_create(group, 0, MPI_COMM_WORLD, is_sim ? sim_procs : 0, 7, &inter);

    int count = (int)(block_bytes / sizeof(double));
    double *field = malloc((size_t)count * sizeof(double));
    double *gathered = is_sim ? NULL : malloc((size_t)count * sim_procs * sizeof(double));
    double *times = malloc((size_t)iterations * sizeof(double));
    uint64_t digest = 1469598103934665603ULL;

    for (int it = 0; it < iterations; it++) {
        for (int i = 0; i < count; i++)
            field[i] = wrank + 1e-6 * i + it;
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        /* Half duplex: the simulation publishes, the analysis receives. */
        MPI_Allgather(field, is_sim ? count : 0, MPI_DOUBLE, gathered, is_sim ? 0 : count, MPI_DOUBLE, inter);
        double dt = MPI_Wtime() - t0;
        MPI_Allreduce(&dt, &times[it], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (!is_sim)
            digest = fnv1a((const unsigned char *)gathered, (size_t)count * sim_procs * sizeof(double), digest);
    }

    /* One digest for the whole analysis group, in rank order. */
    uint64_t *digests = wrank == 0 ? malloc((size_t)wsize * sizeof(uint64_t)) : NULL;
    MPI_Gather(&digest, 1, MPI_UINT64_T, digests, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    if (wrank == 0) {
        uint64_t all = fnv1a((const unsigned char *)(digests + sim_procs),
                             (size_t)(wsize - sim_procs) * sizeof(uint64_t), 1469598103934665603ULL);
        qsort(times, (size_t)iterations, sizeof(double), compare_doubles);
        printf("simulation=%d analysis=%d block=%ld bytes iterations=%d median=%.3f ms min=%.3f ms "
               "digest=%016llx\n",
               sim_procs, wsize - sim_procs, block_bytes, iterations, 1e3 * times[iterations / 2], 1e3 * times[0],
               (unsigned long long)all);
        free(digests);
    }
    free(field);
    free(gathered);
    free(times);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&group);
    MPI_Finalize();
    return 0;
}
