/*
 * MPI_THREAD_MULTIPLE: several threads, each with its own
 * inter-communicator, run intercepted allgathers concurrently, many times.
 * The first call on each communicator builds its cache concurrently with the
 * others.  Results are checked against native; world rank 0 prints the number
 * of calls its threads made so the script can check the statistics are exact.
 * usage: threads NTHREADS ITERATIONS
 */
#include "testlib.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT 20000

typedef struct {
    MPI_Comm inter;
    int is_left, iterations, id;
} job;

static void *worker(void *arg)
{
    job *j = arg;
    int rsize, lrank;
    MPI_Comm_remote_size(j->inter, &rsize);
    MPI_Comm_rank(j->inter, &lrank);
    int *sbuf = malloc(COUNT * sizeof(int));
    int *got = malloc((size_t)COUNT * rsize * sizeof(int)), *ref = malloc((size_t)COUNT * rsize * sizeof(int));
    for (int it = 0; it < j->iterations; it++) {
        int sending = j->is_left == (it % 2 == 0); /* alternate directions */
        for (int i = 0; i < COUNT; i++)
            sbuf[i] = j->id * 7919 + lrank * 131 + i + it;
        memset(got, 0, (size_t)COUNT * rsize * sizeof(int));
        memset(ref, 0, (size_t)COUNT * rsize * sizeof(int));
        MPI_Allgather(sbuf, sending ? COUNT : 0, MPI_INT, got, sending ? 0 : COUNT, MPI_INT, j->inter);
        PMPI_Allgather(sbuf, sending ? COUNT : 0, MPI_INT, ref, sending ? 0 : COUNT, MPI_INT, j->inter);
        if (memcmp(got, ref, (size_t)COUNT * rsize * sizeof(int)) != 0)
            TEST_FAIL("thread %d iteration %d differs from native", j->id, it);
    }
    free(sbuf);
    free(got);
    free(ref);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, wrank, wsize;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided < MPI_THREAD_MULTIPLE)
        TEST_FAIL("MPI_THREAD_MULTIPLE not provided (got %d)", provided);
    int nthreads = argc > 1 ? atoi(argv[1]) : 4, iterations = argc > 2 ? atoi(argv[2]) : 50;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    job *jobs = calloc((size_t)nthreads, sizeof(job));
    pthread_t *tids = calloc((size_t)nthreads, sizeof(pthread_t));
    /* Communicators are created in the main thread, in the same order
     * everywhere; each thread then owns one. */
    for (int t = 0; t < nthreads; t++) {
        jobs[t].inter = test_intercomm(1 + t % (wsize - 1), &jobs[t].is_left);
        jobs[t].iterations = iterations;
        jobs[t].id = t;
    }
    for (int t = 0; t < nthreads; t++)
        pthread_create(&tids[t], NULL, worker, &jobs[t]);
    for (int t = 0; t < nthreads; t++)
        pthread_join(tids[t], NULL);
    for (int t = 0; t < nthreads; t++)
        MPI_Comm_free(&jobs[t].inter);
    if (wrank == 0)
        printf("expect served moved=%d\nPASS threads\n", nthreads * iterations);
    free(jobs);
    free(tids);
    MPI_Finalize();
    return 0;
}
