/*
 * The network model the library's default (INTERGATHER_NET_MODEL=measure)
 * would measure on a simulated platform: the library's own measurement,
 * src/net_measure.c's ig_net_measure, between world rank 0 and world rank
 * PEER (the first process on another node, as the library picks on a
 * communicator: 1 with one process per node, 8 with eight), run under
 * SMPI.  The simulation's benchmark cannot run the library's default
 * itself (SMPI has no inter-communicators, so it calls the algorithms
 * through the pair API); scripts/simgrid/direct.sh replays the decision
 * with this model to say what the default picks (docs/simulation.md).
 *
 *   smpirun -np N ... measure_model PEER
 *
 * Rank 0 prints one line: ts=<s>,tw=<s/byte>,to=<s> (the format of
 * INTERGATHER_NET_MODEL), or "unmeasured" with exit status 1.
 */
#include "net_measure.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank = 0, size = 0, measured = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int peer = argc > 1 ? atoi(argv[1]) : 1;
    if (peer <= 0 || peer >= size) {
        if (rank == 0)
            fprintf(stderr, "measure_model: PEER must be 1..%d\n", size - 1);
        MPI_Finalize();
        return 2;
    }
    ig_cost_params model = { 0, 0, 0, 0 };
    int rc = ig_net_measure(MPI_COMM_WORLD, 0, peer, &model, &measured);
    if (rank == 0) {
        if (rc == MPI_SUCCESS && measured)
            printf("ts=%.6g,tw=%.6g,to=%.6g\n", model.ts, model.tw, model.to);
        else
            printf("unmeasured\n");
    }
    MPI_Finalize();
    return rc == MPI_SUCCESS && measured ? 0 : 1;
}
