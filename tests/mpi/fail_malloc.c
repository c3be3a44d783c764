/*
 * Test support, preloaded before libintergather.so: malloc returns NULL
 * for one size, in one process, when libintergather.so asks for it, so
 * that a test can take the library down its out-of-memory paths on
 * purpose.  Allocations of that size by MPI or the test program itself go
 * through (a size collision must not fail the wrong allocation).
 *   IG_TEST_FAIL_MALLOC_SIZE  the size in bytes that fails
 *   IG_TEST_FAIL_MALLOC_RANK  the world rank in which it fails (read from
 *                             the launcher's OMPI_COMM_WORLD_RANK or PMI_RANK)
 * Every other allocation goes to glibc's malloc unchanged.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

extern void *__libc_malloc(size_t size);

static size_t fail_size;
static int armed = -1; /* -1: not read yet */

/* getenv and strtoul allocate nothing, so this may run inside malloc. */
static void arm(void)
{
    const char *size = getenv("IG_TEST_FAIL_MALLOC_SIZE"), *rank = getenv("IG_TEST_FAIL_MALLOC_RANK");
    const char *mine = getenv("OMPI_COMM_WORLD_RANK");
    if (mine == NULL)
        mine = getenv("PMI_RANK");
    armed = size != NULL && rank != NULL && mine != NULL && strtoul(rank, NULL, 10) == strtoul(mine, NULL, 10);
    if (armed)
        fail_size = (size_t)strtoull(size, NULL, 10);
}

/* Whether the code at `caller` belongs to libintergather.so (dladdr only
 * reads the loaded objects' tables; it allocates nothing). */
static int from_intergather(void *caller)
{
    Dl_info info;
    return dladdr(caller, &info) != 0 && info.dli_fname != NULL && strstr(info.dli_fname, "libintergather") != NULL;
}

void *malloc(size_t size)
{
    if (armed < 0)
        arm();
    if (armed && size == fail_size && from_intergather(__builtin_return_address(0)))
        return NULL;
    return __libc_malloc(size);
}
