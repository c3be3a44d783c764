/*
 * The element-wise maximum of a vector of int64 over a communicator, by
 * recursive doubling on point-to-point messages, taken one round at a
 * time so that the caller can wait on it together with a request of its
 * own (agree.c: an early star member sends its block on as soon as it
 * arrives while the agreement is still running, speculate.c).  A blocking
 * MPI_Allreduce allows nothing of the kind.  MPI_Iallreduce could be
 * waited on beside a request too, but its schedule is its library's to
 * choose; this one keeps the log2 n rounds of recursive doubling, as the
 * small allreduce it replaces.
 *
 * The rounds: with n processes, m the largest power of two <= n and
 * r = n - m, each of the first 2 r processes of even rank hands its vector
 * to the next (odd) one and sits out; the m processes left take log2 m
 * rounds of exchanging their whole vectors with the partner whose rank
 * (among them) differs in one bit, each keeping the maximum; then each
 * odd one of the first 2 r hands the result back.  The maximum is
 * associative, commutative and exact, so every process ends with the
 * same vector, whatever order the contributions met in.
 */
#ifndef IG_ALLMAX_H
#define IG_ALLMAX_H

#include <mpi.h>
#include <stdint.h>

/* A request of the caller's to wait on alongside, and what to do when it
 * completes (called once, with the completion's error code). */
typedef struct {
    MPI_Request *req; /* NULL or MPI_REQUEST_NULL: nothing to wait on */
    void (*on_complete)(void *arg, int rc);
    void *arg;
} ig_side_wait;

/* Wait until every one of reqs[0..n) has completed (the first error is
 * returned; n at most IG_BESIDE_MAX) while also waiting on *side:
 * side->on_complete runs as soon as the side's request completes, even
 * before the others do.  side may be NULL. */
enum { IG_BESIDE_MAX = 16 };
int ig_waitall_beside(int n, MPI_Request *reqs, ig_side_wait *side);

/* vec (len entries) becomes the maximum over comm's processes; scratch
 * holds len entries too.  Collective over comm, every process with the
 * same len and tag.  Returns the first error.  A process whose wait in a
 * round failed still takes part in the rest (its vector without what did
 * not arrive), so that none is left waiting; a message the MPI library
 * refuses to post at all leaves its partner waiting, as everywhere in
 * the library (README, Limitations). */
int ig_allmax(int64_t *vec, int64_t *scratch, int len, int tag, MPI_Comm comm, ig_side_wait *side);

#endif
