/* Unit tests: parsing of the INTERGATHER_* settings (no MPI). */
#define IG_ALGORITHMS_PURE
#include <config.h>

#include "c_locale.h"
#include "settings.h"

#include "algorithms.h"

#include "check_runner.h"

#include <check.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The fingerprint of settings in this build (the build's identity fixed). */
static uint64_t fingerprint(const ig_settings *s) { return ig_settings_fingerprint(s, ig_build_identity()); }

START_TEST(topology_words)
{
    ig_topology t = IG_TOPOLOGY_NATIVE;
    ck_assert_int_eq(ig_parse_topology("fully-connected", &t), 0);
    ck_assert_int_eq(t, IG_TOPOLOGY_FULLY_CONNECTED);
    ck_assert_int_eq(ig_parse_topology(" RING ", &t), 0);
    ck_assert_int_eq(t, IG_TOPOLOGY_RING);
    ck_assert_int_eq(ig_parse_topology("native", &t), 0);
    ck_assert_int_eq(t, IG_TOPOLOGY_NATIVE);
}
END_TEST

START_TEST(topology_garbage_leaves_value)
{
    ig_topology t = IG_TOPOLOGY_RING;
    ck_assert_int_eq(ig_parse_topology("rings", &t), -1);
    ck_assert_int_eq(ig_parse_topology("", &t), -1);
    ck_assert_int_eq(ig_parse_topology(NULL, &t), -1);
    ck_assert_int_eq(ig_parse_topology("fully connected", &t), -1);
    ck_assert_int_eq(t, IG_TOPOLOGY_RING);
}
END_TEST

START_TEST(bytes_plain_and_suffixes)
{
    uint64_t v = 7;
    ck_assert_int_eq(ig_parse_bytes("0", &v), 0);
    ck_assert_uint_eq(v, 0);
    ck_assert_int_eq(ig_parse_bytes("65536", &v), 0);
    ck_assert_uint_eq(v, 65536);
    ck_assert_int_eq(ig_parse_bytes("64KiB", &v), 0);
    ck_assert_uint_eq(v, 65536);
    ck_assert_int_eq(ig_parse_bytes("4 m", &v), 0);
    ck_assert_uint_eq(v, 4u << 20);
    ck_assert_int_eq(ig_parse_bytes("2G", &v), 0);
    ck_assert_uint_eq(v, 2ull << 30);
}
END_TEST

START_TEST(bytes_rejects_garbage_and_overflow)
{
    uint64_t v = 123;
    const char *bad[] = { "", "-1", "+5", "abc", "12x", "1.5K", "K",
                          "18446744073709551616", /* 2^64 */
                          "99999999999999999999999999", "17179869184G" /* 2^34 Gi = 2^64 */ };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(ig_parse_bytes(bad[i], &v) == -1, "accepted '%s'", bad[i]);
    ck_assert_uint_eq(v, 123);
    ck_assert_int_eq(ig_parse_bytes("18446744073709551615", &v), 0); /* 2^64 - 1 fits */
    ck_assert_uint_eq(v, UINT64_MAX);
}
END_TEST

START_TEST(verbose_levels)
{
    int v = 9;
    ck_assert_int_eq(ig_parse_verbose("2", &v), 0);
    ck_assert_int_eq(v, 2);
    ck_assert_int_eq(ig_parse_verbose("3", &v), -1);
    ck_assert_int_eq(ig_parse_verbose("yes", &v), -1);
    ck_assert_int_eq(v, 2);
}
END_TEST

START_TEST(ring_schedule_words)
{
    ig_ring_kind s = IG_RING_OPTIMAL;
    ck_assert_int_eq(ig_parse_ring_schedule("paper", &s), 0);
    ck_assert_int_eq(s, IG_RING_PAPER);
    ck_assert_int_eq(ig_parse_ring_schedule("fastest", &s), -1);
    ck_assert_int_eq(s, IG_RING_PAPER);
}
END_TEST

START_TEST(group_stage_words)
{
    ig_group_stage g = IG_GROUP_STAGE_MPI;
    ck_assert_int_eq(ig_parse_group_stage(" Ring", &g), 0);
    ck_assert_int_eq(g, IG_GROUP_STAGE_RING);
    ck_assert_int_eq(ig_parse_group_stage("tree", &g), -1);
    ck_assert_int_eq(g, IG_GROUP_STAGE_RING);
    ck_assert_int_eq(ig_parse_group_stage("mpi", &g), 0);
    ck_assert_int_eq(g, IG_GROUP_STAGE_MPI);
    ck_assert_int_eq(ig_parse_group_stage("AUTO", &g), 0);
    ck_assert_int_eq(g, IG_GROUP_STAGE_AUTO);
    ck_assert_str_eq(ig_group_stage_name(IG_GROUP_STAGE_AUTO), "auto");
}
END_TEST

START_TEST(many_senders_words)
{
    ig_many_senders m = IG_MANY_SENDERS_SPREAD;
    ck_assert_int_eq(ig_parse_many_senders("join", &m), 0);
    ck_assert_int_eq(m, IG_MANY_SENDERS_JOIN);
    ck_assert_int_eq(ig_parse_many_senders("gather", &m), -1);
    ck_assert_int_eq(m, IG_MANY_SENDERS_JOIN);
}
END_TEST

/* INTERGATHER_ALGORITHM: every name of the table, auto and native. */
START_TEST(algorithm_words)
{
    static const struct {
        const char *word;
        int value;
    } words[] = {
        { "auto", IG_ALGORITHM_AUTO }, { "native", IG_ALGORITHM_NATIVE }, { "direct", IG_ALG_DIRECT },
        { "fc", IG_ALG_FC },           { "spread", IG_ALG_SPREAD },       { "full-duplex", IG_ALG_FULL_DUPLEX },
        { "ring", IG_ALG_RING },           { "chain", IG_ALG_CHAIN },         { "relay", IG_ALG_RELAY },
        { "star", IG_ALG_STAR },
    };
    int seen[IG_ALG_COUNT] = { 0 };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        int v = 12345;
        REQUIRE(ig_parse_algorithm(words[i].word, &v) == 0 && v == words[i].value, "'%s': %d, want %d",
                words[i].word, v, words[i].value);
        REQUIRE(strcmp(ig_algorithm_setting_name(words[i].value), words[i].word) == 0, "name of %d: '%s', want '%s'",
                words[i].value, ig_algorithm_setting_name(words[i].value), words[i].word);
        if (words[i].value >= 0)
            seen[words[i].value] = 1;
    }
    /* The list above is the whole table (algorithms.def), and every entry's
     * own name parses back to it. */
    for (int a = 0; a < IG_ALG_COUNT; a++) {
        const char *name = ig_algorithm_info_of((ig_algorithm)a)->name;
        REQUIRE(seen[a], "algorithm %d ('%s') not listed here", a, name);
        int v = -7;
        REQUIRE(ig_parse_algorithm(name, &v) == 0 && v == a, "'%s': %d, want %d", name, v, a);
        REQUIRE(strcmp(ig_algorithm_setting_name(a), name) == 0, "name of %d", a);
    }
    /* Case and surrounding blanks do not matter. */
    static const struct {
        const char *word;
        int value;
    } loose[] = { { " Direct ", IG_ALG_DIRECT },   { "FULL-DUPLEX", IG_ALG_FULL_DUPLEX },
                  { "\tAuto\n", IG_ALGORITHM_AUTO }, { "  NATIVE", IG_ALGORITHM_NATIVE },
                  { "Ring  ", IG_ALG_RING },         { "sPrEaD", IG_ALG_SPREAD } };
    for (size_t i = 0; i < sizeof loose / sizeof loose[0]; i++) {
        int v = 12345;
        REQUIRE(ig_parse_algorithm(loose[i].word, &v) == 0 && v == loose[i].value, "'%s': %d, want %d",
                loose[i].word, v, loose[i].value);
    }
    ck_assert_str_eq(ig_algorithm_setting_name(IG_ALG_COUNT), "?");
    ck_assert_str_eq(ig_algorithm_setting_name(-3), "?");
}
END_TEST

START_TEST(algorithm_garbage_leaves_value)
{
    static const char *bad[] = { "", "   ", "directs", "dir", "full duplex", "fullduplex", "fc,ring", "auto native",
                                 "0", "1", "-1", "-2", "nativ", "?", "ring\x01" };
    int v = 12345;
    ck_assert_int_eq(ig_parse_algorithm(NULL, &v), -1);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        REQUIRE(ig_parse_algorithm(bad[i], &v) == -1, "accepted '%s'", bad[i]);
    ck_assert_int_eq(v, 12345);
}
END_TEST

static int same_model(const ig_cost_params *a, const ig_cost_params *b)
{
    return a->ts == b->ts && a->tw == b->tw && a->to == b->to;
}

/* INTERGATHER_NET_MODEL / _SHM_MODEL: "ts=..,tw=..,to=..", any subset of
 * the keys, others kept. */
START_TEST(model_values)
{
    const ig_cost_params start = { .ts = 7, .tw = 8, .to = 9 };
    ig_cost_params m = start;
    ck_assert_int_eq(ig_parse_model("ts=5e-6,tw=1e-10,to=1e-6", &m), 0);
    ck_assert(m.ts == 5e-6 && m.tw == 1e-10 && m.to == 1e-6);
    /* Any order, case of the keys, blanks around entries. */
    m = start;
    ck_assert_int_eq(ig_parse_model(" TO=3e-7 , Ts=1e-6,tw=2e-10 ", &m), 0);
    ck_assert(m.ts == 1e-6 && m.tw == 2e-10 && m.to == 3e-7);
    /* Keys left out keep their value. */
    static const struct {
        const char *text;
        ig_cost_params want;
    } partial[] = {
        { "ts=1e-5", { .ts = 1e-5, .tw = 8, .to = 9 } },
        { "tw=0", { .ts = 7, .tw = 0, .to = 9 } },
        { "to=0.5", { .ts = 7, .tw = 8, .to = 0.5 } },
        { "ts=0,to=2e-6", { .ts = 0, .tw = 8, .to = 2e-6 } },
        { "tw=1e-9,ts=1e-6", { .ts = 1e-6, .tw = 1e-9, .to = 9 } },
        { "ts=1e-6,ts=2e-6", { .ts = 2e-6, .tw = 8, .to = 9 } }, /* the last one counts */
    };
    for (size_t i = 0; i < sizeof partial / sizeof partial[0]; i++) {
        m = start;
        REQUIRE(ig_parse_model(partial[i].text, &m) == 0 && same_model(&m, &partial[i].want),
                "'%s': (%g,%g,%g), want (%g,%g,%g)", partial[i].text, m.ts, m.tw, m.to, partial[i].want.ts,
                partial[i].want.tw, partial[i].want.to);
    }
}
END_TEST

/* A program may set a locale with a decimal comma before MPI_Init (the
 * settings are read after it): the models are still read with a decimal
 * point.  The locale is generated for the test (localedef, from Debian's
 * locales package, which scripts/setup-debian.sh installs): a fresh
 * machine has none with a decimal comma. */
START_TEST(model_read_with_a_decimal_point_in_any_locale)
{
    char dir[] = "/tmp/ig-locale-XXXXXX", command[256];
    REQUIRE(mkdtemp(dir) != NULL, "mkdtemp failed");
    snprintf(command, sizeof command, "localedef -c -i de_DE -f UTF-8 %s/de_DE.UTF-8 >/dev/null 2>&1", dir);
    int made = system(command);
    setenv("LOCPATH", dir, 1);
    const char *set = setlocale(LC_NUMERIC, "de_DE.UTF-8"); /* loaded now: its files may go */
    snprintf(command, sizeof command, "rm -rf %s", dir);
    int removed = system(command);
    REQUIRE(set != NULL, "no decimal-comma locale to test with (localedef exit %d: install Debian's locales "
                         "package, as scripts/setup-debian.sh does)", made);
    REQUIRE(removed == 0, "could not remove %s", dir);
    REQUIRE(strcmp(localeconv()->decimal_point, ",") == 0, "decimal point '%s'", localeconv()->decimal_point);
    REQUIRE(strtod("2.5", NULL) == 2.0, "strtod read 2.5 in a decimal-comma locale: the test proves nothing");
    ig_cost_params m = { .ts = 7, .tw = 8, .to = 9 };
    ck_assert_int_eq(ig_parse_model("ts=2.5e-6,tw=1.25e-10,to=0.5", &m), 0);
    ck_assert(m.ts == 2.5e-6 && m.tw == 1.25e-10 && m.to == 0.5);
    /* The model as a verbose line prints it reads back as the same model:
     * "ts=2,5e-06,..." would be refused. */
    char text[96];
    ck_assert_str_eq(ig_format_model(&m, text, sizeof text), "ts=2.5e-06,tw=1.25e-10,to=0.5");
    ig_cost_params back = { 0 };
    ck_assert_int_eq(ig_parse_model(text, &back), 0);
    ck_assert(same_model(&back, &m));
    /* Every log line is formatted the same way (src/log.c). */
    ig_snprintf_c(text, sizeof text, "ts=%.3g", 2.5e-6);
    ck_assert_str_eq(text, "ts=2.5e-06");
    /* The program's locale is left as it was. */
    ck_assert_str_eq(localeconv()->decimal_point, ",");
    setlocale(LC_NUMERIC, "C");
}
END_TEST

START_TEST(model_garbage_leaves_value)
{
    static const char *bad[] = {
        "", "  ", "ts", "ts=", "=1e-6", "ts=-1e-6", "tw=-0.1", "to=-1", "ts=abc", "ts=1e-6x", "ts=1e-6,",
        ",ts=1e-6", "ts=1e-6,,tw=1e-9", ",", "tx=1e-6", "t=1", "tso=1", "ts=1e-6;tw=1e-9", "ts=1e-6 tw=1e-9",
        "ts=nan", "ts=1e999", "5e-6", "ts:5e-6",
        /* A bad entry after good ones: nothing is taken, not even the good ones. */
        "ts=1e-3,tw=-1", "ts=1e-3,to=junk", "ts=1e-3,tw=1e-9,",
    };
    const ig_cost_params start = { .ts = 7, .tw = 8, .to = 9 };
    ig_cost_params m = start;
    ck_assert_int_eq(ig_parse_model(NULL, &m), -1);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        REQUIRE(ig_parse_model(bad[i], &m) == -1, "accepted '%s'", bad[i]);
        REQUIRE(same_model(&m, &start), "'%s' changed the model to (%g,%g,%g)", bad[i], m.ts, m.tw, m.to);
    }
}
END_TEST

/* ig_settings_load against a fake environment. */
#define FAKE_VARS 16
static const char *fake_env[FAKE_VARS][2];
static int warnings;
static char last_warned[64];
static char all_warned[512]; /* every warned name, each followed by a blank */
static char algorithm_expected[256]; /* what the INTERGATHER_ALGORITHM warning said it expects */

static void fake_reset(void)
{
    memset(fake_env, 0, sizeof fake_env);
    warnings = 0;
    last_warned[0] = all_warned[0] = algorithm_expected[0] = '\0';
}

static void fake_set(const char *name, const char *value)
{
    int i = 0;
    while (i < FAKE_VARS - 1 && fake_env[i][0])
        i++;
    fake_env[i][0] = name;
    fake_env[i][1] = value;
}

static const char *fake_lookup(const char *name)
{
    for (int i = 0; i < FAKE_VARS && fake_env[i][0]; i++)
        if (strcmp(fake_env[i][0], name) == 0)
            return fake_env[i][1];
    return NULL;
}

static void fake_warn(const char *name, const char *value, const char *expected)
{
    warnings++;
    snprintf(last_warned, sizeof last_warned, "%s", name);
    size_t len = strlen(all_warned);
    snprintf(all_warned + len, sizeof all_warned - len, "%s ", name);
    if (strcmp(name, IG_ENV_ALGORITHM) == 0)
        snprintf(algorithm_expected, sizeof algorithm_expected, "%s", expected);
}

START_TEST(load_defaults_when_unset)
{
    fake_reset();
    ig_settings s;
    ig_settings_load(&s, fake_lookup, fake_warn);
    ck_assert_int_eq(s.topology, IG_TOPOLOGY_FULLY_CONNECTED);
    ck_assert_uint_eq(s.min_bytes, IG_DEFAULT_MIN_BYTES);
    ck_assert_uint_eq(s.min_bytes, 0);
    ck_assert_int_eq(s.verbose, 0);
    ck_assert_int_eq(s.ring_schedule, IG_RING_OPTIMAL);
    ck_assert_int_eq(s.group_stage, IG_GROUP_STAGE_AUTO);
    ck_assert_int_eq(s.many_senders, IG_MANY_SENDERS_SPREAD);
    ck_assert_int_eq(s.opening, 1);
    ck_assert_int_eq(s.algorithm, IG_ALGORITHM_AUTO);
    ck_assert(same_model(&s.net_model, &ig_cost_default));
    ck_assert(same_model(&s.shm_model, &ig_cost_shared_memory));
    /* Between nodes the model is measured per communicator; within one
     * node the fixed values serve. */
    ck_assert_int_eq(s.net_measure, 1);
    ck_assert_int_eq(s.shm_measure, 0);
    ck_assert_int_eq(warnings, 0);
    /* ig_settings_defaults says the same. */
    ig_settings d;
    memset(&d, 0xff, sizeof d);
    ig_settings_defaults(&d);
    ck_assert(fingerprint(&d) == fingerprint(&s));
    ck_assert_int_eq(d.verbose, s.verbose);
}
END_TEST

START_TEST(load_algorithm_and_models)
{
    fake_reset();
    fake_set(IG_ENV_ALGORITHM, " Spread ");
    fake_set(IG_ENV_NET_MODEL, "to=2e-6");
    fake_set(IG_ENV_SHM_MODEL, "ts=3e-6,tw=4e-10,to=5e-7");
    ig_settings s;
    ig_settings_load(&s, fake_lookup, fake_warn);
    ck_assert_int_eq(warnings, 0);
    ck_assert_int_eq(s.algorithm, IG_ALG_SPREAD);
    /* A partial model keeps the default's other keys. */
    ck_assert(s.net_model.ts == ig_cost_default.ts && s.net_model.tw == ig_cost_default.tw &&
              s.net_model.to == 2e-6);
    ck_assert(s.shm_model.ts == 3e-6 && s.shm_model.tw == 4e-10 && s.shm_model.to == 5e-7);

    fake_reset();
    fake_set(IG_ENV_ALGORITHM, "native");
    ig_settings_load(&s, fake_lookup, fake_warn);
    ck_assert_int_eq(warnings, 0);
    ck_assert_int_eq(s.algorithm, IG_ALGORITHM_NATIVE);

    /* Not understood: a warning each, naming the variable, and the default. */
    fake_reset();
    fake_set(IG_ENV_ALGORITHM, "fastest");
    fake_set(IG_ENV_NET_MODEL, "ts=-5e-6");
    fake_set(IG_ENV_SHM_MODEL, "ts=1e-6,");
    ig_settings_load(&s, fake_lookup, fake_warn);
    ck_assert_int_eq(warnings, 3);
    ck_assert_str_eq(all_warned, IG_ENV_ALGORITHM " " IG_ENV_NET_MODEL " " IG_ENV_SHM_MODEL " ");
    /* The warning lists every value the parser takes (relay was missing). */
    for (int a = 0; a < IG_ALG_COUNT; a++)
        ck_assert_msg(strstr(algorithm_expected, ig_algorithm_info_of((ig_algorithm)a)->name) != NULL,
                      "the warning '%s' does not list %s", algorithm_expected, ig_algorithm_info_of((ig_algorithm)a)->name);
    ck_assert(strstr(algorithm_expected, "auto") != NULL && strstr(algorithm_expected, "native") != NULL);
    ck_assert_int_eq(s.algorithm, IG_ALGORITHM_AUTO);
    ck_assert(same_model(&s.net_model, &ig_cost_default));
    ck_assert(same_model(&s.shm_model, &ig_cost_shared_memory));
    /* Counted, so that the fingerprint tells this process from one that
     * left the variables unset (every value is the default's). */
    ck_assert_int_eq(s.values_ignored, 3);
    ig_settings unset;
    ig_settings_defaults(&unset);
    ck_assert(fingerprint(&s) != fingerprint(&unset));
    /* A misspelt verbosity chooses no message: not counted. */
    fake_reset();
    fake_set(IG_ENV_VERBOSE, "loud");
    ig_settings_load(&s, fake_lookup, fake_warn);
    ck_assert_int_eq(warnings, 1);
    ck_assert_int_eq(s.values_ignored, 0);
    ck_assert(fingerprint(&s) == fingerprint(&unset));

    /* "measure" either way round; numbers turn measuring off. */
    fake_reset();
    fake_set(IG_ENV_NET_MODEL, "ts=1e-3");
    fake_set(IG_ENV_SHM_MODEL, " MEASURE ");
    ig_settings_load(&s, fake_lookup, fake_warn);
    ck_assert_int_eq(warnings, 0);
    ck_assert_int_eq(s.net_measure, 0);
    ck_assert(s.net_model.ts == 1e-3 && s.net_model.tw == ig_cost_default.tw);
    ck_assert_int_eq(s.shm_measure, 1);
    ck_assert(same_model(&s.shm_model, &ig_cost_shared_memory));
    fake_reset();
    fake_set(IG_ENV_NET_MODEL, "measure,ts=1e-3");
    fake_set(IG_ENV_SHM_MODEL, "measured");
    ig_settings_load(&s, fake_lookup, fake_warn);
    ck_assert_int_eq(warnings, 2);
    ck_assert_int_eq(s.net_measure, 1);
    ck_assert(same_model(&s.net_model, &ig_cost_default));
    ck_assert_int_eq(s.shm_measure, 0);

    /* Empty means unset: no warning. */
    fake_reset();
    fake_set(IG_ENV_ALGORITHM, "");
    fake_set(IG_ENV_NET_MODEL, "");
    fake_set(IG_ENV_SHM_MODEL, "");
    ig_settings_load(&s, fake_lookup, fake_warn);
    ck_assert_int_eq(warnings, 0);
    ck_assert_int_eq(s.algorithm, IG_ALGORITHM_AUTO);
}
END_TEST

START_TEST(load_values_and_warn_on_garbage)
{
    fake_reset();
    fake_set(IG_ENV_TOPOLOGY, "ring");
    fake_set(IG_ENV_MIN_BYTES, "lots");
    fake_set(IG_ENV_VERBOSE, "1");
    fake_set(IG_ENV_RING_SCHEDULE, "");
    ig_settings s;
    ig_settings_load(&s, fake_lookup, fake_warn);
    ck_assert_int_eq(s.topology, IG_TOPOLOGY_RING);
    ck_assert_uint_eq(s.min_bytes, IG_DEFAULT_MIN_BYTES);
    ck_assert_int_eq(s.verbose, 1);
    ck_assert_int_eq(warnings, 1); /* empty means unset: no warning */
    ck_assert_str_eq(last_warned, IG_ENV_MIN_BYTES);
}
END_TEST

START_TEST(fingerprint_tracks_algorithm_choice_only)
{
    ig_settings a;
    ig_settings_defaults(&a);
    a.min_bytes = 1024;
    a.group_stage = IG_GROUP_STAGE_MPI;
    ig_settings b = a;
    b.verbose = 2;
    ck_assert(fingerprint(&a) == fingerprint(&b));
    b.min_bytes = 1025;
    ck_assert(fingerprint(&a) != fingerprint(&b));
    b = a;
    b.topology = IG_TOPOLOGY_RING;
    ck_assert(fingerprint(&a) != fingerprint(&b));
    b = a;
    b.ring_schedule = IG_RING_PAPER;
    ck_assert(fingerprint(&a) != fingerprint(&b));
    b = a;
    b.group_stage = IG_GROUP_STAGE_RING;
    ck_assert(fingerprint(&a) != fingerprint(&b));
    b = a;
    b.many_senders = IG_MANY_SENDERS_JOIN;
    ck_assert(fingerprint(&a) != fingerprint(&b));
    b = a;
    b.opening = 0;
    ck_assert(fingerprint(&a) != fingerprint(&b));
    b = a;
    b.values_ignored = 1;
    ck_assert(fingerprint(&a) != fingerprint(&b));
}
END_TEST

START_TEST(opening_words)
{
    int on = IG_OPENING_ON;
    ck_assert_int_eq(ig_parse_opening("off", &on), 0);
    ck_assert_int_eq(on, IG_OPENING_OFF);
    ck_assert_int_eq(ig_parse_opening("1", &on), 0);
    ck_assert_int_eq(on, IG_OPENING_ON);
    ck_assert_int_eq(ig_parse_opening("pieces", &on), 0);
    ck_assert_int_eq(on, IG_OPENING_PIECES);
    ck_assert_int_eq(ig_parse_opening("maybe", &on), -1);
    ck_assert_int_eq(on, IG_OPENING_PIECES);
    /* the names the "active:" line prints: pieces is not "on" */
    ck_assert_str_eq(ig_opening_name(IG_OPENING_OFF), "off");
    ck_assert_str_eq(ig_opening_name(IG_OPENING_ON), "on");
    ck_assert_str_eq(ig_opening_name(IG_OPENING_PIECES), "pieces");
    ck_assert_int_eq(ig_parse_opening("tree", &on), 0);
    ck_assert_int_eq(on, IG_OPENING_TREE);
    ck_assert_str_eq(ig_opening_name(IG_OPENING_TREE), "tree");
}
END_TEST

/* Every algorithm setting has its own fingerprint. */
START_TEST(fingerprint_tracks_algorithm)
{
    enum { N = IG_ALG_COUNT + 2 };
    uint64_t f[N];
    for (int i = 0; i < N; i++) {
        ig_settings s;
        ig_settings_defaults(&s);
        s.algorithm = i - 2; /* IG_ALGORITHM_NATIVE, _AUTO, then the table */
        f[i] = fingerprint(&s);
        for (int j = 0; j < i; j++)
            REQUIRE(f[i] != f[j], "algorithms %d and %d share a fingerprint", i - 2, j - 2);
    }
    ck_assert_int_eq(IG_ALGORITHM_NATIVE, -2);
    ck_assert_int_eq(IG_ALGORITHM_AUTO, -1);
}
END_TEST

START_TEST(oversubscribed_words)
{
    int o = IG_OVERSUBSCRIBED_AUTO;
    static const struct {
        const char *text;
        int want;
    } words[] = { { "yes", IG_OVERSUBSCRIBED_YES }, { "NO", IG_OVERSUBSCRIBED_NO }, { " on ", IG_OVERSUBSCRIBED_YES },
                  { "off", IG_OVERSUBSCRIBED_NO },  { "1", IG_OVERSUBSCRIBED_YES },  { "0", IG_OVERSUBSCRIBED_NO },
                  { "auto", IG_OVERSUBSCRIBED_AUTO } };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        REQUIRE(ig_parse_oversubscribed(words[i].text, &o) == 0 && o == words[i].want, "'%s'", words[i].text);
        ck_assert_int_eq(ig_parse_oversubscribed("sometimes", &o), -1);
        ck_assert_int_eq(o, words[i].want);
    }
    ck_assert_str_eq(ig_oversubscribed_name(IG_OVERSUBSCRIBED_AUTO), "auto");
    ck_assert_str_eq(ig_oversubscribed_name(IG_OVERSUBSCRIBED_YES), "yes");
    ck_assert_str_eq(ig_oversubscribed_name(IG_OVERSUBSCRIBED_NO), "no");
    /* It decides which algorithm runs: processes must agree on it. */
    ig_settings a, b;
    ig_settings_defaults(&a);
    ck_assert_int_eq(a.oversubscribed, IG_OVERSUBSCRIBED_AUTO);
    for (int v = IG_OVERSUBSCRIBED_NO; v <= IG_OVERSUBSCRIBED_YES; v++) {
        b = a;
        b.oversubscribed = v;
        ck_assert(fingerprint(&b) != fingerprint(&a));
    }
    /* From the environment, and a warning for a word it does not know. */
    fake_reset();
    fake_set(IG_ENV_OVERSUBSCRIBED, "no");
    ig_settings_load(&b, fake_lookup, fake_warn);
    ck_assert_int_eq(b.oversubscribed, IG_OVERSUBSCRIBED_NO);
    ck_assert_int_eq(warnings, 0);
    fake_reset();
    fake_set(IG_ENV_OVERSUBSCRIBED, "never");
    ig_settings_load(&b, fake_lookup, fake_warn);
    ck_assert_int_eq(b.oversubscribed, IG_OVERSUBSCRIBED_AUTO);
    ck_assert_int_eq(warnings, 1);
    ck_assert_str_eq(last_warned, IG_ENV_OVERSUBSCRIBED);
}
END_TEST

/* Every parameter of both models, up or down, changes the fingerprint, and
 * so does trading the two models. */
START_TEST(fingerprint_tracks_models)
{
    ig_settings a;
    ig_settings_defaults(&a);
    uint64_t fa = fingerprint(&a);
    for (int m = 0; m < 2; m++)
        for (int k = 0; k < 3; k++)
            for (int dir = 0; dir < 3; dir++) {
                ig_settings b = a;
                ig_cost_params *c = m ? &b.shm_model : &b.net_model;
                double *v = k == 0 ? &c->ts : k == 1 ? &c->tw : &c->to;
                *v = dir == 0 ? *v * 2 : dir == 1 ? *v * (1 - 1e-12) : 0;
                REQUIRE(fingerprint(&b) != fa, "model %d parameter %d change %d: same fingerprint", m, k,
                        dir);
            }
    ig_settings b = a;
    b.net_model = a.shm_model;
    b.shm_model = a.net_model;
    ck_assert(fingerprint(&b) != fa);
    /* Measuring or not is part of it, for each model. */
    b = a;
    b.net_measure = !a.net_measure;
    ck_assert(fingerprint(&b) != fa);
    b = a;
    b.shm_measure = !a.shm_measure;
    ck_assert(fingerprint(&b) != fa);
    /* The same values give the same fingerprint. */
    b = a;
    b.net_model = (ig_cost_params){ .ts = 1, .tw = 1, .to = 1 };
    ck_assert_int_eq(ig_parse_model("ts=5e-6,tw=1e-10,to=1e-6", &b.net_model), 0);
    ck_assert(same_model(&b.net_model, &ig_cost_default));
    ck_assert(fingerprint(&b) == fa);
}
END_TEST

/* Processes of two builds never agree: another version, or another
 * architecture (ig_build_identity), changes the fingerprint of the same
 * settings, so that a job mixing them stays native. */
START_TEST(fingerprint_tracks_build)
{
    ig_settings a;
    ig_settings_defaults(&a);
    ck_assert(ig_settings_fingerprint(&a, "0.1.0 x86_64") == ig_settings_fingerprint(&a, "0.1.0 x86_64"));
    ck_assert(ig_settings_fingerprint(&a, "0.1.0 x86_64") != ig_settings_fingerprint(&a, "0.1.1 x86_64"));
    ck_assert(ig_settings_fingerprint(&a, "0.1.0 x86_64") != ig_settings_fingerprint(&a, "0.1.0 aarch64"));
    /* This build's identity names its version. */
    ck_assert_ptr_nonnull(strstr(ig_build_identity(), PACKAGE_VERSION));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("settings");
    TCase *tc = tcase_create("parse");
    tcase_add_test(tc, topology_words);
    tcase_add_test(tc, topology_garbage_leaves_value);
    tcase_add_test(tc, bytes_plain_and_suffixes);
    tcase_add_test(tc, bytes_rejects_garbage_and_overflow);
    tcase_add_test(tc, verbose_levels);
    tcase_add_test(tc, ring_schedule_words);
    tcase_add_test(tc, group_stage_words);
    tcase_add_test(tc, many_senders_words);
    tcase_add_test(tc, opening_words);
    tcase_add_test(tc, oversubscribed_words);
    tcase_add_test(tc, algorithm_words);
    tcase_add_test(tc, algorithm_garbage_leaves_value);
    tcase_add_test(tc, model_values);
    tcase_add_test(tc, model_garbage_leaves_value);
    tcase_add_test(tc, load_defaults_when_unset);
    tcase_add_test(tc, load_algorithm_and_models);
    tcase_add_test(tc, load_values_and_warn_on_garbage);
    tcase_add_test(tc, fingerprint_tracks_algorithm_choice_only);
    tcase_add_test(tc, fingerprint_tracks_algorithm);
    tcase_add_test(tc, fingerprint_tracks_models);
    tcase_add_test(tc, fingerprint_tracks_build);
    suite_add_tcase(s, tc);
    /* Generating the locale (localedef) takes about a second on an idle
     * machine, more on a loaded one: beyond check's 4 s default. */
    TCase *locale = tcase_create("locale");
    tcase_set_timeout(locale, 120);
    tcase_add_test(locale, model_read_with_a_decimal_point_in_any_locale);
    suite_add_tcase(s, locale);
    return ig_run_suite(s);
}
