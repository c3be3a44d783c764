/* Unit tests: parsing of the INTERGATHER_* settings (no MPI). */
#include "settings.h"

#include "check_runner.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

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

/* ig_settings_load against a fake environment. */
static const char *fake_env[8][2];
static int warnings;
static char last_warned[64];

static const char *fake_lookup(const char *name)
{
    for (int i = 0; i < 8 && fake_env[i][0]; i++)
        if (strcmp(fake_env[i][0], name) == 0)
            return fake_env[i][1];
    return NULL;
}

static void fake_warn(const char *name, const char *value, const char *expected)
{
    warnings++;
    strncpy(last_warned, name, sizeof last_warned - 1);
}

START_TEST(load_defaults_when_unset)
{
    memset(fake_env, 0, sizeof fake_env);
    warnings = 0;
    ig_settings s;
    ig_settings_load(&s, fake_lookup, fake_warn);
    ck_assert_int_eq(s.topology, IG_TOPOLOGY_FULLY_CONNECTED);
    ck_assert_uint_eq(s.min_bytes, IG_DEFAULT_MIN_BYTES);
    ck_assert_int_eq(s.verbose, 0);
    ck_assert_int_eq(s.ring_schedule, IG_RING_OPTIMAL);
    ck_assert_int_eq(s.group_stage, IG_GROUP_STAGE_AUTO);
    ck_assert_int_eq(s.many_senders, IG_MANY_SENDERS_SPREAD);
    ck_assert_int_eq(warnings, 0);
}
END_TEST

START_TEST(load_values_and_warn_on_garbage)
{
    memset(fake_env, 0, sizeof fake_env);
    fake_env[0][0] = IG_ENV_TOPOLOGY;   fake_env[0][1] = "ring";
    fake_env[1][0] = IG_ENV_MIN_BYTES;  fake_env[1][1] = "lots";
    fake_env[2][0] = IG_ENV_VERBOSE;    fake_env[2][1] = "1";
    fake_env[3][0] = IG_ENV_RING_SCHEDULE; fake_env[3][1] = "";
    warnings = 0;
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
    ig_settings a = { IG_TOPOLOGY_FULLY_CONNECTED, 1024, 0, IG_RING_OPTIMAL, IG_GROUP_STAGE_MPI,
                      IG_MANY_SENDERS_SPREAD };
    ig_settings b = a;
    b.verbose = 2;
    ck_assert(ig_settings_fingerprint(&a) == ig_settings_fingerprint(&b));
    b.min_bytes = 1025;
    ck_assert(ig_settings_fingerprint(&a) != ig_settings_fingerprint(&b));
    b = a;
    b.topology = IG_TOPOLOGY_RING;
    ck_assert(ig_settings_fingerprint(&a) != ig_settings_fingerprint(&b));
    b = a;
    b.ring_schedule = IG_RING_PAPER;
    ck_assert(ig_settings_fingerprint(&a) != ig_settings_fingerprint(&b));
    b = a;
    b.group_stage = IG_GROUP_STAGE_RING;
    ck_assert(ig_settings_fingerprint(&a) != ig_settings_fingerprint(&b));
    b = a;
    b.many_senders = IG_MANY_SENDERS_JOIN;
    ck_assert(ig_settings_fingerprint(&a) != ig_settings_fingerprint(&b));
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
    tcase_add_test(tc, load_defaults_when_unset);
    tcase_add_test(tc, load_values_and_warn_on_garbage);
    tcase_add_test(tc, fingerprint_tracks_algorithm_choice_only);
    suite_add_tcase(s, tc);
    return ig_run_suite(s);
}
