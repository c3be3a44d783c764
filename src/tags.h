/* Message tags on intergather's private communicators (never on a user's:
 * no user receive can match them, wildcards included). */
#ifndef IG_TAGS_H
#define IG_TAGS_H

enum {
    IG_TAG_DIRECT = 1,     /* a sender's block straight to a receiver */
    IG_TAG_LOCAL_COPY = 2, /* a block copied to oneself */
    IG_TAG_RING = 4,       /* ring schedule steps, and the chain's receiver ring */
    IG_TAG_GATHER = 5,     /* intergather's own intra-group allgather stage */
    IG_TAG_AGREE = 6,      /* a process's view of a call, straight to every other (agree.c) */
    IG_TAG_MEASURE = 7,    /* the ping-pong that measures a communicator's network (net_measure.c) */
    IG_TAG_BCAST = 8,      /* fc's broadcast stage where blocks are not bytes in order (algo_fc.c) */
    IG_TAG_STAR = 9,       /* the star's blocks, from senders and from team members (algo_star.c) */
    /* The relay's relays of block b: IG_TAG_RELAY_FIRST + b (algo_relay.c;
     * also the pieces of b its sender sends a member besides its own),
     * so at most IG_TAG_UB_MIN - IG_TAG_RELAY_FIRST + 1 senders (decide.c). */
    IG_TAG_RELAY_FIRST = 16,
    IG_TAG_UB_MIN = 32767 /* the least MPI_TAG_UB the standard allows */
};

#endif
