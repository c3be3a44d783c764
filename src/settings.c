/* Runtime side of the settings: read the environment once per process. */
#include "settings.h"

#include "log.h"
#include "mpi_identity.h"

#include <pthread.h>
#include <stdlib.h>

static ig_settings settings;
static pthread_once_t settings_once = PTHREAD_ONCE_INIT;

/* A bad value is reported once, from one process, and the default is kept:
 * a typo in a job script must never crash a production run. */
static void warn_bad_value(const char *name, const char *value, const char *expected)
{
    ig_log_rank0("ignoring %s=\"%s\" (expected %s); using the default", name, value, expected);
}

static const char *lookup_environment(const char *name)
{
    return getenv(name);
}

static void load_settings(void)
{
    ig_settings_load(&settings, lookup_environment, warn_bad_value);
    settings.mpi_allgatherv_mixed_types = ig_mpi_allgatherv_takes_mixed_types();
}

const ig_settings *ig_settings_get(void)
{
    pthread_once(&settings_once, load_settings);
    return &settings;
}
