/* The pure (no MPI) side of intergather's settings: parsing, the defaults,
 * loading through a lookup function, the settings fingerprint and the build
 * identity. */
#define IG_ALGORITHMS_PURE
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "settings.h"

#include "algorithms.h"
#include "c_locale.h"

#include <ctype.h>
#include <stdio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <stddef.h>

int ig_setting_is_set(const char *text)
{
    return text != NULL && text[0] != '\0';
}

/* Case-insensitive comparison that also ignores surrounding blanks, so that
 * "  Ring " in a job script does what the user meant. */
static int word_equals(const char *text, const char *word)
{
    while (isspace((unsigned char)*text))
        text++;
    size_t n = strlen(word);
    if (strncasecmp(text, word, n) != 0)
        return 0;
    text += n;
    while (isspace((unsigned char)*text))
        text++;
    return *text == '\0';
}

/* One word of a fixed vocabulary, each naming an enumerator. */
typedef struct {
    const char *word;
    int value;
} word_value;

static int parse_word(const char *text, const word_value *words, size_t n, int *value)
{
    if (!ig_setting_is_set(text))
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (word_equals(text, words[i].word)) {
            *value = words[i].value;
            return 0;
        }
    }
    return -1;
}

/* One table per enumerated setting: the parser accepts every word, and the
 * value's name is the first word listed for it, so no name is spelled twice. */
#define WORDS(table) table, sizeof table / sizeof table[0]

static const char *name_of(int value, const word_value *words, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (words[i].value == value)
            return words[i].word;
    return "?";
}

static const word_value topology_words[] = {
    { "fully-connected", IG_TOPOLOGY_FULLY_CONNECTED },
    { "fully_connected", IG_TOPOLOGY_FULLY_CONNECTED },
    { "fc", IG_TOPOLOGY_FULLY_CONNECTED },
    { "ring", IG_TOPOLOGY_RING },
    { "native", IG_TOPOLOGY_NATIVE },
};
static const word_value ring_schedule_words[] = { { "optimal", IG_RING_OPTIMAL }, { "paper", IG_RING_PAPER } };
static const word_value group_stage_words[] = {
    { "auto", IG_GROUP_STAGE_AUTO }, { "mpi", IG_GROUP_STAGE_MPI }, { "ring", IG_GROUP_STAGE_RING }
};
static const word_value opening_words[] = { { "on", IG_OPENING_ON },
                                            { "off", IG_OPENING_OFF },
                                            { "1", IG_OPENING_ON },
                                            { "0", IG_OPENING_OFF },
                                            { "pieces", IG_OPENING_PIECES },
                                            { "tree", IG_OPENING_TREE } };
static const word_value oversubscribed_words[] = {
    { "auto", IG_OVERSUBSCRIBED_AUTO }, { "yes", IG_OVERSUBSCRIBED_YES }, { "no", IG_OVERSUBSCRIBED_NO },
    { "on", IG_OVERSUBSCRIBED_YES },    { "off", IG_OVERSUBSCRIBED_NO },  { "1", IG_OVERSUBSCRIBED_YES },
    { "0", IG_OVERSUBSCRIBED_NO }
};
static const word_value many_senders_words[] = { { "spread", IG_MANY_SENDERS_SPREAD }, { "join", IG_MANY_SENDERS_JOIN } };

/* Parse into an enum through an int (enums may be narrower). */
#define PARSE_INTO(text, table, out)                                 \
    do {                                                             \
        int value_;                                                  \
        if (parse_word(text, WORDS(table), &value_) != 0)            \
            return -1;                                               \
        *(out) = value_;                                             \
        return 0;                                                    \
    } while (0)

int ig_parse_topology(const char *text, ig_topology *out) { PARSE_INTO(text, topology_words, out); }
int ig_parse_ring_schedule(const char *text, ig_ring_kind *out) { PARSE_INTO(text, ring_schedule_words, out); }
int ig_parse_group_stage(const char *text, ig_group_stage *out) { PARSE_INTO(text, group_stage_words, out); }
int ig_parse_many_senders(const char *text, ig_many_senders *out) { PARSE_INTO(text, many_senders_words, out); }
int ig_parse_opening(const char *text, int *out) { PARSE_INTO(text, opening_words, out); }
int ig_parse_oversubscribed(const char *text, int *out) { PARSE_INTO(text, oversubscribed_words, out); }

const char *ig_topology_name(ig_topology t) { return name_of(t, WORDS(topology_words)); }
const char *ig_ring_schedule_name(ig_ring_kind s) { return name_of(s, WORDS(ring_schedule_words)); }
const char *ig_group_stage_name(ig_group_stage g) { return name_of(g, WORDS(group_stage_words)); }
const char *ig_many_senders_name(ig_many_senders m) { return name_of(m, WORDS(many_senders_words)); }
const char *ig_opening_name(int opening) { return name_of(opening, WORDS(opening_words)); }
const char *ig_oversubscribed_name(int oversubscribed) { return name_of(oversubscribed, WORDS(oversubscribed_words)); }

/* Every name of the table of algorithms, plus "auto" and "native". */
int ig_parse_algorithm(const char *text, int *out)
{
    static const word_value words[] = { { "auto", IG_ALGORITHM_AUTO }, { "native", IG_ALGORITHM_NATIVE } };
    int value;
    if (parse_word(text, WORDS(words), &value) == 0) {
        *out = value;
        return 0;
    }
    for (int a = 0; a < IG_ALG_COUNT && ig_setting_is_set(text); a++) {
        if (word_equals(text, ig_algorithm_info_of((ig_algorithm)a)->name)) {
            *out = a;
            return 0;
        }
    }
    return -1;
}

const char *ig_algorithm_setting_name(int algorithm)
{
    if (algorithm == IG_ALGORITHM_AUTO)
        return "auto";
    if (algorithm == IG_ALGORITHM_NATIVE)
        return "native";
    return algorithm >= 0 && algorithm < IG_ALG_COUNT ? ig_algorithm_info_of((ig_algorithm)algorithm)->name : "?";
}

/* One "key=number" of a model; returns the text after it, or NULL. */
static const char *parse_model_entry(const char *s, ig_cost_params *m)
{
    static const struct { const char *key; size_t offset; } keys[] = {
        { "ts", offsetof(ig_cost_params, ts) }, { "tw", offsetof(ig_cost_params, tw) }, { "to", offsetof(ig_cost_params, to) }
    };
    while (isspace((unsigned char)*s))
        s++;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        size_t n = strlen(keys[i].key);
        if (strncasecmp(s, keys[i].key, n) != 0 || s[n] != '=')
            continue;
        char *end;
        errno = 0;
        double v = ig_strtod_c(s + n + 1, &end);
        if (end == s + n + 1 || errno == ERANGE || !(v >= 0) || v > 1.0)
            return NULL;
        *(double *)((char *)m + keys[i].offset) = v;
        while (isspace((unsigned char)*end))
            end++;
        return end;
    }
    return NULL;
}

int ig_parse_model(const char *text, ig_cost_params *out)
{
    if (!ig_setting_is_set(text))
        return -1;
    ig_cost_params m = *out;
    const char *s = text;
    for (;;) {
        s = parse_model_entry(s, &m);
        if (s == NULL)
            return -1;
        if (*s == '\0')
            break;
        if (*s++ != ',')
            return -1;
    }
    *out = m;
    return 0;
}

int ig_parse_model_or_measure(const char *text, int *measure, ig_cost_params *out)
{
    if (ig_setting_is_set(text) && word_equals(text, "measure")) {
        *measure = 1;
        return 0;
    }
    if (ig_parse_model(text, out) != 0)
        return -1;
    *measure = 0;
    return 0;
}

const char *ig_format_model(const ig_cost_params *m, char *buf, size_t size)
{
    ig_snprintf_c(buf, size, "ts=%g,tw=%g,to=%g", m->ts, m->tw, m->to);
    return buf;
}

/* A byte count: a non-negative decimal integer with an optional binary suffix
 * K/KB/KiB, M/MB/MiB, G/GB/GiB (all powers of 1024, as MPI users mean them).
 * Anything that would not fit in 64 bits is rejected rather than wrapped. */
int ig_parse_bytes(const char *text, uint64_t *out)
{
    if (!ig_setting_is_set(text))
        return -1;
    const char *s = text;
    while (isspace((unsigned char)*s))
        s++;
    if (!isdigit((unsigned char)*s))
        return -1; /* rejects signs, which strtoull would silently accept */
    errno = 0;
    char *end;
    unsigned long long value = strtoull(s, &end, 10);
    if (errno == ERANGE)
        return -1;
    while (isspace((unsigned char)*end))
        end++;
    static const struct { const char *suffix; unsigned shift; } suffixes[] = {
        { "", 0 }, { "b", 0 },
        { "k", 10 }, { "kb", 10 }, { "kib", 10 },
        { "m", 20 }, { "mb", 20 }, { "mib", 20 },
        { "g", 30 }, { "gb", 30 }, { "gib", 30 },
    };
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
        if (*end == '\0' ? suffixes[i].suffix[0] == '\0' : word_equals(end, suffixes[i].suffix)) {
            unsigned shift = suffixes[i].shift;
            if (shift > 0 && value > (UINT64_MAX >> shift))
                return -1;
            *out = (uint64_t)value << shift;
            return 0;
        }
    }
    return -1;
}

int ig_parse_verbose(const char *text, int *out)
{
    if (!ig_setting_is_set(text))
        return -1;
    for (int level = 0; level <= 2; level++) {
        char word[2] = { (char)('0' + level), '\0' };
        if (word_equals(text, word)) {
            *out = level;
            return 0;
        }
    }
    return -1;
}

/* One row per variable: how to parse it into the struct, and what to tell the
 * user it expected.  Adding a setting means adding a row here and in README. */
void ig_settings_defaults(ig_settings *s)
{
    s->topology = IG_TOPOLOGY_FULLY_CONNECTED;
    s->min_bytes = IG_DEFAULT_MIN_BYTES;
    s->verbose = 0;
    s->ring_schedule = IG_RING_OPTIMAL;
    s->group_stage = IG_GROUP_STAGE_AUTO;
    s->many_senders = IG_MANY_SENDERS_SPREAD;
    s->algorithm = IG_ALGORITHM_AUTO;
    s->net_model = ig_cost_default;
    s->shm_model = ig_cost_shared_memory;
    s->net_measure = 1;
    s->shm_measure = 0;
    s->mpi_allgatherv_mixed_types = 1;
    s->opening = IG_OPENING_ON;
    s->oversubscribed = IG_OVERSUBSCRIBED_AUTO;
    s->values_ignored = 0;
}

/* "auto, native or an algorithm: " and the table's names, for the warning
 * (from the table, so that a new row is listed). */
static const char *algorithm_choices(char *buf, size_t size)
{
    int len = snprintf(buf, size, "auto, native or an algorithm:");
    for (int a = 0; a < IG_ALG_COUNT && len >= 0 && (size_t)len < size; a++)
        len += snprintf(buf + len, size - (size_t)len, "%s %s", a > 0 ? "," : "",
                        ig_algorithm_info_of((ig_algorithm)a)->name);
    return buf;
}

/* A value of a setting that chooses messages, not understood: warned
 * about, and counted for the fingerprint (values_ignored). */
static void ignore(ig_settings *s, ig_warn_fn warn, const char *name, const char *value, const char *expected)
{
    warn(name, value, expected);
    s->values_ignored++;
}

void ig_settings_load(ig_settings *s, ig_lookup_fn lookup, ig_warn_fn warn)
{
    ig_settings_defaults(s);
    const char *v;
    if (ig_setting_is_set(v = lookup(IG_ENV_TOPOLOGY)) && ig_parse_topology(v, &s->topology) != 0)
        ignore(s, warn, IG_ENV_TOPOLOGY, v, "fully-connected (also fc, fully_connected), ring or native");
    if (ig_setting_is_set(v = lookup(IG_ENV_MIN_BYTES)) && ig_parse_bytes(v, &s->min_bytes) != 0)
        ignore(s, warn, IG_ENV_MIN_BYTES, v, "a byte count such as 0, 65536 or 64KiB");
    /* Verbosity chooses no message: not counted. */
    if (ig_setting_is_set(v = lookup(IG_ENV_VERBOSE)) && ig_parse_verbose(v, &s->verbose) != 0)
        warn(IG_ENV_VERBOSE, v, "0, 1 or 2");
    if (ig_setting_is_set(v = lookup(IG_ENV_RING_SCHEDULE)) &&
        ig_parse_ring_schedule(v, &s->ring_schedule) != 0)
        ignore(s, warn, IG_ENV_RING_SCHEDULE, v, "optimal or paper");
    if (ig_setting_is_set(v = lookup(IG_ENV_GROUP_ALLGATHER)) &&
        ig_parse_group_stage(v, &s->group_stage) != 0)
        ignore(s, warn, IG_ENV_GROUP_ALLGATHER, v, "auto, mpi or ring");
    if (ig_setting_is_set(v = lookup(IG_ENV_MANY_SENDERS)) && ig_parse_many_senders(v, &s->many_senders) != 0)
        ignore(s, warn, IG_ENV_MANY_SENDERS, v, "spread or join");
    if (ig_setting_is_set(v = lookup(IG_ENV_ALGORITHM)) && ig_parse_algorithm(v, &s->algorithm) != 0) {
        char choices[160];
        ignore(s, warn, IG_ENV_ALGORITHM, v, algorithm_choices(choices, sizeof choices));
    }
    if (ig_setting_is_set(v = lookup(IG_ENV_NET_MODEL)) &&
        ig_parse_model_or_measure(v, &s->net_measure, &s->net_model) != 0)
        ignore(s, warn, IG_ENV_NET_MODEL, v, "measure, or ts=SECONDS,tw=SECONDS_PER_BYTE,to=SECONDS, e.g. ts=5e-6,tw=1e-10,to=1e-6");
    if (ig_setting_is_set(v = lookup(IG_ENV_SHM_MODEL)) &&
        ig_parse_model_or_measure(v, &s->shm_measure, &s->shm_model) != 0)
        ignore(s, warn, IG_ENV_SHM_MODEL, v, "measure, or ts=SECONDS,tw=SECONDS_PER_BYTE,to=SECONDS, e.g. ts=1e-6,tw=2e-10,to=3e-7");
    if (ig_setting_is_set(v = lookup(IG_ENV_OPENING)) && ig_parse_opening(v, &s->opening) != 0)
        ignore(s, warn, IG_ENV_OPENING, v, "on, off or pieces");
    if (ig_setting_is_set(v = lookup(IG_ENV_OVERSUBSCRIBED)) && ig_parse_oversubscribed(v, &s->oversubscribed) != 0)
        ignore(s, warn, IG_ENV_OVERSUBSCRIBED, v, "auto, yes or no");
}

#if defined(__x86_64__)
#define IG_BUILD_ARCH "x86_64"
#elif defined(__i386__)
#define IG_BUILD_ARCH "i386"
#elif defined(__aarch64__)
#define IG_BUILD_ARCH "aarch64"
#elif defined(__arm__)
#define IG_BUILD_ARCH "arm"
#elif defined(__powerpc64__)
#define IG_BUILD_ARCH "ppc64"
#elif defined(__riscv)
#define IG_BUILD_ARCH "riscv"
#elif defined(__s390x__)
#define IG_BUILD_ARCH "s390x"
#else
#define IG_BUILD_ARCH "other"
#endif

#ifndef PACKAGE_VERSION /* built outside configure (the SimGrid core: scripts/simgrid/build.sh) */
#define PACKAGE_VERSION "unknown"
#endif

const char *ig_build_identity(void) { return PACKAGE_VERSION " " IG_BUILD_ARCH; }

static uint64_t fnv1a_bytes(uint64_t h, const unsigned char *bytes, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        h ^= bytes[i];
        h *= 1099511628211ULL;
    }
    return h;
}

uint64_t ig_settings_fingerprint(const ig_settings *s, const char *build)
{
    /* FNV-1a over the fields that select an algorithm (not verbosity) and
     * the count of values not understood, each in its 8 bytes from the
     * lowest, then the build's identity. */
    uint64_t fields[17] = { (uint64_t)s->topology, s->min_bytes, (uint64_t)s->ring_schedule,
                            (uint64_t)s->group_stage, (uint64_t)s->many_senders, (uint64_t)(int64_t)s->algorithm,
                            [12] = (uint64_t)s->net_measure, (uint64_t)s->shm_measure, (uint64_t)s->opening,
                            (uint64_t)s->oversubscribed, (uint64_t)s->values_ignored };
    for (int m = 0; m < 2; m++) {
        const ig_cost_params *c = m == 0 ? &s->net_model : &s->shm_model;
        double v[3] = { c->ts, c->tw, c->to };
        for (int i = 0; i < 3; i++)
            memcpy(&fields[6 + 3 * m + i], &v[i], sizeof v[i]);
    }
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        unsigned char bytes[8];
        for (int b = 0; b < 8; b++)
            bytes[b] = (unsigned char)(fields[i] >> (8 * b));
        h = fnv1a_bytes(h, bytes, sizeof bytes);
    }
    return fnv1a_bytes(h, (const unsigned char *)build, strlen(build));
}
