/*
 * The agreement's maximum by recursive doubling (src/allmax.c), built in
 * (the library hides its symbols), against MPI_Allreduce(MPI_MAX):
 * communicators of every size from 1 to the world's (powers of two and
 * the rest, where the first processes hand their vectors on and get the
 * result back), vectors of 1 to 45 entries with negative and large
 * values, many calls in a row on one tag.  And what it waits on beside:
 * a request that completes before the maximum does has its callback run
 * exactly once, with its error code, before ig_allmax returns (an early
 * star member sends its block on from there, src/speculate.c); one that
 * cannot complete before (its message is sent only after the maximum)
 * is left alone.
 *
 * Usage: allmax         (prints "PASS allmax")
 */
#include "allmax.h"
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>

enum { MAX_LEN = 45, TAG = 6, SIDE_TAG = 99 };

static int64_t entry(int rank, int i, int call)
{
    uint64_t h = (uint64_t)(rank + 1) * 0x9E3779B97F4A7C15ull ^ (uint64_t)(i + 7) * 0xC2B2AE3D27D4EB4Full ^
                 (uint64_t)(call + 3) * 0x165667B19E3779F9ull;
    h ^= h >> 29;
    return (int64_t)(h * 0xBF58476D1CE4E5B9ull);
}

typedef struct {
    int calls, rc;
} side_seen;

static void on_side(void *arg, int rc)
{
    side_seen *seen = arg;
    seen->calls++;
    seen->rc = rc;
}

/* One maximum of len entries on comm, checked against MPI_Allreduce. */
static void check_one(MPI_Comm comm, int len, int call, ig_side_wait *side)
{
    int64_t vec[MAX_LEN], scratch[MAX_LEN], want[MAX_LEN];
    int rank;
    MPI_Comm_rank(comm, &rank);
    for (int i = 0; i < len; i++)
        vec[i] = entry(rank, i, call);
    MPI_Allreduce(vec, want, len, MPI_INT64_T, MPI_MAX, comm);
    int rc = ig_allmax(vec, scratch, len, TAG, comm, side);
    if (rc != MPI_SUCCESS)
        TEST_FAIL("ig_allmax returned %d (len %d, call %d)", rc, len, call);
    for (int i = 0; i < len; i++)
        if (vec[i] != want[i])
            TEST_FAIL("rank %d, len %d, call %d, entry %d: %lld, expected %lld", rank, len,
                      call, i, (long long)vec[i], (long long)want[i]);
}

/* A side that completes first: a message this process sent itself. */
static void check_side_first(MPI_Comm comm)
{
    int rank, size, out, in = -1;
    side_seen seen = { 0, -1 };
    MPI_Request send, recv;
    MPI_Comm_rank(comm, &rank);
    out = 1000 + rank;
    MPI_Isend(&out, 1, MPI_INT, rank, SIDE_TAG, comm, &send);
    MPI_Irecv(&in, 1, MPI_INT, rank, SIDE_TAG, comm, &recv);
    ig_side_wait side = { &recv, on_side, &seen };
    check_one(comm, 9, 1, &side);
    MPI_Comm_size(comm, &size);
    if (size == 1) { /* nothing to wait for: the side is not looked at */
        if (seen.calls != 0)
            TEST_FAIL("one process: %d callbacks", seen.calls);
        MPI_Wait(&recv, MPI_STATUS_IGNORE);
        seen = (side_seen){ 1, MPI_SUCCESS };
    }
    if (seen.calls != 1 || seen.rc != MPI_SUCCESS || recv != MPI_REQUEST_NULL || in != out)
        TEST_FAIL("side that completes first: %d callbacks, rc %d, request %s, got %d of %d",
                  seen.calls, seen.rc, recv == MPI_REQUEST_NULL ? "done" : "pending", in, out);
    MPI_Wait(&send, MPI_STATUS_IGNORE);
}

/* A side that cannot complete during the maximum: the next process sends
 * its message only after a barrier that every maximum returned before. */
static void check_side_later(MPI_Comm comm)
{
    int rank, size, out, in = -1;
    side_seen seen = { 0, -1 };
    MPI_Request recv;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    out = 2000 + rank;
    MPI_Irecv(&in, 1, MPI_INT, (rank + 1) % size, SIDE_TAG, comm, &recv);
    ig_side_wait side = { &recv, on_side, &seen };
    /* With a single process the message comes from itself, after too. */
    check_one(comm, 9, 2, &side);
    if (seen.calls != 0 || recv == MPI_REQUEST_NULL)
        TEST_FAIL("side that cannot complete: %d callbacks, request %s", seen.calls,
                  recv == MPI_REQUEST_NULL ? "done" : "pending");
    MPI_Barrier(comm);
    MPI_Send(&out, 1, MPI_INT, (rank + size - 1) % size, SIDE_TAG, comm);
    MPI_Wait(&recv, MPI_STATUS_IGNORE);
    if (in != 2000 + (rank + 1) % size)
        TEST_FAIL("side that cannot complete: got %d", in);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int n = 1; n <= size; n++) {
        MPI_Comm comm;
        MPI_Comm_split(MPI_COMM_WORLD, rank < n ? 0 : MPI_UNDEFINED, rank, &comm);
        if (comm == MPI_COMM_NULL)
            continue;
        MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
        static const int lens[] = { 1, 2, 13, MAX_LEN };
        for (int call = 0; call < 24; call++)
            check_one(comm, lens[call % 4], call, call % 3 == 0 ? NULL : &(ig_side_wait){ NULL, on_side, NULL });
        check_side_first(comm);
        check_side_later(comm);
        MPI_Comm_free(&comm);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("PASS allmax (communicators of 1 to %d processes)\n", size);
    MPI_Finalize();
    return 0;
}
