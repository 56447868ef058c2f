/*
 * test_regress.c - every input the fuzzers ever crashed on, replayed.
 *
 * Each file in tests/data/regress/ is a minimized crashing input, named
 * <target>-<short-name>; the prefix picks the fuzz target whose entry point
 * replays it: lines-, rules-, ndjson-, docs-, num-, scan-, discover-
 * (fuzz/fuzz_<target>.c, compiled in here with FUZZ_NO_MAIN, so the
 * replay runs exactly the fuzzer's checks). A crash, a broken invariant (abort) or, in the ASan
 * build (make check-asan), a memory error is a signal that Criterion
 * reports as a crashed test naming the file.
 *
 * tests/data/regress/OPEN lists the files whose bug is not fixed yet (one
 * name a line, '#' comments): they are skipped with a message, so that
 * make check stays green; remove a name when its bug is fixed.
 *
 * Run from the repository root (make check does).
 */
#define FUZZ_NO_MAIN
#include "../fuzz/fuzz_discover.c"
#include "../fuzz/fuzz_docs.c"
#include "../fuzz/fuzz_lines.c"
#include "../fuzz/fuzz_ndjson.c"
#include "../fuzz/fuzz_num.c"
#include "../fuzz/fuzz_rules.c"
#include "../fuzz/fuzz_scan.c"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>

#define REGRESS_DIR "tests/data/regress"

typedef int (*fz_entry)(const uint8_t *, size_t);

static const struct {
	const char *prefix;
	fz_entry fn;
} targets[] = {
	{ "lines-", fuzz_lines_one }, { "rules-", fuzz_rules_one }, { "ndjson-", fuzz_ndjson_one },
	{ "docs-", fuzz_docs_one },   { "num-", fuzz_num_one },	  { "scan-", fuzz_scan_one },
	{ "discover-", fuzz_discover_one },
};

static fz_entry target_of(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(targets); i++)
		if (strncmp(name, targets[i].prefix, strlen(targets[i].prefix)) == 0)
			return targets[i].fn;
	return NULL;
}

/* The file in an allocation of exactly its size (so ASan sees overreads). */
static uint8_t *slurp_exact(const char *path, size_t *n)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[65536];
	size_t k;
	FILE *fp = fopen(path, "rb");
	cr_assert_not_null(fp, "%s: %s", path, strerror(errno));
	while ((k = fread(buf, 1, sizeof(buf), fp)) > 0)
		strbuf_add(&sb, buf, k);
	fclose(fp);
	*n = sb.len;
	uint8_t *d = malloc(sb.len ? sb.len : 1);
	cr_assert_not_null(d);
	if (sb.len)
		memcpy(d, sb.buf, sb.len);
	strbuf_release(&sb);
	return d;
}

/* Whether name is listed in REGRESS_DIR/OPEN (a bug not fixed yet). */
static int is_open(const char *name)
{
	FILE *fp = fopen(REGRESS_DIR "/OPEN", "r");
	char line[512];
	int found = 0;
	if (!fp)
		return 0;
	while (!found && fgets(line, sizeof(line), fp)) {
		line[strcspn(line, " \t\r\n#")] = '\0';
		found = line[0] && strcmp(line, name) == 0;
	}
	fclose(fp);
	return found;
}

struct regress_case {
	char name[256];
};

static void free_cases(struct criterion_test_params *crp)
{
	cr_free(crp->params);
}

static int is_input(const struct dirent *d)
{
	return d->d_name[0] != '.' && strcmp(d->d_name, "OPEN") != 0 &&
	       strcmp(d->d_name, "README") != 0;
}

ParameterizedTestParameters(regress, replay)
{
	struct dirent **list = NULL;
	int n = scandir(REGRESS_DIR, &list, is_input, alphasort);
	size_t k = n > 0 ? (size_t)n : 0;
	/* at least one case, so that a missing directory is a failure */
	struct regress_case *cases = cr_malloc(sizeof(*cases) * (k ? k : 1));
	memset(cases, 0, sizeof(*cases) * (k ? k : 1));
	for (size_t i = 0; i < k; i++) {
		snprintf(cases[i].name, sizeof(cases[i].name), "%s", list[i]->d_name);
		free(list[i]);
	}
	free(list);
	return cr_make_param_array(struct regress_case, cases, k ? k : 1, free_cases);
}

ParameterizedTest(struct regress_case *c, regress, replay, .timeout = 60)
{
	char path[512];
	size_t n;

	cr_assert(c->name[0], "no inputs in " REGRESS_DIR " (run from the repository root)");
	fz_entry fn = target_of(c->name);
	cr_assert_not_null(fn, "%s: the name must start with lines-, rules-, ndjson-, docs- or num-",
			   c->name);
	if (is_open(c->name))
		cr_skip_test("%s: open bug (listed in " REGRESS_DIR "/OPEN)", c->name);
	snprintf(path, sizeof(path), REGRESS_DIR "/%s", c->name);
	uint8_t *d = slurp_exact(path, &n);
	/* on stderr, so that a crash report names its input */
	fprintf(stderr, "test_regress: replaying %s (%zu bytes)\n", path, n);
	cr_assert_eq(fn(d, n), 0, "%s", path);
	free(d);
}

/* The entry points themselves on inputs that must pass: the harness works. */
Test(regress, entry_points_accept_good_inputs)
{
	static const char log[] = "[2024-10-13 22:30:01] [TIMING] Argument parsing: 0.12s\n"
				  "[STAGE] Model loading\n"
				  "[Performance] fwd: 1.234s, CPU +250.5MB, GPU +512.0MB\n"
				  "  GPU peak: 1024.3MB\n";
	static const char rules[] = "timing ^\\[TIME\\] (?<name>\\w+)=(?<seconds>\\S+)$\n"
				    "[TIME] fwd=1.5s\n[TIME] bad=x\n";
	static const char nd[] = "{\"type\":\"timing\",\"file\":\"a\",\"line\":3,\"name\":\"x\","
				 "\"seconds\":1.5}\n{\"type\":\"nosuch\"}\n[1,2]\n";
	static const char doc[] = "Section,Model,Time (s)\nS1,MLP,1.5\n";
	static const char num[] = "2345.67s (39.09min)";
	cr_assert_eq(fuzz_lines_one((const uint8_t *)log, sizeof(log) - 1), 0);
	cr_assert_eq(fuzz_rules_one((const uint8_t *)rules, sizeof(rules) - 1), 0);
	cr_assert_eq(fuzz_ndjson_one((const uint8_t *)nd, sizeof(nd) - 1), 0);
	cr_assert_eq(fuzz_docs_one((const uint8_t *)doc, sizeof(doc) - 1), 0);
	cr_assert_eq(fuzz_num_one((const uint8_t *)num, sizeof(num) - 1), 0);
	static const char disc[] = "|E2E latency=7.99s |Generate time=5.26s (65.81%) |Others=0.22 (2.73%)\n"
				   "|E2E latency=3.73s |Generate time=2.78s (74.61%) |Others=0.21 (5.55%)\n"
				   "|E2E latency=3.91s |Generate time=2.79s (71.38%) |Others=0.30 (7.63%)\n"
				   " 20%|##        | 2/10 [00:00<00:01,  7.43it/s]\r 30%|###       | 3/10\n";
	cr_assert_eq(fuzz_discover_one((const uint8_t *)disc, sizeof(disc) - 1), 0);
}

/* A regression input with an unknown prefix would never run: none may exist. */
Test(regress, every_input_names_its_target)
{
	struct dirent **list = NULL;
	int n = scandir(REGRESS_DIR, &list, is_input, alphasort);
	cr_assert_gt(n, 0, REGRESS_DIR " is missing or empty");
	for (int i = 0; i < n; i++) {
		cr_expect_not_null(target_of(list[i]->d_name), "%s: unknown target prefix",
				   list[i]->d_name);
		free(list[i]);
	}
	free(list);
}
