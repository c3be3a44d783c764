/*
 * What the library's default decision picks for a half-duplex call on a
 * pair (p senders of k bytes each, q receivers), and the model's cost of
 * every candidate.  Used by scripts/simgrid/direct.sh to say whether the
 * model's choice is the fastest simulated algorithm (docs/simulation.md,
 * "Direct, fc, chain and the decision").
 *
 * It calls the library's own decision (src/decide.c, ig_decide) with the
 * shape src/api.c gives the benchmark's calls (two nodes, so the network
 * model; every block contiguous, so the chain may cut byte segments) and
 * the default settings, min_bytes 0 as in src/api.c.  Only libigplan's
 * sources are compiled in (no MPI call is made; mpi.h is needed for types).
 *
 *   decide_table [--model ts=..,tw=..,to=..] p q bytes [bytes...]
 *
 * prints one CSV row per size:
 *   p,q,bytes,choice,segment,native,fc_family,direct,chain
 * choice is root-gathering (the decision goes native), direct, fc, spread,
 * chain or relay; fc_family the model cost of fc (p <= q) or spread (p > q);
 * segment the chain's segment or the relay's part in bytes (0: whole).
 */
#define IG_ALGORITHMS_PURE /* no MPI types needed beyond intergather.h */
#include "cost_model.h"
#include "decide.h"
#include "settings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    ig_settings s;
    ig_settings_defaults(&s);
    s.min_bytes = 0;
    int a = 1;
    if (argc > 2 && strcmp(argv[1], "--model") == 0) {
        if (ig_parse_model(argv[2], &s.net_model) != 0) {
            fprintf(stderr, "decide_table: bad model '%s'\n", argv[2]);
            return 2;
        }
        a = 3;
    }
    if (argc - a < 3) {
        fprintf(stderr, "usage: decide_table [--model ts=..,tw=..,to=..] p q bytes [bytes...]\n");
        return 2;
    }
    int p = atoi(argv[a]), q = atoi(argv[a + 1]);
    const ig_cost_params *m = &s.net_model;
    printf("p,q,bytes,choice,segment,native,fc_family,direct,chain\n");
    for (int i = a + 2; i < argc; i++) {
        uint64_t k = strtoull(argv[i], NULL, 10);
        ig_shape sh = { .n = { p, q }, .reason = IG_FALLBACK_NONE, .sizes = IG_SIZES_AGREE, .nodes = 2,
                        .max_block = { k, 0 }, .total = { k * (uint64_t)p, 0 }, .scattered = 0 };
        ig_choice ch;
        ig_decide(&sh, 0, &s, &ch);
        const char *choice = "?";
        uint64_t seg = 0;
        if (ch.kind == IG_DECISION_NATIVE)
            choice = "root-gathering";
        else if (ch.kind == IG_DECISION_SERVE && ch.nsteps == 1) {
            choice = ig_algorithm_info_of(ch.steps[0].algorithm)->name;
            seg = ch.steps[0].algorithm == IG_ALG_RELAY ? ch.steps[0].relay_part_bytes : ch.steps[0].chain_segment_bytes;
        }
        double kd = (double)k;
        double fam = p > q ? ig_cost_spread_half(p, q, kd, m) : ig_cost_fc_half(p, q, kd, m);
        double cseg = ig_chain_segment(p, q, kd, 65536.0, m);
        double chain = ig_cost_chain_half(p, q, kd, cseg >= kd ? 0 : (double)(uint64_t)cseg, m);
        printf("%d,%d,%llu,%s,%llu,%.9f,%.9f,%.9f,%.9f\n", p, q, (unsigned long long)k, choice,
               (unsigned long long)seg, ig_cost_root_gathering(p, q, kd, m), fam, ig_cost_direct_half(p, q, kd, m),
               chain);
    }
    return 0;
}
