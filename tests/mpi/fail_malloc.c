/*
 * Test support, preloaded before libintergather.so: malloc returns NULL
 * for one size in one process, so that a test can take the library down
 * its out-of-memory paths on purpose.
 *   IG_TEST_FAIL_MALLOC_SIZE  the size in bytes that fails
 *   IG_TEST_FAIL_MALLOC_RANK  the world rank in which it fails (read from
 *                             the launcher's OMPI_COMM_WORLD_RANK or PMI_RANK)
 * Every other allocation goes to glibc's malloc unchanged.
 */
#include <stddef.h>
#include <stdlib.h>

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

void *malloc(size_t size)
{
    if (armed < 0)
        arm();
    if (armed && size == fail_size)
        return NULL;
    return __libc_malloc(size);
}
