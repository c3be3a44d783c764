/*
 * A program that links intergather directly, built against the installed
 * intergather.pc by tests/install/check_installed.sh: the fully connected
 * and ring algorithms of include/intergather.h on MPI_COMM_WORLD (the first
 * half of the ranks send, the rest receive), checked element by element.
 */
#include <intergather.h>

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, bad = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int p = size / 2, count = 5000;
    ig_pair *pair;
    if (size < 2 || ig_pair_create(MPI_COMM_WORLD, p, &pair) != MPI_SUCCESS) {
        fprintf(stderr, "pc_program: ig_pair_create failed\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int *block = malloc(sizeof(int) * count), *all = malloc(sizeof(int) * count * p);
    for (int i = 0; i < count; i++)
        block[i] = rank * 100000 + i;
    for (int algo = 0; algo < 2; algo++) {
        for (int i = 0; i < count * p; i++)
            all[i] = -1;
        int sender = rank < p, rc;
        if (algo == 0)
            rc = ig_pair_allgather_fc(pair, block, sender ? count : 0, MPI_INT, all, sender ? 0 : count, MPI_INT);
        else
            rc = ig_pair_allgather_ring(pair, IG_RING_OPTIMAL, block, sender ? count : 0, MPI_INT, all,
                                        sender ? 0 : count, MPI_INT);
        if (rc != MPI_SUCCESS)
            bad++;
        if (!sender)
            for (int s = 0; s < p; s++)
                for (int i = 0; i < count; i++)
                    bad += all[s * count + i] != s * 100000 + i;
    }
    ig_pair_free(&pair);
    int total = 0;
    MPI_Reduce(&bad, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        if (total == 0)
            printf("PASS pc_program (%d senders, %d receivers)\n", p, size - p);
        else
            printf("FAIL pc_program: %d wrong elements\n", total);
    }
    free(block);
    free(all);
    MPI_Finalize();
    return 0;
}
