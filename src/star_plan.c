#include "star_plan.h"

int ig_star_teams(int p, int q)
{
    return q / p;
}

int ig_star_sender_target(int p, int q, int sender, int n)
{
    int s = ig_star_teams(p, q);
    return ((sender + n) % s) * p + sender;
}

int ig_star_owned_block(int p, int q, int receiver)
{
    return receiver < ig_star_teams(p, q) * p ? receiver % p : -1;
}

int ig_star_team_of(int p, int q, int receiver)
{
    int s = ig_star_teams(p, q);
    return receiver < s * p ? receiver / p : (receiver - s * p) % s;
}

int ig_star_block_source(int p, int q, int receiver, int block, int *from_sender)
{
    *from_sender = ig_star_owned_block(p, q, receiver) == block;
    return *from_sender ? block : ig_star_team_of(p, q, receiver) * p + block;
}

/* The extras of team g: leftover receivers u < r with u mod s == g. */
static int team_extras(int p, int q, int g)
{
    int s = ig_star_teams(p, q), r = q - s * p;
    return g < r ? (r - 1 - g) / s + 1 : 0;
}

int ig_star_forward_count(int p, int q, int receiver)
{
    if (ig_star_owned_block(p, q, receiver) < 0)
        return 0;
    return p - 1 + team_extras(p, q, ig_star_team_of(p, q, receiver));
}

int ig_star_forward_target(int p, int q, int receiver, int n)
{
    int s = ig_star_teams(p, q), g = receiver / p, t = receiver % p;
    if (n < p - 1)
        return g * p + (t + 1 + n) % p;
    return s * p + g + (n - (p - 1)) * s; /* the team's extras, u = g, g + s, ... */
}
