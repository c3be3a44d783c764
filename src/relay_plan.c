#include "relay_plan.h"

#include <limits.h>

static int first_owner(int p, int q, int sender)
{
    return (int)((long long)sender * q / p);
}

int ig_relay_owner_at(int p, int q, int sender, int t)
{
    return (first_owner(p, q, sender) + t) % q;
}

int ig_relay_member_place(int p, int q, int d, int sender, int r)
{
    int t = ((r - first_owner(p, q, sender)) % q + q) % q;
    return t < d ? t : -1;
}

int ig_relay_most_memberships(int p, int q, int d)
{
    return (int)(((long long)p * d + q - 1) / q);
}

/* Loads as fractions num / den of a block's bytes K; a < b exactly. */
typedef struct {
    long long num, den;
} load;

static int lighter(load a, load b)
{
    return a.num * b.den < b.num * a.den;
}

static load heavier_of(load a, load b)
{
    return lighter(a, b) ? b : a;
}

int ig_relay_members_for(int p, int q)
{
    /* Loads below p q and denominators below q: their cross products fit
     * 64 bits while p q does 31. */
    if (p >= q || (long long)p * q > INT_MAX)
        return 0;
    load best = heavier_of((load){ 1, 1 }, (load){ (long long)p * (q - 1), q });
    int members = 0;
    for (int d = 1; d <= p && d < q; d++) {
        load sender = { d, 1 }, member = { (long long)ig_relay_most_memberships(p, q, d) * (q - d), d };
        load busiest = heavier_of(sender, member);
        if (lighter(busiest, best)) {
            best = busiest;
            members = d;
        }
    }
    return members;
}
