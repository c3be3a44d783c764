/*
 * A user's wildcard receive posted on the inter-communicator before an
 * intercepted MPI_Allgather must match the user's own message, never an
 * internal one.  The right group posts MPI_Irecv(MPI_ANY_SOURCE,
 * MPI_ANY_TAG) on the inter-communicator, then both groups run the
 * collective (left group sending), then the left group sends the user
 * messages.  Repeated with the roles of the wildcard on both groups.
 */
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT 100000
#define USER_TAG 4242

static void round_trip(MPI_Comm inter, int is_left, int wildcard_on_left, int iteration)
{
    int lrank, rsize;
    MPI_Comm_rank(inter, &lrank);
    MPI_Comm_remote_size(inter, &rsize);
    int user_msg[2] = { -1, -1 };
    MPI_Request req = MPI_REQUEST_NULL;
    int posts_wildcard = is_left == wildcard_on_left;
    if (posts_wildcard)
        MPI_Irecv(user_msg, 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, inter, &req);

    int sending = is_left; /* left group sends in the collective */
    int *sbuf = malloc(COUNT * sizeof(int)), *rbuf = malloc((size_t)COUNT * rsize * sizeof(int));
    int *ref = malloc((size_t)COUNT * rsize * sizeof(int));
    for (int i = 0; i < COUNT; i++)
        sbuf[i] = lrank * 1000003 + i + iteration;
    memset(rbuf, 0, (size_t)COUNT * rsize * sizeof(int));
    memset(ref, 0, (size_t)COUNT * rsize * sizeof(int));
    MPI_Allgather(sbuf, sending ? COUNT : 0, MPI_INT, rbuf, sending ? 0 : COUNT, MPI_INT, inter);
    PMPI_Allgather(sbuf, sending ? COUNT : 0, MPI_INT, ref, sending ? 0 : COUNT, MPI_INT, inter);
    if (!sending && memcmp(rbuf, ref, (size_t)COUNT * rsize * sizeof(int)) != 0)
        TEST_FAIL("collective result differs from native");

    /* Remote rank 0 of the other group sends the user message to every
     * process of the wildcard group. */
    if (!posts_wildcard && lrank == 0) {
        int msg[2] = { 777, iteration };
        for (int r = 0; r < rsize; r++)
            MPI_Send(msg, 2, MPI_INT, r, USER_TAG, inter);
    }
    if (posts_wildcard) {
        MPI_Status st;
        MPI_Wait(&req, &st);
        if (user_msg[0] != 777 || user_msg[1] != iteration || st.MPI_TAG != USER_TAG || st.MPI_SOURCE != 0)
            TEST_FAIL("wildcard receive matched something else: {%d,%d} tag %d source %d", user_msg[0], user_msg[1],
                      st.MPI_TAG, st.MPI_SOURCE);
    }
    free(sbuf);
    free(rbuf);
    free(ref);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int is_left, wrank, size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm inter = test_intercomm(argc > 1 ? atoi(argv[1]) : size / 2, &is_left);
    for (int it = 0; it < 20; it++)
        round_trip(inter, is_left, it % 2, it);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    if (wrank == 0)
        printf("expect served moved=20\nPASS wildcard_traffic\n");
    MPI_Comm_free(&inter);
    MPI_Finalize();
    return 0;
}
