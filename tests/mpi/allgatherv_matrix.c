/*
 * Inter-communicator MPI_Allgatherv compared byte for byte with
 * PMPI_Allgatherv on the same communicator: half duplex both ways and full
 * duplex; per-process counts including zeros; displacements in reverse
 * (non-monotonic) order with gaps that must stay untouched; MPI_INT and a
 * resized struct with a non-zero lower bound; and receivers of one group
 * whose receive types differ in size (contiguous runs of 1, 2, 5 or 10
 * ints: legal, only signatures must match), which MPICH 4.0.2's own
 * intra-communicator MPI_Allgatherv gets wrong (src/settings.h), with
 * senders whose send types differ in size too (which native Open MPI 4.1
 * gets wrong: run_mixed_units); and an MPI_Allgather whose receivers'
 * types differ in extent.
 * usage: allgatherv_matrix SPLITS [SCALE [units|same-send-units|layouts]]
 *   SPLITS    "P+Q,P+Q,..." or LEFT, as allgather_matrix
 *   SCALE     the largest case's scale (default 50000)
 *   units     only the cases of receive types that differ in size
 *   layouts   the counts and displacements of the main cases with two more
 *             types instead: a double 8 bytes past its element's start
 *             (contiguous, data from true_lb 8) and an int resized to an
 *             extent of 8 (contiguous in a block of one, not of more; sent
 *             as MPI_INT), where the byte-range algorithms (the relay)
 *             must start at the data and must not take a receive block of
 *             several for contiguous
 *   same-send-units  every sender sends MPI_INT in those cases (for runs
 *             in which the calls go to native Open MPI 4.1, which gets
 *             senders whose types differ in size wrong: run_mixed_units)
 * A call that does not return in TEST_CALL_SECONDS ends the process with a
 * HANG line naming the case (testlib.h).
 */
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    MPI_Comm inter;
    const char *split;
    int is_left, local_size, remote_size, local_rank, scale, units_only, same_send_units, layouts;
    long moved, full, empty, allgathers; /* allgathers: MPI_Allgather calls among the moved */
} ctx;

/* Elements sent by process `rank` of a group when the call's scale is
 * `scale`: every third process sends nothing, the others differ. */
static int count_of(int rank, int scale)
{
    return rank % 3 == 1 ? 0 : scale * (rank + 1) / 2 + rank;
}

static int group_sends(int size, int scale)
{
    for (int r = 0; r < size && scale > 0; r++)
        if (count_of(r, scale) > 0)
            return 1;
    return 0;
}

/* Reverse order with gaps: block remote_size-1 first, two elements apart. */
static int layout(int n, int scale, int *counts, int *displs)
{
    int cursor = 3;
    for (int i = n - 1; i >= 0; i--) {
        counts[i] = count_of(i, scale);
        displs[i] = cursor;
        cursor += counts[i] + 2;
    }
    return cursor;
}

/* What the summary must count for one call of these scales: a group
 * "sends" when some process of it has a non-zero count. */
static void count_call(ctx *c, int left_scale, int right_scale)
{
    int left_size = c->is_left ? c->local_size : c->remote_size;
    int right_size = c->is_left ? c->remote_size : c->local_size;
    int left_sends = group_sends(left_size, left_scale), right_sends = group_sends(right_size, right_scale);
    c->moved += left_sends || right_sends;
    c->full += left_sends && right_sends;
    c->empty += !left_sends && !right_sends;
}

/* One call: blocks sent as `stype`, received as `type` (the same
 * signature, named `name`; `seed` varies the data). */
static void run_case_of(ctx *c, MPI_Datatype stype, MPI_Datatype type, const char *name, int seed, int left_scale,
                        int right_scale)
{
    int my_scale = c->is_left ? left_scale : right_scale, remote_scale = c->is_left ? right_scale : left_scale;
    int scount = my_scale > 0 ? count_of(c->local_rank, my_scale) : 0;
    int *counts = calloc((size_t)c->remote_size, sizeof(int)), *displs = calloc((size_t)c->remote_size, sizeof(int));
    int span = 0;
    if (remote_scale > 0)
        span = layout(c->remote_size, remote_scale, counts, displs);
    size_t sspan = test_span(stype, scount), rspan = test_span(type, span) + 64;
    int wrank;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    test_buffers b;
    test_buffers_open(&b, sspan, rspan, (unsigned)(wrank * 977 + scount + seed));
    char what[160];
    snprintf(what, sizeof what, "%s: allgatherv left scale %d right scale %d %s", c->split, left_scale, right_scale,
             name);
    test_watch_call("allgatherv_matrix world rank %d: %s", wrank, what);
    if (PMPI_Allgatherv(b.sbuf, scount, stype, b.expected, counts, displs, type, c->inter) != MPI_SUCCESS)
        TEST_FAIL("native PMPI_Allgatherv failed");
    if (MPI_Allgatherv(b.sbuf, scount, stype, b.got, counts, displs, type, c->inter) != MPI_SUCCESS)
        TEST_FAIL("MPI_Allgatherv failed");
    test_watch_done();
    test_buffers_check(&b, what);
    test_buffers_close(&b);
    count_call(c, left_scale, right_scale);
    free(counts);
    free(displs);
}

/* Every scale pair of the main cases with one send and one receive type. */
static void run_scales(ctx *c, MPI_Datatype stype, MPI_Datatype type, const char *name, int seed)
{
    const int scales[] = { 1, 7, c->scale };
    for (int k = 0; k < 3; k++) {
        run_case_of(c, stype, type, name, seed, scales[k], 0);
        run_case_of(c, stype, type, name, seed, 0, scales[k]);
        run_case_of(c, stype, type, name, seed, scales[k], scales[(k + 1) % 3]);
    }
    run_case_of(c, stype, type, name, seed, 0, 0);
}

/* Receivers whose receive types differ in size: a process of local rank r
 * receives in runs of unit(r) ints, in blocks of 10 m ints (every unit
 * divides them).  Reverse order, one unit apart.  Senders differ too: a
 * process of local rank r sends in runs of unit(r + 1) ints.  Native Open
 * MPI 4.1.4 gets senders whose types differ in size wrong
 * (MPI_ERR_TRUNCATE, then a hang: its root sizes every member's part with
 * its own send type), so the native reference sends the same ints as
 * MPI_INT: the same type signature, so the same result. */
static int unit_of(int rank)
{
    static const int units[] = { 1, 2, 5, 10 };
    return units[rank % 4];
}

static void run_mixed_units(ctx *c, int left_scale, int right_scale)
{
    int my_scale = c->is_left ? left_scale : right_scale, remote_scale = c->is_left ? right_scale : left_scale;
    int unit = unit_of(c->local_rank), scount = 10 * (my_scale > 0 ? count_of(c->local_rank, my_scale) : 0);
    int send_unit = c->same_send_units ? 1 : unit_of(c->local_rank + 1);
    MPI_Datatype run, send_run;
    MPI_Type_contiguous(unit, MPI_INT, &run);
    MPI_Type_commit(&run);
    MPI_Type_contiguous(send_unit, MPI_INT, &send_run);
    MPI_Type_commit(&send_run);
    int *counts = calloc((size_t)c->remote_size, sizeof(int)), *displs = calloc((size_t)c->remote_size, sizeof(int));
    int cursor = 1; /* in units */
    for (int i = c->remote_size - 1; remote_scale > 0 && i >= 0; i--) {
        counts[i] = 10 * count_of(i, remote_scale) / unit;
        displs[i] = cursor;
        cursor += counts[i] + 1;
    }
    int wrank;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    test_buffers b;
    test_buffers_open(&b, (size_t)scount * sizeof(int) + 1, (size_t)cursor * (size_t)unit * sizeof(int) + 64,
                      (unsigned)(wrank * 977 + scount + 11));
    char what[160];
    snprintf(what, sizeof what, "%s: allgatherv left scale %d right scale %d, send units of %d, receive units of %d ints",
             c->split, left_scale, right_scale, send_unit, unit);
    test_watch_call("allgatherv_matrix world rank %d: %s", wrank, what);
    if (PMPI_Allgatherv(b.sbuf, scount, MPI_INT, b.expected, counts, displs, run, c->inter) != MPI_SUCCESS)
        TEST_FAIL("native PMPI_Allgatherv failed (receive units)");
    int rc = MPI_Allgatherv(b.sbuf, scount / send_unit, send_run, b.got, counts, displs, run, c->inter);
    if (rc != MPI_SUCCESS) {
        char text[MPI_MAX_ERROR_STRING];
        int len = 0;
        MPI_Error_string(rc, text, &len);
        TEST_FAIL("%s: MPI_Allgatherv with send units of %d and receive units of %d ints failed: %s", c->split,
                  send_unit, unit, text);
    }
    test_watch_done();
    test_buffers_check(&b, what);
    test_buffers_close(&b);
    count_call(c, left_scale, right_scale);
    free(counts);
    free(displs);
    MPI_Type_free(&run);
    MPI_Type_free(&send_run);
}

/* MPI_Allgather whose receivers' types differ in extent: every other
 * receiver takes each int into 8 bytes (MPI_INT resized), so the blocks'
 * extents differ between members while their signatures match.  Blocks of
 * `count` ints, compared with native like the other cases. */
static void run_mixed_extents(ctx *c, int count)
{
    MPI_Datatype wide, rtype = MPI_INT;
    MPI_Type_create_resized(MPI_INT, 0, 8, &wide);
    MPI_Type_commit(&wide);
    if (c->local_rank % 2 == 1)
        rtype = wide;
    int scount = c->is_left ? count : 0, rcount = c->is_left ? 0 : count;
    int wrank;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    test_buffers b;
    test_buffers_open(&b, (size_t)scount * sizeof(int) + 1, (size_t)c->remote_size * (size_t)rcount * 8 + 64,
                      (unsigned)(wrank * 977 + count + 13));
    char what[160];
    snprintf(what, sizeof what, "%s: allgather of %d ints, receive extent %d bytes per int", c->split, count,
             rtype == wide ? 8 : 4);
    test_watch_call("allgatherv_matrix world rank %d: %s", wrank, what);
    if (PMPI_Allgather(b.sbuf, scount, MPI_INT, b.expected, rcount, rtype, c->inter) != MPI_SUCCESS)
        TEST_FAIL("native PMPI_Allgather failed (receive extents)");
    if (MPI_Allgather(b.sbuf, scount, MPI_INT, b.got, rcount, rtype, c->inter) != MPI_SUCCESS)
        TEST_FAIL("%s: MPI_Allgather with receive extents of 4 and 8 bytes per int failed", c->split);
    test_watch_done();
    test_buffers_check(&b, what);
    test_buffers_close(&b);
    c->moved += count > 0;
    c->allgathers += count > 0;
    MPI_Type_free(&wide);
}

/* Every case on one split. */
static void run_split(MPI_Comm inter, int is_left, const char *split, void *arg)
{
    ctx *c = arg;
    c->inter = inter;
    c->is_left = is_left;
    c->split = split;
    MPI_Comm_size(inter, &c->local_size);
    MPI_Comm_remote_size(inter, &c->remote_size);
    MPI_Comm_rank(inter, &c->local_rank);
    if (c->layouts) {
        MPI_Datatype spaced;
        MPI_Type_create_resized(MPI_INT, 0, 8, &spaced);
        MPI_Type_commit(&spaced);
        MPI_Datatype shifted = test_type(TEST_SHIFTED_DOUBLE);
        run_scales(c, shifted, shifted, test_type_name(TEST_SHIFTED_DOUBLE), TEST_SHIFTED_DOUBLE);
        /* Sent as plain ints: only the receivers' layout has gaps, so
         * only their own view of it can keep the relay off. */
        run_scales(c, MPI_INT, spaced, "MPI_INT received as resized(INT, extent 8)", TEST_NTYPES);
        MPI_Type_free(&spaced);
        return;
    }
    const int types[] = { TEST_INT, TEST_STRUCT_LB };
    for (int t = 0; t < 2 && !c->units_only; t++)
        run_scales(c, test_type(types[t]), test_type(types[t]), test_type_name(types[t]), types[t]);
    /* Blocks of 4 to 20 KB (the group stage left to MPI by default: under
     * 64 KiB per member) and of 40 to 200 KB. */
    run_mixed_units(c, 200, 0);
    run_mixed_units(c, 200, 200);
    run_mixed_units(c, 2000, 2000);
    run_mixed_extents(c, 4096);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (argc < 2)
        TEST_FAIL("usage: allgatherv_matrix SPLITS [SCALE [units|same-send-units|layouts]]");
    const char *mode = argc > 3 ? argv[3] : "";
    ctx c = { .scale = argc > 2 ? atoi(argv[2]) : 50000, .units_only = strcmp(mode, "units") == 0,
              .same_send_units = strcmp(mode, "same-send-units") == 0, .layouts = strcmp(mode, "layouts") == 0 };
    test_for_each_split(argv[1], run_split, &c);
    /* World rank 0 takes part in every split: its counts are the run's. */
    int wrank;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    if (wrank == 0)
        printf("expect served moved=%ld full=%ld empty=%ld allgathers=%ld\nPASS allgatherv_matrix\n", c.moved, c.full,
               c.empty, c.allgathers);
    MPI_Finalize();
    return 0;
}
