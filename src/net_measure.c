#include "net_measure.h"

#include "p2p.h"
#include "tags.h"

#include <stdlib.h>

/* Sizes and repetitions.  Each timing keeps the fastest repetition (the
 * burst's, burst_extra, the smallest difference): a ping-pong is only ever
 * slowed by what else the machine does.  The large
 * message is big enough that its transfer dwarfs the latency on a TCP
 * network (256 KiB take 21 ms at 100 Mbit/s, 26 us at 10 GB/s) and small
 * enough that measuring stays a fraction of a second where the link is
 * slow: the whole measurement is about 25 round trips and 4 large messages,
 * once per communicator. */
#define MEASURE_LARGE_BYTES (256 * 1024)
#define MEASURE_BURST 8
#define MEASURE_PIECE_BYTES 4096 /* a burst's messages: 8 x 4 KiB against one of 32 KiB */
#define MEASURE_ROUNDS 7
#define MEASURE_LARGE_ROUNDS 3

typedef struct {
    MPI_Comm comm;
    int peer;
    int first; /* sends first and keeps the time */
    char *buf; /* MEASURE_LARGE_BYTES */
} ping_pong;

/* One exchange: the first process sends `count` messages of `bytes` bytes,
 * all posted at once; the other receives them all, then answers one byte.
 * Both processes time it; only the first's times are used (everyone takes
 * a's numbers, ig_net_measure). */
static int exchange(const ping_pong *pp, int bytes, int count, double *seconds)
{
    MPI_Request req[MEASURE_BURST];
    int rc = MPI_SUCCESS;
    double start = PMPI_Wtime();
    for (int i = 0; i < count; i++) {
        /* A burst's receives go to disjoint pieces of the buffer. */
        char *at = pp->buf + (size_t)i * (count > 1 ? (size_t)bytes : 0);
        int irc = pp->first ? PMPI_Isend(pp->buf, bytes, MPI_BYTE, pp->peer, IG_TAG_MEASURE, pp->comm, &req[i])
                            : PMPI_Irecv(at, bytes, MPI_BYTE, pp->peer, IG_TAG_MEASURE, pp->comm, &req[i]);
        if (irc != MPI_SUCCESS) {
            req[i] = MPI_REQUEST_NULL;
            ig_err_keep(&rc, irc);
        }
    }
    if (!pp->first)
        ig_err_keep(&rc, ig_waitall(count, req));
    /* The answer goes and comes whatever failed, so the other never waits
     * for it in vain. */
    char answer = 0; /* not into buf, which the first process's sends may still read */
    ig_err_keep(&rc, pp->first ? PMPI_Recv(&answer, 1, MPI_BYTE, pp->peer, IG_TAG_MEASURE, pp->comm, MPI_STATUS_IGNORE)
                               : PMPI_Send(&answer, 1, MPI_BYTE, pp->peer, IG_TAG_MEASURE, pp->comm));
    if (pp->first)
        ig_err_keep(&rc, ig_waitall(count, req));
    *seconds = PMPI_Wtime() - start;
    return rc;
}

/* The fastest of `rounds` exchanges. */
static int fastest(const ping_pong *pp, int bytes, int count, int rounds, double *best)
{
    int rc = MPI_SUCCESS;
    for (int r = 0; r < rounds; r++) {
        double t;
        ig_err_keep(&rc, exchange(pp, bytes, count, &t));
        if (r == 0 || t < *best)
            *best = t;
    }
    return rc;
}

/* What MEASURE_BURST pieces posted at once take beyond the same bytes as
 * one message: in each round the one message, then the burst, and the
 * smallest difference of a round.  Side by side, so that whatever slows
 * the machine for a while (other processes of the job, on an
 * oversubscribed node) slows both or neither; the fastest burst less the
 * fastest single message, timed one series after the other, once measured
 * a burst 6.6 ms dearer on the emulated cluster (docs/performance.md,
 * sixty-ninth session). */
static int burst_extra(const ping_pong *pp, double *extra)
{
    int rc = MPI_SUCCESS;
    for (int r = 0; r < MEASURE_ROUNDS; r++) {
        double single, burst;
        ig_err_keep(&rc, exchange(pp, MEASURE_BURST * MEASURE_PIECE_BYTES, 1, &single));
        ig_err_keep(&rc, exchange(pp, MEASURE_PIECE_BYTES, MEASURE_BURST, &burst));
        if (r == 0 || burst - single < *extra)
            *extra = burst - single;
    }
    return rc;
}

/* Both ends first tell each other whether they have their buffer, so that
 * neither starts a measurement the other cannot take part in (this first
 * exchange also opens the connection, which a lazy transport such as Open
 * MPI's TCP does at the first message). */
static int both_ready(const ping_pong *pp, int mine, int *both)
{
    int theirs = 0;
    int rc = PMPI_Sendrecv(&mine, 1, MPI_INT, pp->peer, IG_TAG_MEASURE, &theirs, 1, MPI_INT, pp->peer,
                           IG_TAG_MEASURE, pp->comm, MPI_STATUS_IGNORE);
    *both = rc == MPI_SUCCESS && mine && theirs;
    return rc;
}

/* Processes a and b: the four timings, fitted; result[0] says whether
 * they were all taken, result[1..3] are t_s, t_w, t_o. */
static void measure_pair(MPI_Comm comm, int me, int a, int b, double result[4])
{
    ping_pong pp = { .comm = comm, .peer = me == a ? b : a, .first = me == a, .buf = calloc(1, MEASURE_LARGE_BYTES) };
    double round_trip = 0, large = 0, extra = 0;
    int both = 0;
    int rc = both_ready(&pp, pp.buf != NULL, &both);
    if (rc == MPI_SUCCESS && both) {
        double warm;
        rc = exchange(&pp, MEASURE_LARGE_BYTES, 1, &warm); /* the large path's first use is not timed */
        ig_err_keep(&rc, fastest(&pp, 1, 1, MEASURE_ROUNDS, &round_trip));
        ig_err_keep(&rc, fastest(&pp, MEASURE_LARGE_BYTES, 1, MEASURE_LARGE_ROUNDS, &large));
        ig_err_keep(&rc, burst_extra(&pp, &extra));
    }
    free(pp.buf);
    ig_cost_params c = ig_cost_fit(round_trip, large, MEASURE_LARGE_BYTES, extra, MEASURE_BURST);
    result[0] = rc == MPI_SUCCESS && both;
    result[1] = c.ts;
    result[2] = c.tw;
    result[3] = c.to;
}

int ig_net_measure(MPI_Comm comm, int a, int b, ig_cost_params *model, int *measured)
{
    int me;
    double result[4] = { 0, 0, 0, 0 };
    PMPI_Comm_rank(comm, &me);
    if (me == a || me == b)
        measure_pair(comm, me, a, b, result);
    /* Everyone takes a's numbers, whatever b's timings said; and learns
     * whether the broadcast reached all, so that no process keeps the
     * communicator's state where another fails to build it. */
    int rc = ig_err_joint(comm, PMPI_Bcast(result, 4, MPI_DOUBLE, a, comm));
    *measured = rc == MPI_SUCCESS && result[0] != 0;
    if (*measured)
        *model = (ig_cost_params){ .ts = result[1], .tw = result[2], .to = result[3],
                                   .copies_on_host = model->copies_on_host };
    return rc;
}
