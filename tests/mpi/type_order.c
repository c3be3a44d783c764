/*
 * Datatypes whose bounds look like plain arrays but whose type maps are not
 * in memory order: two ints listed in reverse (size 8, true extent 8, like
 * two ints), and one int read twice and the next one skipped (size 12, true
 * extent 12, like three ints; legal to send from, not to receive into).
 * Moved as raw bytes (the relay's pieces, the chain's segments) or received
 * into (the join plan's extra senders), they gave other bytes than MPI
 * delivers.  And one element of many ints with the extent of one int, sent
 * with count 1: the join plan's extra senders keep p blocks one extent
 * apart, which then overlap.  Every call is compared byte for byte with
 * PMPI_Allgather.
 * usage: type_order SPLITS ELEMENTS   (test_for_each_split's SPLITS; each
 * block ELEMENTS elements of the types above)
 */
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>

static MPI_Datatype reversed, repeating, three_ints, short_extent;
static int elements;
static int calls;

static void commit_types(void)
{
    int backwards[2] = { 1, 0 }, twice[3] = { 0, 0, 2 };
    MPI_Type_create_indexed_block(2, 1, backwards, MPI_INT, &reversed);
    MPI_Type_create_indexed_block(3, 1, twice, MPI_INT, &repeating);
    MPI_Type_contiguous(3, MPI_INT, &three_ints);
    MPI_Type_commit(&reversed);
    MPI_Type_commit(&repeating);
    MPI_Type_commit(&three_ints);
    /* One element of `elements` ints with the extent of one int: sent with
     * count 1, legal; p such blocks one extent apart would overlap. */
    MPI_Datatype ints;
    MPI_Type_contiguous(elements, MPI_INT, &ints);
    MPI_Type_create_resized(ints, 0, sizeof(int), &short_extent);
    MPI_Type_commit(&short_extent);
    MPI_Type_free(&ints);
}

/* One call through the library, and the same through PMPI sending the
 * same bytes as (ref_count, ref_type): the type itself where native gets
 * it right, an equivalent plain one where it does not. */
static void compare_as(MPI_Comm inter, int scount, MPI_Datatype stype, int ref_count, MPI_Datatype ref_type,
                       int rcount, MPI_Datatype rtype, const char *what)
{
    int rsize;
    MPI_Comm_remote_size(inter, &rsize);
    test_buffers b;
    test_buffers_open(&b, test_span(stype, scount), test_span(rtype, (MPI_Aint)rcount * rsize), 7);
    MPI_Allgather(b.sbuf, scount, stype, b.got, rcount, rtype, inter);
    PMPI_Allgather(b.sbuf, ref_count, ref_type, b.expected, rcount, rtype, inter);
    test_buffers_check(&b, what);
    test_buffers_close(&b);
    calls++;
}

static void compare(MPI_Comm inter, int scount, MPI_Datatype stype, int rcount, MPI_Datatype rtype, const char *what)
{
    compare_as(inter, scount, stype, scount, stype, rcount, rtype, what);
}

/* One type signature, two layouts in one group: the first sender sends
 * its ints two by two in reverse (`reversed`), the others plain ints.  The
 * reference is what the standard defines, independent of how native MPI
 * treats mixed layouts: PMPI with every sender sending its data in
 * type-map order as plain ints (the first one's packed bytes). */
static void compare_mixed_layouts(MPI_Comm inter, int is_left, int rank, const char *split)
{
    int n = elements, rsize, first = is_left && rank == 0, bytes = 0, position = 0;
    MPI_Comm_remote_size(inter, &rsize);
    int scount = is_left ? (first ? n : 2 * n) : 0, rcount = is_left ? 0 : 2 * n;
    MPI_Datatype stype = first ? reversed : MPI_INT;
    char what[160];
    snprintf(what, sizeof what, "%s the first sender's ints reversed in pairs, the others' plain", split);
    test_buffers b;
    test_buffers_open(&b, test_span(stype, scount), test_span(MPI_INT, (MPI_Aint)rcount * rsize), 7);
    MPI_Allgather(b.sbuf, scount, stype, b.got, rcount, MPI_INT, inter);
    void *in_order = b.sbuf;
    if (first) {
        MPI_Pack_size(scount, stype, MPI_COMM_WORLD, &bytes);
        in_order = malloc((size_t)bytes);
        MPI_Pack(b.sbuf, scount, stype, in_order, bytes, &position, MPI_COMM_WORLD);
    }
    PMPI_Allgather(in_order, is_left ? 2 * n : 0, MPI_INT, b.expected, rcount, MPI_INT, inter);
    test_buffers_check(&b, what);
    if (first)
        free(in_order);
    test_buffers_close(&b);
    calls++;
}

static void run_split(MPI_Comm inter, int is_left, const char *split, void *arg)
{
    (void)arg;
    char what[160];
    int n = elements, rank, size;
    MPI_Comm_rank(inter, &rank);
    MPI_Comm_size(inter, &size);
    snprintf(what, sizeof what, "%s send reversed, receive ints", split);
    compare(inter, is_left ? n : 0, reversed, is_left ? 0 : 2 * n, MPI_INT, what);
    snprintf(what, sizeof what, "%s send ints, receive reversed", split);
    compare(inter, is_left ? 2 * n : 0, MPI_INT, is_left ? 0 : n, reversed, what);
    snprintf(what, sizeof what, "%s send an int twice, receive ints", split);
    compare(inter, is_left ? n : 0, repeating, is_left ? 0 : n, three_ints, what);
    /* One sender alone with the repeating type, its group with plain ints:
     * the join plan has extra senders receive others' blocks into their own
     * send type.  The last sender, not the first: Open MPI's root gathering
     * receives its group's blocks into the first one's send type, and with
     * this one native itself would alter them. */
    snprintf(what, sizeof what, "%s one sender's int twice, the others' ints", split);
    int odd_one = is_left && rank == size - 1;
    compare(inter, is_left ? (odd_one ? n : 3 * n) : 0, odd_one ? repeating : MPI_INT, is_left ? 0 : 3 * n, MPI_INT,
            what);
    snprintf(what, sizeof what, "%s both groups reversed", split);
    compare(inter, n, reversed, n, reversed, what);
    /* Native Open MPI 4.1 itself gets this one wrong (its root gathers the
     * blocks one send extent apart): the reference sends plain ints. */
    snprintf(what, sizeof what, "%s one block of a type shorter than its data", split);
    compare_as(inter, is_left ? 1 : 0, short_extent, is_left ? n : 0, MPI_INT, is_left ? 0 : n, MPI_INT, what);
    compare_mixed_layouts(inter, is_left, rank, split);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (argc < 3)
        TEST_FAIL("usage: type_order SPLITS ELEMENTS");
    elements = atoi(argv[2]);
    commit_types();
    test_for_each_split(argv[1], run_split, NULL);
    int rank, total = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Reduce(&calls, &total, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Type_free(&reversed);
    MPI_Type_free(&repeating);
    MPI_Type_free(&three_ints);
    MPI_Type_free(&short_extent);
    if (rank == 0)
        printf("expect served moved=%d\nPASS type_order\n", total);
    MPI_Finalize();
    return 0;
}
