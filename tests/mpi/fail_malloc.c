/*
 * Test support, preloaded before libintergather.so: malloc or calloc
 * returns NULL for one size, in one process, when libintergather.so asks
 * for it, so that a test can take the library down its out-of-memory
 * paths on purpose.  Allocations of that size by MPI or the test program
 * itself go through (a size collision must not fail the wrong allocation).
 *   IG_TEST_FAIL_MALLOC_SIZE  the size in bytes whose malloc fails
 *   IG_TEST_FAIL_MALLOC_RANK  the world rank in which it fails
 *   IG_TEST_FAIL_CALLOC_SIZE  the size in bytes (count times size) whose
 *                             calloc fails
 *   IG_TEST_FAIL_CALLOC_RANK  the world rank in which it fails
 * (A process's world rank is read from the launcher's OMPI_COMM_WORLD_RANK
 * or PMI_RANK.)  Every failure it injects is reported on standard error as
 * "fail_malloc: FUNCTION(SIZE) failed in world rank RANK", so that a test
 * can check that its failure really happened.  Every other allocation goes
 * to glibc's unchanged.
 *   IG_TEST_FAIL_TYPE_RANK    the world rank in which every
 *                             PMPI_Type_contiguous libintergather calls
 *                             fails as an MPI library out of memory would
 *                             ("a datatype MPI cannot build": see
 *                             no_memory_without_a_communicator); reported as
 *                             "fail_malloc: PMPI_Type_contiguous(COUNT)
 *                             failed in world rank RANK"
 *   IG_TEST_FAIL_TYPE_DUP_RANK  the same for every PMPI_Type_dup
 *                             libintergather calls, reported as
 *                             "fail_malloc: PMPI_Type_dup(1) failed in
 *                             world rank RANK"
 *   IG_TEST_FAIL_TYPE_STRUCT_RANK  the same for every
 *                             PMPI_Type_create_struct libintergather calls
 *                             (its sink for dropped messages, p2p.h),
 *                             reported as "fail_malloc:
 *                             PMPI_Type_create_struct(COUNT) failed in
 *                             world rank RANK"
 *   IG_TEST_FAIL_SPLIT_TYPE_RANK  the world rank in which every
 *                             PMPI_Comm_split_type libintergather calls
 *                             fails after taking part in the split (as
 *                             an MPI library out of memory while setting
 *                             up the new communicator would), reported as
 *                             "fail_malloc: PMPI_Comm_split_type(1)
 *                             failed in world rank RANK"
 *   IG_TEST_FAIL_SPLIT_RANK   the world rank in which the PMPI_Comm_split
 *   IG_TEST_FAIL_SPLIT_NTH    calls of libintergather's that NTH lists
 *                             (numbers from 1, separated by commas) fail
 *                             after taking part in the split, as above;
 *                             each reported as "fail_malloc:
 *                             PMPI_Comm_split(N) failed in world rank
 *                             RANK"
 *   IG_TEST_FAIL_MERGE_RANK   the same for PMPI_Intercomm_merge (after
 *   IG_TEST_FAIL_MERGE_NTH    the merge ran), "fail_malloc:
 *                             PMPI_Intercomm_merge(NTH) failed in world
 *                             rank RANK"
 *   IG_TEST_FAIL_BCAST_RANK   the same for PMPI_Bcast (after the
 *   IG_TEST_FAIL_BCAST_NTH    broadcast ran), "fail_malloc:
 *                             PMPI_Bcast(NTH) failed in world rank RANK"
 *   IG_TEST_FAIL_KEYVAL_RANK  the same for PMPI_Comm_create_keyval
 *   IG_TEST_FAIL_KEYVAL_NTH   (no keyval made, MPI_ERR_NO_MEM raised on
 *                             MPI_COMM_WORLD, as out of memory would),
 *                             "fail_malloc: PMPI_Comm_create_keyval(NTH)
 *                             failed in world rank RANK"
 *   IG_TEST_FAIL_SET_ATTR_RANK  the world rank in which every
 *                             PMPI_Comm_set_attr libintergather calls on a
 *                             communicator other than MPI_COMM_SELF (its
 *                             hook at MPI_Finalize) fails
 *                             (nothing attached, the error raised on the
 *                             communicator, as out of memory would),
 *                             reported as "fail_malloc:
 *                             PMPI_Comm_set_attr(1) failed in world rank
 *                             RANK"
 *   IG_TEST_MEMORY_LIMIT      a size in bytes: in every process, any malloc
 *                             or calloc larger than it fails, whoever asks
 *                             (the MPI library included), as a machine
 *                             with less memory than that would refuse one
 *                             large allocation (realloc and the aligned
 *                             allocators are not limited); a value that is
 *                             not a number ends the process; each reported as
 *                             "fail_malloc: FUNCTION(SIZE) over the limit
 *                             in world rank RANK"
 *   IG_TEST_TRACE_ALLOC=1     report every allocation libintergather makes,
 *                             as "fail_malloc: trace FUNCTION(SIZE) in world
 *                             rank RANK", so that a test can list the sizes
 *                             to fail
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);

typedef struct {
    const char *size_var, *rank_var;
    int armed; /* -1: not read yet */
    size_t size;
} failure;

static failure malloc_failure = { "IG_TEST_FAIL_MALLOC_SIZE", "IG_TEST_FAIL_MALLOC_RANK", -1, 0 };
static failure calloc_failure = { "IG_TEST_FAIL_CALLOC_SIZE", "IG_TEST_FAIL_CALLOC_RANK", -1, 0 };

static const char *world_rank(void)
{
    const char *mine = getenv("OMPI_COMM_WORLD_RANK");
    return mine != NULL ? mine : getenv("PMI_RANK");
}

/* getenv and strtoul allocate nothing, so this may run inside malloc. */
static void arm(failure *f)
{
    const char *size = getenv(f->size_var), *rank = getenv(f->rank_var), *mine = world_rank();
    f->armed = size != NULL && rank != NULL && mine != NULL && strtoul(rank, NULL, 10) == strtoul(mine, NULL, 10);
    if (f->armed)
        f->size = (size_t)strtoull(size, NULL, 10);
}

/* Whether the code at `caller` belongs to libintergather.so (dladdr only
 * reads the loaded objects' tables; it allocates nothing). */
static int from_intergather(void *caller)
{
    Dl_info info;
    return dladdr(caller, &info) != 0 && info.dli_fname != NULL && strstr(info.dli_fname, "libintergather") != NULL;
}

/* One line on standard error (snprintf into a buffer on the stack and
 * write(2) allocate nothing). */
static void report(const char *prefix, const char *function, size_t size, const char *verb)
{
    char line[128];
    const char *rank = world_rank();
    int n = snprintf(line, sizeof line, "fail_malloc: %s%s(%zu) %s world rank %s\n", prefix, function, size, verb,
                     rank != NULL ? rank : "?");
    if (n > 0 && write(STDERR_FILENO, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1) < 0)
        return; /* nothing more to do about a report that cannot be written */
}

static int tracing(void)
{
    static int trace = -1; /* -1: not read yet */
    if (trace < 0) {
        const char *t = getenv("IG_TEST_TRACE_ALLOC");
        trace = t != NULL && strcmp(t, "1") == 0;
    }
    return trace;
}

/* Whether this allocation is the one to fail; reports it if so, and every
 * allocation of libintergather's when tracing. */
static int fails(failure *f, const char *function, size_t size, void *caller)
{
    if (f->armed < 0)
        arm(f);
    int traced = tracing(), mine = (traced || (f->armed && size == f->size)) && from_intergather(caller);
    if (traced && mine)
        report("trace ", function, size, "in");
    if (!f->armed || size != f->size || !mine)
        return 0;
    report("", function, size, "failed in");
    return 1;
}

/* Whether `size` is over IG_TEST_MEMORY_LIMIT; reports it if so. */
static int over_limit(const char *function, size_t size)
{
    static int armed = -1; /* -1: not read yet */
    static size_t limit;
    if (armed < 0) {
        const char *l = getenv("IG_TEST_MEMORY_LIMIT");
        char *end = NULL;
        armed = l != NULL;
        limit = armed ? (size_t)strtoull(l, &end, 10) : 0;
        if (armed && (end == l || *end != '\0')) {
            static const char bad[] = "fail_malloc: IG_TEST_MEMORY_LIMIT is not a number of bytes\n";
            ssize_t written = write(STDERR_FILENO, bad, sizeof bad - 1);
            (void)written; /* it ends here either way */
            _exit(2);
        }
    }
    if (!armed || size <= limit)
        return 0;
    report("", function, size, "over the limit in");
    return 1;
}

void *malloc(size_t size)
{
    if (over_limit("malloc", size))
        return NULL;
    return fails(&malloc_failure, "malloc", size, __builtin_return_address(0)) ? NULL : __libc_malloc(size);
}

void *calloc(size_t count, size_t size)
{
    /* An overflowing product is no size this test asks to fail. */
    size_t bytes = size != 0 && count > (size_t)-1 / size ? 0 : count * size;
    if (over_limit("calloc", bytes))
        return NULL;
    return fails(&calloc_failure, "calloc", bytes, __builtin_return_address(0)) ? NULL : __libc_calloc(count, size);
}

/* Whether an MPI call libintergather makes at `caller` fails
 * here (in the world rank `rank_var` names); reports it if so. */
static int mpi_call_fails(const char *rank_var, const char *function, int count, void *caller)
{
    const char *rank = getenv(rank_var), *mine = world_rank();
    if (rank == NULL || mine == NULL || strtoul(rank, NULL, 10) != strtoul(mine, NULL, 10) ||
        !from_intergather(caller))
        return 0;
    report("", function, (size_t)(count > 0 ? count : 0), "failed in");
    return 1;
}

/* How the MPI library reports a datatype (or a keyval) it cannot build:
 * an error of a call without a communicator goes to MPI_COMM_WORLD's error
 * handler before the call returns (Open MPI 4.1.4 and MPICH 4.0.2 both, checked
 * with MPI_Type_contiguous(-1, ...) and a handler on each of
 * MPI_COMM_WORLD and MPI_COMM_SELF).  Under the default handler,
 * MPI_ERRORS_ARE_FATAL, that ends the job, so the test programs that
 * inject these failures install MPI_ERRORS_RETURN on MPI_COMM_WORLD, and
 * only then does the library's joint handling of the failure begin. */
static int no_memory_without_a_communicator(void)
{
    PMPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_NO_MEM);
    return MPI_ERR_NO_MEM;
}

/* The MPI library's own, found past this library (which is preloaded
 * first); libintergather's calls resolve to the ones below. */
int PMPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    static int (*next)(int, MPI_Datatype, MPI_Datatype *);
    if (mpi_call_fails("IG_TEST_FAIL_TYPE_RANK", "PMPI_Type_contiguous", count, __builtin_return_address(0)))
        return no_memory_without_a_communicator();
    if (next == NULL)
        *(void **)&next = dlsym(RTLD_NEXT, "PMPI_Type_contiguous");
    return next(count, oldtype, newtype);
}

int PMPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    static int (*next)(MPI_Datatype, MPI_Datatype *);
    if (mpi_call_fails("IG_TEST_FAIL_TYPE_DUP_RANK", "PMPI_Type_dup", 1, __builtin_return_address(0)))
        return no_memory_without_a_communicator();
    if (next == NULL)
        *(void **)&next = dlsym(RTLD_NEXT, "PMPI_Type_dup");
    return next(oldtype, newtype);
}

int PMPI_Type_create_struct(int count, const int lengths[], const MPI_Aint displacements[],
                            const MPI_Datatype types[], MPI_Datatype *newtype)
{
    static int (*next)(int, const int[], const MPI_Aint[], const MPI_Datatype[], MPI_Datatype *);
    if (mpi_call_fails("IG_TEST_FAIL_TYPE_STRUCT_RANK", "PMPI_Type_create_struct", count,
                       __builtin_return_address(0)))
        return no_memory_without_a_communicator();
    if (next == NULL)
        *(void **)&next = dlsym(RTLD_NEXT, "PMPI_Type_create_struct");
    return next(count, lengths, displacements, types, newtype);
}

/* A call on comm fails here (a collective one after it ran: the other
 * processes wait in it for this one), reported as the MPI library reports
 * an error of a call on a communicator: to that communicator's error
 * handler (libintergather's private ones return errors; the test programs
 * set MPI_ERRORS_RETURN on theirs). */
static int failed_on(MPI_Comm comm, int error)
{
    PMPI_Comm_call_errhandler(comm, error);
    return error;
}

/* The same for a split or a merge: its communicator is freed first. */
static int split_failed(MPI_Comm comm, MPI_Comm *newcomm)
{
    if (*newcomm != MPI_COMM_NULL)
        PMPI_Comm_free(newcomm);
    return failed_on(comm, MPI_ERR_NO_MEM);
}

/* Whether `n` is one of the numbers of the comma-separated `list`. */
static int listed(const char *list, unsigned long n)
{
    for (char *end; *list != '\0'; list = *end == ',' ? end + 1 : end) {
        unsigned long item = strtoul(list, &end, 10);
        if (end == list)
            return 0;
        if (item == n)
            return 1;
    }
    return 0;
}

/* Whether this call, the *calls-th that libintergather made of `function`
 * in this process (counted here; `caller` is where it was made), is one
 * that `nth_var` lists, in the world rank `rank_var` names; reports it if
 * so. */
static int nth_call_fails(const char *rank_var, const char *nth_var, const char *function, unsigned long *calls,
                          void *caller)
{
    const char *nth = getenv(nth_var);
    return nth != NULL && from_intergather(caller) && listed(nth, ++*calls) &&
           mpi_call_fails(rank_var, function, (int)*calls, caller);
}

int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm)
{
    static int (*next)(MPI_Comm, int, int, MPI_Info, MPI_Comm *);
    if (next == NULL)
        *(void **)&next = dlsym(RTLD_NEXT, "PMPI_Comm_split_type");
    int rc = next(comm, split_type, key, info, newcomm);
    if (rc != MPI_SUCCESS ||
        !mpi_call_fails("IG_TEST_FAIL_SPLIT_TYPE_RANK", "PMPI_Comm_split_type", 1, __builtin_return_address(0)))
        return rc;
    return split_failed(comm, newcomm);
}

int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    static int (*next)(MPI_Comm, int, int, MPI_Comm *);
    static unsigned long calls; /* libintergather's, in this process */
    if (next == NULL)
        *(void **)&next = dlsym(RTLD_NEXT, "PMPI_Comm_split");
    int rc = next(comm, color, key, newcomm);
    if (rc != MPI_SUCCESS || !nth_call_fails("IG_TEST_FAIL_SPLIT_RANK", "IG_TEST_FAIL_SPLIT_NTH", "PMPI_Comm_split",
                                             &calls, __builtin_return_address(0)))
        return rc;
    return split_failed(comm, newcomm);
}

int PMPI_Intercomm_merge(MPI_Comm inter, int high, MPI_Comm *newcomm)
{
    static int (*next)(MPI_Comm, int, MPI_Comm *);
    static unsigned long calls; /* libintergather's, in this process */
    if (next == NULL)
        *(void **)&next = dlsym(RTLD_NEXT, "PMPI_Intercomm_merge");
    int rc = next(inter, high, newcomm);
    if (rc != MPI_SUCCESS || !nth_call_fails("IG_TEST_FAIL_MERGE_RANK", "IG_TEST_FAIL_MERGE_NTH",
                                             "PMPI_Intercomm_merge", &calls, __builtin_return_address(0)))
        return rc;
    return split_failed(inter, newcomm);
}

int PMPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    static int (*next)(void *, int, MPI_Datatype, int, MPI_Comm);
    static unsigned long calls; /* libintergather's, in this process */
    if (next == NULL)
        *(void **)&next = dlsym(RTLD_NEXT, "PMPI_Bcast");
    int rc = next(buf, count, type, root, comm);
    if (rc != MPI_SUCCESS || !nth_call_fails("IG_TEST_FAIL_BCAST_RANK", "IG_TEST_FAIL_BCAST_NTH", "PMPI_Bcast",
                                             &calls, __builtin_return_address(0)))
        return rc;
    return failed_on(comm, MPI_ERR_OTHER);
}

int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function *copy, MPI_Comm_delete_attr_function *del, int *keyval,
                            void *extra)
{
    static int (*next)(MPI_Comm_copy_attr_function *, MPI_Comm_delete_attr_function *, int *, void *);
    static unsigned long calls; /* libintergather's, in this process */
    if (nth_call_fails("IG_TEST_FAIL_KEYVAL_RANK", "IG_TEST_FAIL_KEYVAL_NTH", "PMPI_Comm_create_keyval", &calls,
                       __builtin_return_address(0)))
        return no_memory_without_a_communicator();
    if (next == NULL)
        *(void **)&next = dlsym(RTLD_NEXT, "PMPI_Comm_create_keyval");
    return next(copy, del, keyval, extra);
}

int PMPI_Comm_set_attr(MPI_Comm comm, int keyval, void *value)
{
    static int (*next)(MPI_Comm, int, void *);
    if (comm != MPI_COMM_SELF &&
        mpi_call_fails("IG_TEST_FAIL_SET_ATTR_RANK", "PMPI_Comm_set_attr", 1, __builtin_return_address(0)))
        return failed_on(comm, MPI_ERR_NO_MEM);
    if (next == NULL)
        *(void **)&next = dlsym(RTLD_NEXT, "PMPI_Comm_set_attr");
    return next(comm, keyval, value);
}
