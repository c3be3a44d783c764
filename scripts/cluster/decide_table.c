/*
 * decide_table: what intergather's decision (src/decide.c, the library's
 * own code, linked from src/.libs/libigplan.a) chooses for uniform
 * MPI_Allgather calls, and what its cost model says each candidate costs.
 * No MPI.  For cluster_report.py and run.sh (which model parameters would
 * pick the fastest algorithm measured on the emulated cluster).
 *
 * build: mpicc -std=c11 -O2 -I include -I src scripts/cluster/decide_table.c src/.libs/libigplan.a -lm -o decide_table
 * usage: decide_table < LINES
 *   each input line: TS TW TO P Q BYTES half|full [NODES]
 *   (the network model ts, tw, to in seconds, seconds per byte, seconds per
 *   message; p senders / group 0, q receivers / group 1; NODES default p + q)
 *   each output line: P Q BYTES DUPLEX CHOICE COST_NATIVE COST_DIRECT COST_FC COST_FD
 *   CHOICE: native, direct, fc, spread, relay, star, full-duplex, A+B for two
 *   passes, or other;
 *   costs in seconds (COST_FC: the fc family's half-duplex plan, both
 *   directions summed in full duplex; COST_FD: the full-duplex algorithm,
 *   "-" in half duplex).
 */
#define IG_ALGORITHMS_PURE
#include "cost_model.h"
#include "decide.h"

#include <stdio.h>
#include <string.h>

static const char *name_of(ig_algorithm a) { return ig_algorithm_info_of(a)->name; }

int main(void)
{
    char line[512], duplex[16];
    double ts, tw, to;
    int p, q, nodes;
    unsigned long long bytes;
    while (fgets(line, sizeof line, stdin) != NULL) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        int n = sscanf(line, "%lf %lf %lf %d %d %llu %15s %d", &ts, &tw, &to, &p, &q, &bytes, duplex, &nodes);
        if (n < 7 || p < 1 || q < 1) {
            fprintf(stderr, "decide_table: bad line: %s", line);
            return 2;
        }
        if (n < 8)
            nodes = p + q;
        int full = strcmp(duplex, "full") == 0;
        ig_settings s;
        ig_settings_defaults(&s);
        s.net_model = (ig_cost_params){ ts, tw, to };
        ig_shape sh = { .n = { p, q }, .reason = IG_FALLBACK_NONE, .sizes = IG_SIZES_AGREE, .nodes = nodes,
                        .max_block = { bytes, full ? bytes : 0 },
                        .total = { bytes * (unsigned long long)p, full ? bytes * (unsigned long long)q : 0 } };
        ig_choice c;
        ig_decide(&sh, 0, &s, &c);
        char choice[64] = "native";
        if (c.kind == IG_DECISION_SERVE && c.nsteps == 1)
            snprintf(choice, sizeof choice, "%s", name_of(c.steps[0].algorithm));
        else if (c.kind == IG_DECISION_SERVE && c.nsteps == 2)
            snprintf(choice, sizeof choice, "%s+%s", name_of(c.steps[0].algorithm), name_of(c.steps[1].algorithm));
        else if (c.kind != IG_DECISION_NATIVE)
            snprintf(choice, sizeof choice, "other");
        const ig_cost_params *m = nodes <= 1 ? &s.shm_model : &s.net_model;
        double k = (double)bytes;
        if (!full) {
            double fc = p > q ? ig_cost_spread_half(p, q, k, m) : ig_cost_fc_half(p, q, k, m);
            printf("%d %d %llu half %s %.6g %.6g %.6g -\n", p, q, bytes, choice, ig_cost_root_gathering(p, q, k, m),
                   ig_cost_direct_half(p, q, k, m), fc);
        } else {
            double f0 = p > q ? ig_cost_spread_half(p, q, k, m) : ig_cost_fc_half(p, q, k, m);
            double f1 = q > p ? ig_cost_spread_half(q, p, k, m) : ig_cost_fc_half(q, p, k, m);
            printf("%d %d %llu full %s %.6g %.6g %.6g %.6g\n", p, q, bytes, choice,
                   ig_cost_root_gathering_full(p, k, q, k, m), ig_cost_direct_full(p, k, q, k, m), f0 + f1,
                   ig_cost_fd(p, k, q, k, m));
        }
    }
    return 0;
}
