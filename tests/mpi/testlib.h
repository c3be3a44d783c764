/* Helpers shared by the MPI test programs.  These programs are plain MPI
 * programs, never linked against intergather: the test scripts preload it. */
#ifndef IG_TESTLIB_H
#define IG_TESTLIB_H

#include <mpi.h>
#include <stddef.h>

#define TEST_FAIL(...) test_fail(__FILE__, __LINE__, __VA_ARGS__)
void test_fail(const char *file, int line, const char *fmt, ...) __attribute__((noreturn, format(printf, 3, 4)));

/* A watchdog for steps that must not hang.  test_watch names the step now
 * running (printf-style), test_watchdog arms the watchdog for `seconds`
 * (0 disarms it).  A step not done in time ends the process with the line
 * "HANG <step>" on stderr and exit status 98: sooner than the launcher's
 * timeout, and naming the process and the step where that timeout would
 * kill the whole job without a word. */
void test_watch(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void test_watchdog(unsigned seconds);
/* Seconds one collective call of a test may take: such a call takes
 * milliseconds, alone or on a loaded machine. */
#define TEST_CALL_SECONDS 60
/* The usual pair around one call: test_watch_call names it and arms the
 * watchdog for TEST_CALL_SECONDS, test_watch_done disarms it. */
void test_watch_call(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void test_watch_done(void);

/* The error class of a return code (MPI_SUCCESS for success), and checks
 * of it that fail the test, naming `what`. */
int test_error_class(int rc);
void test_expect_class(int rc, int want, const char *what);
void test_expect_error(int rc, const char *what);

/* An error handler of the program's own that returns, as MPI_ERRORS_RETURN
 * does, and logs its calls: test_log_errors installs it on `comm`;
 * test_errors_taken returns what it logged since the last time it was
 * asked (calls, the last call's class and communicator) and clears it. */
typedef struct {
    int calls, last_class;
    MPI_Comm last_comm;
} test_error_log;
void test_log_errors(MPI_Comm comm);
test_error_log test_errors_taken(void);

/* Split MPI_COMM_WORLD into a left group of `left` processes and the rest,
 * and connect them.  *is_left tells which group this process is in. */
MPI_Comm test_intercomm(int left, int *is_left);

/* For the programs that inject datatype failures (fail_malloc.c): a
 * datatype the MPI library cannot build goes to MPI_COMM_WORLD's error
 * handler first, which this sets to MPI_ERRORS_RETURN, so that the
 * library's joint handling of the failure follows, as in a program that
 * set it so itself. */
void test_datatype_errors_return(void);

/* Several splits in one run: launching a job costs about a second, more
 * than most splits' cases, so a test covers a whole (p, q) matrix in one
 * launch.  SPLITS is "P+Q,P+Q,..." (or a plain number LEFT: one split, LEFT
 * + the rest of the world).  For each split, the first P + Q processes of
 * MPI_COMM_WORLD form an inter-communicator of P and Q processes and call
 * fn on it (`split` names it, "P+Q", for messages); the others wait for
 * them asleep, so the machine's cores go to the split.  World rank 0 takes
 * part in every split. */
typedef void (*test_split_fn)(MPI_Comm inter, int is_left, const char *split, void *arg);
void test_for_each_split(const char *splits, test_split_fn fn, void *arg);

/* The element types exercised: predefined, contiguous with its data 8 bytes
 * in (lower bound 8), strided vector, resized struct with a non-zero lower
 * bound. */
enum { TEST_INT, TEST_SHIFTED_DOUBLE, TEST_VECTOR, TEST_STRUCT_LB, TEST_NTYPES };
MPI_Datatype test_type(int which);
const char *test_type_name(int which);

/* Bytes a buffer of `count` elements of `type` spans, from its start address
 * (which may be below the data: the lower bound is honoured). */
size_t test_span(MPI_Datatype type, MPI_Aint count);

/* A committed type that reaches `buf` from MPI_BOTTOM: count 1 of it is
 * `count` elements of `base` at buf's absolute address (legal, and a call
 * intergather leaves to the MPI library). */
MPI_Datatype test_absolute_type(void *buf, int count, MPI_Datatype base);

/* Fill a send buffer deterministically from (seed, byte index). */
void test_fill(void *buf, size_t bytes, unsigned seed);

/* Compare two receive buffers byte for byte, gaps included; report the first
 * difference.  Returns 0 when equal. */
int test_compare(const void *expected, const void *got, size_t bytes, const char *what);

/* One comparison's buffers: a filled send block, and the native and the
 * intercepted receive buffers, filled alike so untouched gaps compare too. */
typedef struct {
    unsigned char *sbuf, *expected, *got;
    size_t sspan, rspan;
} test_buffers;

void test_buffers_open(test_buffers *b, size_t sspan, size_t rspan, unsigned seed);
/* Fails the test (with `what`) unless both receive buffers are identical. */
void test_buffers_check(const test_buffers *b, const char *what);
void test_buffers_close(test_buffers *b);

/* One MPI_Allgather on `inter`, compared byte for byte with PMPI_Allgather
 * on the same communicator: each process of the left group sends
 * left_count elements of test_type(type_id), of the right group
 * right_count (0: that group only receives). */
void test_allgather_against_native(MPI_Comm inter, int is_left, int type_id, int left_count, int right_count);

#endif
