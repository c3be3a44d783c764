/*
 * The split-stream ring schedule (IG_RING_OPTIMAL): p + floor(q/2) steps
 * for every p, q >= 1, one send and one receive per process and step, no
 * dummy process.  That is optimal for odd q and for p = 1 and one step
 * above the exact minimum max(p + ceil(q/2) - 1, floor(q/2) + 1) for even
 * q >= 2, p >= 2 (found by SAT for p, q <= 14).  Not in the paper.
 * Steps are 0-based in the interface, 1-based (u) inside.
 */
#include "ring_schedule_internal.h"

/* ============================================================================
 * IG_RING_OPTIMAL: the split-stream schedule
 * ============================================================================
 *
 * T = p + floor(q/2).  Receiver R_k is rank p + k.  This part uses the
 * 1-based step u = step + 1, which keeps the formulas short.
 *
 * Receiver R_k takes m_0..m_{theta_k - 1} from the counter-clockwise "W"
 * stream and the rest from the clockwise "C" stream, where
 *     theta_k = clamp(k + p - T, 0, p) = clamp(k - floor(q/2), 0, p),
 * so the nearer half of the receivers gets everything from the C stream and
 * the farther ones take a growing prefix from the W stream.
 * W = theta_{q-1} messages travel on the W stream.
 *
 * C stream: the senders form a pipeline.  Sender i sends m_{i-u+1} to i+1 at
 *   steps u = 1..i+1 (its own m_i first, then m_{i-1}, ..., m_0, each
 *   received from i-1 one step earlier).  So sender p-1 emits m_{p-1}, ...,
 *   m_0 into R_0 at steps 1..p.  R_k receives m_{p-s} at step s + k and
 *   forwards it to R_{k+1} at step s + k + 1 while R_{k+1} still wants it
 *   from this stream (s <= p - theta_{k+1}).
 * W stream: m_j (j < W) leaves sender j at step j + 2 to the left and moves
 *   one hop per step: sender i (i < j) receives it at step 2j - i + 1 and
 *   sends it on at 2j - i + 2; after sender 0 it wraps to R_{q-1}, and R_k
 *   receives it at step 2j + q + 1 - k while j < theta_k.
 * No conflicts: a sender's C phase (steps <= i+1) precedes its W phase
 * (steps >= i+2, alternating receive / send).  A receiver's W receives all
 * happen at steps <= k, its C receives at steps k+1..k+p-theta_k.
 * Every relay on a sender is forwarded in the very next step, so two relay
 * slots chosen by the parity of the arrival step suffice.
 */

typedef struct {
    int p, q, n;
    int half_q; /* floor(q/2) */
    int w;      /* messages on the W stream: theta_{q-1} */
} split_geom;

static split_geom split_make(int p, int q)
{
    split_geom g = { p, q, p + q, q / 2, 0 };
    g.w = clamp(q - 1 - g.half_q, 0, p);
    return g;
}

static int split_theta(const split_geom *g, int k)
{
    return clamp(k - g->half_q, 0, g->p);
}

static int split_steps_of(int p, int q)
{
    return p + q / 2;
}

static void split_sender_ops(const split_geom *g, int i, int u, op_list *snd, op_list *rcv)
{
    int j;
    /* C stream: own message at u = 1, then the message received at u - 1. */
    if (u <= i + 1)
        push_op(snd, mod_n(i + 1, g->n), i - u + 1);
    if (u <= i)
        push_op(rcv, i - 1, i - u);
    /* W stream: send m_j at u = 2j - i + 2 (j >= i), receive it at 2j - i + 1 (j > i). */
    if (u >= i + 2 && even_half(u + i - 2, &j) && j < g->w)
        push_op(snd, mod_n(i - 1, g->n), j);
    if (u >= i + 3 && even_half(u + i - 1, &j) && j < g->w)
        push_op(rcv, i + 1, j);
}

static void split_receiver_ops(const split_geom *g, int r, int u, op_list *snd, op_list *rcv)
{
    int k = r - g->p, j;
    int s = u - k; /* C stream: R_k receives m_{p-s} at step s + k */
    if (s >= 1 && s <= g->p - split_theta(g, k))
        push_op(rcv, r - 1, g->p - s);
    s = u - k - 1; /* ... and forwards it to R_{k+1} one step later */
    if (k < g->q - 1 && s >= 1 && s <= g->p - split_theta(g, k + 1))
        push_op(snd, r + 1, g->p - s);
    /* W stream: R_k receives m_j at step 2j + q + 1 - k (from sender 0 if k = q-1) */
    if (even_half(u - g->q - 1 + k, &j) && j >= 0 && j < split_theta(g, k))
        push_op(rcv, mod_n(r + 1, g->n), j);
    /* ... and forwards it to R_{k-1} one step later if R_{k-1} takes it from W */
    if (k >= 1 && even_half(u - g->q - 2 + k, &j) && j >= 0 && j < split_theta(g, k - 1))
        push_op(snd, r - 1, j);
}

/* Step (0-based) in which sender i receives m (m != i), or NEVER. */
static int split_sender_arrival(const split_geom *g, int i, int m)
{
    if (m < i)
        return i - m - 1;   /* C stream: 1-based step i - m */
    if (m < g->w)
        return 2 * m - i;   /* W stream: 1-based step 2m - i + 1 */
    return NEVER;
}

int ig_split_stream_steps(int p, int q)
{
    return split_steps_of(p, q);
}

void ig_split_stream_ops(int p, int q, int rank, int step, op_list *snd, op_list *rcv)
{
    split_geom g = split_make(p, q);
    if (rank < p)
        split_sender_ops(&g, rank, step + 1, snd, rcv);
    else
        split_receiver_ops(&g, rank, step + 1, snd, rcv);
}

int ig_split_stream_sender_arrival(int p, int q, int rank, int msg)
{
    split_geom g = split_make(p, q);
    return split_sender_arrival(&g, rank, msg);
}
