#include "opening_plan.h"

/* Tag bits above IG_OPENING_TAG_FIRST: bit 0 hard, bit 1 small, the rest
 * the expected bytes (capped: a small process's are below the cap). */
int ig_opening_tag(const ig_opening_self *self)
{
    int64_t expect = self->hard || self->expect < 0 ? 0 : self->expect;
    if (expect > IG_OPENING_MAX_BYTES)
        expect = IG_OPENING_MAX_BYTES;
    return IG_OPENING_TAG_FIRST + (int)((expect << 2) | (self->small ? 2 : 0) | (self->hard ? 1 : 0));
}

ig_opening_heard ig_opening_heard_from(int tag, int64_t got, int truncated)
{
    int bits = tag - IG_OPENING_TAG_FIRST;
    return (ig_opening_heard){ .expect = bits >> 2, .small = (bits & 2) != 0, .hard = (bits & 1) != 0,
                               .got = got, .truncated = truncated };
}

/* Both ends see the same four sizes: what each sends (the sender's own,
 * the receiver from the message) and what each expects (its own, the
 * other's from the tag, exact below the cap, which small sizes are). */
int ig_opening_pair_done(const ig_opening_self *self, const ig_opening_heard *peer)
{
    return self->small && peer->small && !peer->truncated && peer->got == self->expect &&
           peer->expect == self->send;
}

int ig_opening_verdict(const ig_opening_self *self, int own_pairs_done, int n_peers, const ig_opening_heard *peers)
{
    if (own_pairs_done > 0)
        return 0;
    for (int i = 0; i < n_peers; i++)
        if (peers[i].hard != self->hard || ig_opening_peer_leaves_early(&peers[i]))
            return 0;
    return 1;
}

int ig_opening_all_go_on(int own_verdict, int n_peers, const int64_t *peer_verdicts)
{
    if (!own_verdict)
        return 0;
    for (int i = 0; i < n_peers; i++)
        if (!peer_verdicts[i])
            return 0;
    return 1;
}
