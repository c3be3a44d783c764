/*
 * The ring schedules' public interface (ring_schedule.h): argument checks,
 * then the schedule named by ig_ring_kind (ring_split_stream.c,
 * ring_paper.c).  Pure C, no MPI, O(1) per call.
 */
#include "ring_schedule_internal.h"


static int valid_sizes(ig_ring_kind s, int p, int q)
{
    return p >= 1 && q >= 1 && (s == IG_RING_OPTIMAL || s == IG_RING_PAPER);
}

int ig_ring_steps(ig_ring_kind s, int p, int q)
{
    if (!valid_sizes(s, p, q))
        return 0;
    return s == IG_RING_OPTIMAL ? ig_split_stream_steps(p, q) : ig_paper_steps(p, q);
}

void ig_ring_ops(ig_ring_kind s, int p, int q, int rank, int step,
                 ig_ring_op sends[IG_RING_MAX_OPS], int *nsends,
                 ig_ring_op recvs[IG_RING_MAX_OPS], int *nrecvs)
{
    op_list snd = { sends, 0 }, rcv = { recvs, 0 };
    if (valid_sizes(s, p, q) && rank >= 0 && rank < p + q && step >= 0 &&
        step < ig_ring_steps(s, p, q)) {
        if (s == IG_RING_OPTIMAL)
            ig_split_stream_ops(p, q, rank, step, &snd, &rcv);
        else
            ig_paper_ops(p, q, rank, step, &snd, &rcv);
    }
    *nsends = snd.n;
    *nrecvs = rcv.n;
}

int ig_ring_sender_slots(ig_ring_kind s, int p, int q)
{
    /* Both schedules forward every relayed message in the step after it
     * arrives (or never), senders never host a dummy, and a sender receives
     * at most one message per step; so at any time a sender holds at most
     * the message it is forwarding now and the one arriving now. */
    return valid_sizes(s, p, q) ? 2 : 0;
}

int ig_ring_slot(ig_ring_kind s, int p, int q, int rank, int msg)
{
    if (!valid_sizes(s, p, q) || rank < 0 || rank >= p || msg < 0 || msg >= p || msg == rank)
        return -1;
    int arrival = s == IG_RING_OPTIMAL ? ig_split_stream_sender_arrival(p, q, rank, msg)
                                        : ig_paper_sender_arrival(p, q, rank, msg);
    return arrival == NEVER ? 0 : arrival & 1;
}
