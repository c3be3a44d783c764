/*
 * src/type_order.c's answer for a table of datatypes, each with the answer
 * its type map gives (in order: every element at or after the end of the
 * one before).  Linked with the library's source file, as the library
 * itself is not linked to test programs.  usage: type_order_map (1 process)
 */
#include "../../src/type_order.h"
#include "testlib.h"

#include <stdio.h>

typedef struct {
    const char *name;
    MPI_Datatype type;
    int in_order;
} case_t;

static MPI_Datatype committed(MPI_Datatype t)
{
    MPI_Type_commit(&t);
    return t;
}

static MPI_Datatype indexed_block(int n, const int *displs, MPI_Datatype old)
{
    MPI_Datatype t;
    MPI_Type_create_indexed_block(n, 1, displs, old, &t);
    return committed(t);
}

static MPI_Datatype vector(int count, int blocklen, int stride, MPI_Datatype old)
{
    MPI_Datatype t;
    MPI_Type_vector(count, blocklen, stride, old, &t);
    return committed(t);
}

static MPI_Datatype hvector(int count, int blocklen, MPI_Aint stride_bytes, MPI_Datatype old)
{
    MPI_Datatype t;
    MPI_Type_create_hvector(count, blocklen, stride_bytes, old, &t);
    return committed(t);
}

static MPI_Datatype two_ints_at(MPI_Aint first, MPI_Aint second)
{
    MPI_Datatype t, types[2] = { MPI_INT, MPI_INT };
    int lens[2] = { 1, 1 };
    MPI_Aint displs[2] = { first, second };
    MPI_Type_create_struct(2, lens, displs, types, &t);
    return committed(t);
}

static MPI_Datatype resized(MPI_Datatype old, MPI_Aint lb, MPI_Aint extent)
{
    MPI_Datatype t;
    MPI_Type_create_resized(old, lb, extent, &t);
    return committed(t);
}

static MPI_Datatype contiguous(int n, MPI_Datatype old)
{
    MPI_Datatype t;
    MPI_Type_contiguous(n, old, &t);
    return committed(t);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    const int backwards[2] = { 1, 0 }, twice[3] = { 0, 0, 2 }, gapped[2] = { 0, 2 };
    MPI_Datatype reversed = indexed_block(2, backwards, MPI_INT);
    MPI_Datatype pair = two_ints_at(0, 4), half_int_apart = resized(MPI_INT, 0, 2), f90_real, f90_integer, dup;
    /* Predefined, though not MPI_COMBINER_NAMED: decoding a type built on
     * one must not free it (MPI aborts the program). */
    MPI_Type_create_f90_real(6, 30, &f90_real);
    MPI_Type_create_f90_integer(9, &f90_integer);
    MPI_Type_dup(f90_integer, &dup);
    case_t cases[] = {
        { "MPI_INT", MPI_INT, 1 },
        { "MPI_SHORT_INT (a pair, a gap inside)", MPI_SHORT_INT, 1 },
        { "indexed_block {0,2}", indexed_block(2, gapped, MPI_INT), 1 },
        { "indexed_block {1,0}", reversed, 0 },
        { "indexed_block {0,0,2}", indexed_block(3, twice, MPI_INT), 0 },
        { "vector(2,1,2,INT)", vector(2, 1, 2, MPI_INT), 1 },
        { "vector(3,2,2,INT) (back to back)", vector(3, 2, 2, MPI_INT), 1 },
        { "vector(2,2,1,INT) (blocks overlap)", vector(2, 2, 1, MPI_INT), 0 },
        { "vector(2,1,-1,INT) (downwards)", vector(2, 1, -1, MPI_INT), 0 },
        { "hvector(3,1,8 bytes,INT)", hvector(3, 1, 8, MPI_INT), 1 },
        { "hvector(2,2,4 bytes,INT) (blocks overlap)", hvector(2, 2, 4, MPI_INT), 0 },
        { "hvector(2,1,-4 bytes,INT) (downwards)", hvector(2, 1, -4, MPI_INT), 0 },
        { "struct {int@0, int@4}", pair, 1 },
        { "struct {int@4, int@0}", two_ints_at(4, 0), 0 },
        { "struct {int@0, int@2} (overlap)", two_ints_at(0, 2), 0 },
        { "contiguous(3, struct {int@0, int@4})", contiguous(3, pair), 1 },
        { "contiguous(2, indexed_block {1,0})", contiguous(2, reversed), 0 },
        { "contiguous(2, resized(INT, 0, 2)) (elements overlap)", contiguous(2, half_int_apart), 0 },
        { "resized(indexed_block {1,0}, -8, 16)", resized(reversed, -8, 16), 0 },
        { "resized(INT, -8, 16)", resized(MPI_INT, -8, 16), 1 },
        { "contiguous(2, f90_real(6,30))", contiguous(2, f90_real), 1 },
        { "dup(f90_integer(9))", committed(dup), 1 },
    };
    int failed = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int got = ig_type_in_order(cases[i].type);
        if (got != cases[i].in_order) {
            printf("FAIL %s: in order %d, expected %d\n", cases[i].name, got, cases[i].in_order);
            failed = 1;
        }
    }
    if (failed)
        TEST_FAIL("src/type_order.c gave a wrong answer (above)");
    /* Freed, so that an MPI that reports leaked types at exit (MPICH) would
     * point at one the library's decoding failed to free. */
    for (size_t i = 2; i < sizeof cases / sizeof cases[0]; i++)
        MPI_Type_free(&cases[i].type);
    MPI_Type_free(&half_int_apart);
    printf("PASS type_order_map (%zu types)\n", sizeof cases / sizeof cases[0]);
    MPI_Finalize();
    return 0;
}
