/*
 * test_rules.c - unit tests of user-defined formats (parse/rules/rules.c):
 * loading and its error messages, capture-to-field conversion, warnings
 * for unreadable values, first-match-wins, the match limit on a
 * catastrophic pattern, sharing one rule set between threads, and the
 * bundled sample (samples/rules/custom.rules on samples/custom-format.log).
 *
 * The collecting sink is local (prefix rt_) so that this suite does not
 * depend on what tests/testutil.h provides.
 */
#include <criterion/criterion.h>

#include "testutil.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parse/record.h"
#include "parse/rules/rules.h"
#include "base/util.h"

/* A record with owned copies of its strings. */
struct rt_rec {
	enum tp_type type;
	uint64_t line;
	char *file, *name, *text, *ts;
	int rank;
	double num[TP_NUM_SLOTS];
	unsigned has;
};

struct rt_sink {
	struct rt_rec *recs;
	size_t n, alloc;
	size_t nwarn;
	char last_warn[512];
	uint64_t last_warn_line;
};

static char *rt_dup(const char *s, size_t n)
{
	return s ? xmemdup(s, n) : NULL;
}

static int rt_emit(void *ctx, const struct tp_record *r)
{
	struct rt_sink *k = ctx;
	ALLOC_GROW(k->recs, k->n + 1, k->alloc);
	struct rt_rec *c = &k->recs[k->n++];
	c->type = r->type;
	c->line = r->line;
	c->file = xstrdup(r->file);
	c->name = rt_dup(r->name, r->name_len);
	c->text = rt_dup(r->text, r->text_len);
	c->ts = r->ts ? xstrdup(r->ts) : NULL;
	c->rank = r->rank;
	memcpy(c->num, r->num, sizeof(c->num));
	c->has = r->has;
	return 0;
}

static void rt_warn(void *ctx, const char *file, uint64_t line, const char *msg)
{
	struct rt_sink *k = ctx;
	(void)file;
	k->nwarn++;
	k->last_warn_line = line;
	snprintf(k->last_warn, sizeof(k->last_warn), "%s", msg);
}

static void rt_clear(struct rt_sink *k)
{
	for (size_t i = 0; i < k->n; i++) {
		free(k->recs[i].file);
		free(k->recs[i].name);
		free(k->recs[i].text);
		free(k->recs[i].ts);
	}
	free(k->recs);
	memset(k, 0, sizeof(*k));
}

/* Compiles rules text that must load. */
static struct tp_rules *rt_load(const char *text)
{
	struct strbuf err = STRBUF_INIT;
	struct tp_rules *r = tp_rules_compile(text, strlen(text), "t.rules", &err);
	cr_assert_not_null(r, "rules failed to load: %s", err.buf ? err.buf : "");
	strbuf_release(&err);
	return r;
}

/* Compiles rules text that must fail; returns the message (caller frees). */
static char *rt_load_error(const char *text)
{
	struct strbuf err = STRBUF_INIT;
	struct tp_rules *r = tp_rules_compile(text, strlen(text), "t.rules", &err);
	cr_assert_null(r, "rules loaded but should not have: %s", text);
	cr_assert(err.len > 0, "no error message");
	return err.buf;
}

/* Rules text that must fail to load with a message holding want. */
static void rt_expect_load_error(const char *text, const char *want)
{
	char *e = rt_load_error(text);
	cr_expect(strstr(e, want), "%s: %s", want, e);
	free(e);
}

/* Matches one line against rules, collecting into k; returns tp_rules_match's result. */
static int rt_match(const struct tp_rules *r, struct rt_sink *k, const char *line)
{
	struct tp_sink s = { rt_emit, rt_warn, k };
	return tp_rules_match(r, NULL, line, strlen(line), "log", 7, &s);
}

static double rec_num(const struct rt_rec *c, int slot)
{
	cr_assert(tp_has_slot(c->has, slot), "slot %d not set", slot);
	return c->num[slot];
}

/* Converted values: equal to 1e-9 relative (unit scaling may round). */
static void rt_eq(double got, double want)
{
	cr_assert_float_eq(got, want, 1e-9 * (fabs(want) + 1), "%.17g != %.17g", got, want);
}
#define RT_EQ(a, b) rt_eq((a), (double)(b))

/* ---- the two examples from the issue ----------------------------------- */

Test(rules, example_timing)
{
	struct tp_rules *r = rt_load("timing  \\[TIME\\] (?<name>\\w+)=(?<seconds>\\S+)\n");
	struct rt_sink k = { 0 };
	cr_assert_eq(rt_match(r, &k, "[TIME] stage=1.234s"), 1);
	cr_assert_eq(k.n, 1);
	cr_assert_eq(k.recs[0].type, TP_TIMING);
	cr_assert_str_eq(k.recs[0].name, "stage");
	cr_assert_eq(rec_num(&k.recs[0], S_SECONDS), 1.234);
	cr_assert_str_eq(k.recs[0].file, "log");
	cr_assert_eq(k.recs[0].line, 7);
	cr_assert_eq(k.recs[0].rank, -1);
	cr_assert_null(k.recs[0].ts);
	cr_assert_eq(k.recs[0].has, TP_HAS(S_SECONDS));
	cr_assert_eq(k.nwarn, 0);
	rt_clear(&k);
	tp_rules_free(r);
}

Test(rules, example_aggregate)
{
	struct tp_rules *r = rt_load(
		"aggregate ^(?<name>\\S+)\\s+total=\\s*(?<total_s>.+?)\\s+mean=\\s*(?<mean_s>\\S+)"
		"\\s+calls=\\s*(?<count>\\d+)\n");
	struct rt_sink k = { 0 };
	cr_assert_eq(rt_match(r, &k, "stage total=  10.123 sec mean= 1.2 calls= 3"), 1);
	cr_assert_eq(k.n, 1);
	cr_assert_eq(k.recs[0].type, TP_AGGREGATE);
	cr_assert_str_eq(k.recs[0].name, "stage");
	cr_assert_eq(rec_num(&k.recs[0], S_AGG_TOTAL_S), 10.123);
	cr_assert_eq(rec_num(&k.recs[0], S_AGG_MEAN_S), 1.2);
	cr_assert_eq(rec_num(&k.recs[0], S_AGG_COUNT), 3);
	cr_assert_eq(k.recs[0].has,
		     TP_HAS(S_AGG_TOTAL_S) | TP_HAS(S_AGG_MEAN_S) | TP_HAS(S_AGG_COUNT));
	rt_clear(&k);
	tp_rules_free(r);
}

/* ---- conversions -------------------------------------------------------- */

Test(rules, durations_to_seconds)
{
	struct tp_rules *r = rt_load("timing T (?<name>\\w+) (?<seconds>.+)\n");
	static const struct { const char *line; double s; } cases[] = {
		{ "T a 12ms", 0.012 },          { "T a 2.5 min", 150 },
		{ "T a 3", 3 },                 { "T a 1.5h", 5400 },
		{ "T a 250us", 0.00025 },       { "T a 1,234.5 sec", 1234.5 },
		{ "T a 2345.67s (39.09min)", 2345.67 },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct rt_sink k = { 0 };
		cr_assert_eq(rt_match(r, &k, cases[i].line), 1, "%s: %s", cases[i].line,
			     k.last_warn);
		RT_EQ(rec_num(&k.recs[0], S_SECONDS), cases[i].s);
		rt_clear(&k);
	}
	tp_rules_free(r);
}

Test(rules, durations_to_ms)
{
	struct tp_rules *r = rt_load(
		"latency L (?<name>\\w+) mean=(?<mean_ms>[^,]+), max=(?<max_ms>[^,]+)\n");
	struct rt_sink k = { 0 };
	cr_assert_eq(rt_match(r, &k, "L fwd mean=1.2, max=1.5s"), 1, "%s", k.last_warn);
	cr_assert_eq(rec_num(&k.recs[0], S_LAT_MEAN_MS), 1.2); /* bare = ms, exact */
	RT_EQ(rec_num(&k.recs[0], S_LAT_MAX_MS), 1500);
	cr_assert_eq(rt_match(r, &k, "L fwd mean=3.25 ms, max=250us"), 1, "%s", k.last_warn);
	cr_assert_eq(rec_num(&k.recs[1], S_LAT_MEAN_MS), 3.25);
	RT_EQ(rec_num(&k.recs[1], S_LAT_MAX_MS), 0.25);
	rt_clear(&k);
	tp_rules_free(r);
}

Test(rules, memory_and_plain_numbers)
{
	struct rt_sink k = { 0 };
	struct tp_rules *r =
		rt_load("summary section=\"Train\" (?<name>\\w+): (?<seconds>\\S+) (?<percent>\\S+) "
		    "cpu=(?<cpu_mb>.+?) gpu=(?<gpu_mb>.+)$\n"
		    "speedup (?<name>\\w+) is (?<factor>\\S+) faster than (?<baseline>\\w+)\n"
		    "flops (?<name>\\w+) (?<gflops>.+)\n");
	cr_assert_eq(rt_match(r, &k, "fwd: 1.5s 12.5% cpu=2 GB gpu=512"), 1, "%s", k.last_warn);
	struct rt_rec *c = &k.recs[0];
	cr_assert_str_eq(c->text, "Train");
	cr_assert_eq(rec_num(c, S_SECONDS), 1.5);
	cr_assert_eq(rec_num(c, S_SUM_PERCENT), 12.5);
	cr_assert_eq(rec_num(c, S_SUM_CPU_MB), 2048);
	cr_assert_eq(rec_num(c, S_SUM_GPU_MB), 512);
	cr_assert_eq(rt_match(r, &k, "kan is 2.5x faster than mlp"), 1, "%s", k.last_warn);
	cr_assert_eq(rec_num(&k.recs[1], S_SPD_FACTOR), 2.5);
	cr_assert_str_eq(k.recs[1].text, "mlp");
	cr_assert_eq(rt_match(r, &k, "model 12.75 GFLOPs"), 1, "%s", k.last_warn);
	cr_assert_eq(rec_num(&k.recs[2], S_FLOPS_GFLOPS), 12.75);
	rt_clear(&k);
	tp_rules_free(r);
}

Test(rules, constant_unit_error_names_field)
{
	char *e = rt_load_error("summary sec=\"Train\" (?<name>\\w+)\n");
	cr_assert(strstr(e, "t.rules:1:9:") && strstr(e, "'sec'"), "%s", e);
	free(e);
}

Test(rules, meta_value_number_or_text)
{
	struct tp_rules *r = rt_load("meta ^(?<key>\\w+) = (?<value>.+)$\n");
	struct rt_sink k = { 0 };
	cr_assert_eq(rt_match(r, &k, "lr = 3e-4"), 1);
	cr_assert_eq(rt_match(r, &k, "optim = adamw"), 1);
	cr_assert_str_eq(k.recs[0].name, "lr");
	cr_assert_eq(rec_num(&k.recs[0], S_META_VALUE), 3e-4);
	cr_assert_null(k.recs[0].text);
	cr_assert_eq(k.recs[1].has, 0);
	cr_assert_str_eq(k.recs[1].text, "adamw");
	rt_clear(&k);
	tp_rules_free(r);
}

Test(rules, ts_and_rank)
{
	struct tp_rules *r = rt_load(
		"timing ^(?<ts>\\S+ \\S+) \\[rank(?<rank>\\d+)\\] (?<name>\\w+) took (?<seconds>\\S+)\n");
	struct rt_sink k = { 0 };
	cr_assert_eq(rt_match(r, &k, "2024-10-13 22:30:00,123456 [rank3] fwd took 2s"), 1,
		     "%s", k.last_warn);
	cr_assert_str_eq(k.recs[0].ts, "2024-10-13T22:30:00.123");
	cr_assert_eq(k.recs[0].rank, 3);
	cr_assert_eq(rt_match(r, &k, "2024-13-13 22:30:00 [rank3] fwd took 2s"), -1);
	cr_assert(strstr(k.last_warn, "'ts'"), "%s", k.last_warn);
	cr_assert_eq(rt_match(r, &k, "2024-10-13 22:30:00 [rank99999999999] fwd took 2s"), -1);
	cr_assert(strstr(k.last_warn, "'rank'"), "%s", k.last_warn);
	cr_assert_eq(k.n, 1);
	rt_clear(&k);
	tp_rules_free(r);
}

/* ---- constants, defaults, alternatives ---------------------------------- */

Test(rules, constant_name_with_escapes)
{
	struct tp_rules *r = rt_load("timing name=\"load \\\"ckpt\\\" \\\\ x\" ^LOAD (?<seconds>\\S+)\n");
	struct rt_sink k = { 0 };
	cr_assert_eq(rt_match(r, &k, "LOAD 4.5s"), 1);
	cr_assert_str_eq(k.recs[0].name, "load \"ckpt\" \\ x");
	cr_assert_eq(rec_num(&k.recs[0], S_SECONDS), 4.5);
	rt_clear(&k);
	tp_rules_free(r);
}

Test(rules, capture_overrides_constant_default)
{
	struct tp_rules *r = rt_load(
		"aggregate name=\"step\" count=\"1\" ^(?:(?<name>\\w+): )?total=(?<total_s>\\S+)"
		"(?: n=(?<count>\\d*))?\n");
	struct rt_sink k = { 0 };
	cr_assert_eq(rt_match(r, &k, "total=2s"), 1);
	cr_assert_eq(rt_match(r, &k, "fwd: total=3s n=5"), 1);
	cr_assert_eq(rt_match(r, &k, "fwd: total=3s n="), 1); /* empty group = absent */
	cr_assert_str_eq(k.recs[0].name, "step");
	cr_assert_eq(rec_num(&k.recs[0], S_AGG_COUNT), 1);
	cr_assert_str_eq(k.recs[1].name, "fwd");
	cr_assert_eq(rec_num(&k.recs[1], S_AGG_COUNT), 5);
	cr_assert_eq(rec_num(&k.recs[2], S_AGG_COUNT), 1);
	rt_clear(&k);
	tp_rules_free(r);
}

Test(rules, duplicate_names_in_alternatives)
{
	struct tp_rules *r = rt_load(
		"timing (?<name>\\w+) (?:in (?<seconds>\\S+)|took (?<seconds>\\d+) seconds)\n");
	struct rt_sink k = { 0 };
	cr_assert_eq(rt_match(r, &k, "a in 2ms"), 1, "%s", k.last_warn);
	cr_assert_eq(rt_match(r, &k, "b took 7 seconds"), 1, "%s", k.last_warn);
	RT_EQ(rec_num(&k.recs[0], S_SECONDS), 0.002);
	cr_assert_eq(rec_num(&k.recs[1], S_SECONDS), 7);
	rt_clear(&k);
	tp_rules_free(r);
}

Test(rules, first_match_wins)
{
	struct tp_rules *r = rt_load("timing name=\"first\" x=(?<seconds>\\d+)\n"
				     "timing name=\"second\" x=(?<seconds>\\d+)\n"
				     "stage ^y (?<name>\\w+)\n");
	struct rt_sink k = { 0 };
	cr_assert_eq(rt_match(r, &k, "x=5"), 1);
	cr_assert_eq(rt_match(r, &k, "y go"), 1);
	cr_assert_eq(k.n, 2);
	cr_assert_str_eq(k.recs[0].name, "first");
	cr_assert_eq(k.recs[1].type, TP_STAGE);
	cr_assert_str_eq(k.recs[1].name, "go");
	rt_clear(&k);
	tp_rules_free(r);
}

/* ---- the file format ----------------------------------------------------- */

Test(rules, comments_blanks_crlf_bom)
{
	const char *text = "\xEF\xBB\xBF# my format\r\n\r\n   # indented comment\n"
			   "  timing\t\\[T\\] (?<name>\\w+)=(?<seconds>\\S+)   \r\n\n";
	struct tp_rules *r = rt_load(text);
	cr_assert_eq(tp_rules_count(r), 1);
	struct rt_sink k = { 0 };
	cr_assert_eq(rt_match(r, &k, "[T] a=1\r"), 1, "%s", k.last_warn);
	cr_assert_eq(rec_num(&k.recs[0], S_SECONDS), 1);
	rt_clear(&k);
	tp_rules_free(r);
}

Test(rules, empty_rules_match_nothing)
{
	struct tp_rules *r = rt_load("# nothing\n\n");
	struct rt_sink k = { 0 };
	cr_assert_eq(tp_rules_count(r), 0);
	cr_assert_eq(rt_match(r, &k, "anything"), 0);
	tp_rules_free(r);
}

Test(rules, bad_pattern_position)
{
	/* "timing  " is 8 columns, so the pattern starts in column 9; PCRE2
	 * reports the quantifier '*' at pattern offset 8 -> column 17 */
	char *e = rt_load_error("# c\n\ntiming  (?<name>*)x(?<seconds>\\d+)\n");
	cr_assert(strstr(e, "t.rules:3:17:"), "%s", e);
	cr_assert(strstr(e, "quantifier"), "PCRE2's text expected: %s", e);
	free(e);
	/* columns count characters, not bytes: the 2-byte µ is one column, and
	 * the unclosed '(' is reported at the end of the pattern, column 21 */
	e = rt_load_error("stage \xc2\xb5(?<name>\\w+)(\n");
	cr_assert(strstr(e, "t.rules:1:21:") && strstr(e, "parenthesis"), "%s", e);
	free(e);
}

Test(rules, unknown_capture_name)
{
	char *e = rt_load_error("timing\t(?<name>\\w+) (?<secs>\\S+)\n");
	cr_assert(strstr(e, "t.rules:1:24:"), "%s", e); /* the name "secs" itself */
	cr_assert(strstr(e, "'secs'") && strstr(e, "seconds"), "%s", e);
	free(e);
}

Test(rules, unknown_type)
{
	char *e = rt_load_error("timing (?<name>a)(?<seconds>1)\ntimings (?<name>a)\n");
	cr_assert(strstr(e, "t.rules:2:1:") && strstr(e, "\"timings\""), "%s", e);
	free(e);
}

Test(rules, other_load_errors)
{
	static const struct { const char *text, *want; } cases[] = {
		{ "timing\n", "t.rules:1:7: missing pattern" },
		{ "timing name=\"x\"\n", "t.rules:1:16: missing pattern" },
		{ "timing x(?<seconds>\\d)\n", "t.rules:1:1: a 'timing' rule needs a 'name'" },
		{ "timing name=\"x\n", "t.rules:1:13: unterminated" },
		{ "timing name=\"x\"y z\n", "t.rules:1:16: expected a blank" },
		{ "timing name=\"x\" name=\"y\" z\n", "t.rules:1:17: field 'name' given twice" },
		{ "timing name=\"x\" seconds=\"abc\" z\n", "cannot read \"abc\" as a duration" },
		{ "timing name=\"\" z\n", "t.rules:1:14: cannot read \"\"" },
		{ "timing name=\"x\" rank=\"-1\" z\n", "as a rank" },
		{ "meta key=\"a\" bogus=\"1\" z\n", "type 'meta' has no field 'bogus'" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *e = rt_load_error(cases[i].text);
		cr_assert(strstr(e, cases[i].want), "case %zu: got %s, want %s", i, e,
			  cases[i].want);
		free(e);
	}
}

/* ---- runtime warnings and limits ---------------------------------------- */

Test(rules, unreadable_capture_warns)
{
	struct tp_rules *r = rt_load("\ntiming \\[TIME\\] (?<name>\\w+)=(?<seconds>\\S+)\n");
	struct rt_sink k = { 0 };
	cr_assert_eq(rt_match(r, &k, "[TIME] stage=abc"), -1);
	cr_assert_eq(k.n, 0);
	cr_assert_eq(k.nwarn, 1);
	cr_assert_eq(k.last_warn_line, 7);
	cr_assert(strstr(k.last_warn, "t.rules:2") && strstr(k.last_warn, "'seconds'") &&
		  strstr(k.last_warn, "\"abc\""), "%s", k.last_warn);
	cr_assert_eq(rt_match(r, &k, "[TIME] stage=1.5xs"), -1);
	cr_assert_eq(rt_match(r, &k, "[TIME] stage=nan"), -1); /* durations must be finite */
	cr_assert_eq(k.nwarn, 3);
	rt_clear(&k);
	tp_rules_free(r);
}

Test(rules, non_matching_lines_produce_nothing)
{
	struct tp_rules *r = rt_load("timing \\[TIME\\] (?<name>\\w+)=(?<seconds>\\S+)\n");
	struct rt_sink k = { 0 };
	static const char *lines[] = { "", "[TIME]", "[TIME] =1s", "TIME stage=1s",
				       "[2024-10-13 22:30:00] [TIMING] x: 1s" };
	for (size_t i = 0; i < ARRAY_SIZE(lines); i++)
		cr_assert_eq(rt_match(r, &k, lines[i]), 0, "%s", lines[i]);
	struct tp_sink s = { rt_emit, rt_warn, &k };
	cr_assert_eq(tp_rules_match(r, NULL, NULL, 0, "log", 1, &s), 0);
	cr_assert_eq(k.n, 0);
	cr_assert_eq(k.nwarn, 0);
	tp_rules_free(r);
}

Test(rules, catastrophic_pattern_terminates, .timeout = 20)
{
	struct tp_rules *r = rt_load("timing name=\"x\" (a+)+$\n"
				     "stage ^(?<name>a{3})\n");
	size_t n = 100 * 1024;
	char *line = xmalloc(n + 2);
	memset(line, 'a', n);
	line[n] = 'b';
	line[n + 1] = '\0';
	struct rt_sink k = { 0 };
	struct tp_rules_scratch *sc = tp_rules_scratch_new(r);
	struct tp_sink s = { rt_emit, rt_warn, &k };
	/* the first rule gives up (warning), the second still gets its turn */
	cr_assert_eq(tp_rules_match(r, sc, line, n + 1, "log", 1, &s), 1);
	cr_assert_eq(k.nwarn, 1);
	cr_assert(strstr(k.last_warn, "limit"), "%s", k.last_warn);
	cr_assert_eq(k.n, 1);
	cr_assert_eq(k.recs[0].type, TP_STAGE);
	line[0] = 'b'; /* now only the catastrophic rule can match: -1, nothing emitted */
	cr_assert_eq(tp_rules_match(r, sc, line, n + 1, "log", 2, &s), -1);
	cr_assert_eq(k.n, 1);
	cr_assert_eq(k.nwarn, 2);
	tp_rules_scratch_free(sc);
	free(line);
	rt_clear(&k);
	tp_rules_free(r);
}

Test(rules, invalid_utf8_line_with_utf_pattern)
{
	struct tp_rules *r = rt_load("stage (*UTF)^(?<name>\\S+)\n");
	struct rt_sink k = { 0 };
	cr_assert_eq(rt_match(r, &k, "ab\xff\xfe"), -1);
	cr_assert_eq(k.nwarn, 1);
	cr_assert_eq(rt_match(r, &k, "\xc3\xa9t\xc3\xa9 x"), 1);
	cr_assert_str_eq(k.recs[0].name, "\xc3\xa9t\xc3\xa9");
	rt_clear(&k);
	tp_rules_free(r);
}

Test(rules, warning_excerpt_is_bounded_and_clean)
{
	struct tp_rules *r = rt_load("timing name=\"x\" ^T (?<seconds>.*)$\n");
	struct rt_sink k = { 0 };
	char line[300] = "T ";
	memset(line + 2, 'z', 250);
	line[10] = '\x1b';
	line[252] = '\0';
	cr_assert_eq(rt_match(r, &k, line), -1);
	cr_assert(strstr(k.last_warn, "...\""), "%s", k.last_warn);
	cr_assert_null(strchr(k.last_warn, '\x1b'));
	cr_assert(strlen(k.last_warn) < 200, "%s", k.last_warn);
	rt_clear(&k);
	tp_rules_free(r);
}

/* ---- scratch reuse and sharing between threads ---------------------------- */

struct rt_thread {
	const struct tp_rules *r;
	size_t got;
	int bad;
};

static int rt_count_emit(void *ctx, const struct tp_record *rec)
{
	struct rt_thread *t = ctx;
	t->bad |= rec->name_len != 1 || rec->num[S_SECONDS] != (double)(rec->name[0] - 'a');
	t->got++;
	return 0;
}

static void *rt_thread_main(void *arg)
{
	struct rt_thread *t = arg;
	struct tp_rules_scratch *sc = tp_rules_scratch_new(t->r);
	struct tp_sink s = { rt_count_emit, NULL, t };
	char line[32];
	for (int i = 0; i < 20000; i++) {
		int c = i % 26;
		int n = snprintf(line, sizeof(line), "[T] %c=%d", 'a' + c, c);
		tp_rules_match(t->r, sc, line, (size_t)n, "log", (uint64_t)i + 1, &s);
	}
	tp_rules_scratch_free(sc);
	return NULL;
}

Test(rules, shared_between_threads)
{
	struct tp_rules *r = rt_load("timing \\[T\\] (?<name>\\w+)=(?<seconds>\\S+)\n");
	pthread_t th[4];
	struct rt_thread st[4];
	for (int i = 0; i < 4; i++) {
		st[i] = (struct rt_thread){ r, 0, 0 };
		cr_assert_eq(pthread_create(&th[i], NULL, rt_thread_main, &st[i]), 0);
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(th[i], NULL);
		cr_assert_eq(st[i].got, 20000);
		cr_assert_eq(st[i].bad, 0);
	}
	tp_rules_free(r);
}

/* ---- files ----------------------------------------------------------------- */

Test(rules, load_from_file_and_io_errors)
{
	char path[] = "/tmp/tprof-rules-XXXXXX";
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	const char *text = "stage ^S (?<name>\\w+)\ntiming ^T (?<name>\\w+\n";
	cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	struct strbuf err = STRBUF_INIT;
	cr_assert_null(tp_rules_load(path, &err));
	cr_assert(strstr(err.buf, path) && strstr(err.buf, ":2:"), "%s", err.buf);
	strbuf_reset(&err);
	unlink(path);
	cr_assert_null(tp_rules_load(path, &err));
	cr_assert(strstr(err.buf, "No such file"), "%s", err.buf);
	strbuf_reset(&err);
	cr_assert_null(tp_rules_load("/tmp", &err)); /* a directory */
	cr_assert(err.len > 0);
	strbuf_release(&err);
}

/* Reads a whole file (test helper); NULL if absent. */
static char *rt_slurp(const char *path, size_t *n)
{
	FILE *fp = fopen(path, "rb");
	if (!fp)
		return NULL;
	struct strbuf sb = STRBUF_INIT;
	char buf[4096];
	size_t got;
	while ((got = fread(buf, 1, sizeof(buf), fp)) > 0)
		strbuf_add(&sb, buf, got);
	fclose(fp);
	*n = sb.len;
	return sb.buf ? sb.buf : xstrdup("");
}

Test(rules, bundled_sample)
{
	struct strbuf err = STRBUF_INIT;
	struct tp_rules *r = tp_rules_load("samples/rules/custom.rules", &err);
	cr_assert_not_null(r, "run from the repository root: %s", err.buf);
	size_t n;
	char *log = rt_slurp("samples/custom-format.log", &n);
	cr_assert_not_null(log);
	struct rt_sink k = { 0 };
	struct tp_sink s = { rt_emit, rt_warn, &k };
	struct tp_rules_scratch *sc = tp_rules_scratch_new(r);
	uint64_t lineno = 0;
	for (char *p = log, *end = log + n; p < end;) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		char *e = nl ? nl : end;
		tp_rules_match(r, sc, p, (size_t)(e - p), "custom-format.log", ++lineno, &s);
		p = nl ? nl + 1 : end;
	}
	size_t per_type[TP_NTYPES] = { 0 };
	for (size_t i = 0; i < k.n; i++)
		per_type[k.recs[i].type]++;
	cr_assert_eq(k.nwarn, 1, "one deliberately bad line; got %zu: %s", k.nwarn,
		     k.last_warn);
	cr_assert_eq(per_type[TP_TIMING], 4);
	cr_assert_eq(per_type[TP_AGGREGATE], 3);
	cr_assert_eq(per_type[TP_STAGE], 2);
	cr_assert_eq(per_type[TP_MEMORY], 2);
	cr_assert_eq(per_type[TP_META], 2);
	cr_assert_eq(k.n, 13);
	tp_rules_scratch_free(sc);
	rt_clear(&k);
	free(log);
	strbuf_release(&err);
	tp_rules_free(r);
}

/* ---- robustness: arbitrary bytes as rules and as lines ---------------------- */

Test(rules, random_rules_and_lines_do_not_crash)
{
	static const char alphabet[] = "timngstaeu ()[]{}?*+|\\<>'\"=:.,#$^dwsS0123\n\t\xc2\xb5\xff";
	unsigned seed = 12345;
	for (int iter = 0; iter < 3000; iter++) {
		char text[96];
		size_t n = 0;
		/* half the inputs start like a rule so that patterns get compiled */
		static const char *heads[] = { "timing name=\"x\" ", "stage (?<name>", "meta " };
		if (iter % 2)
			n = (size_t)snprintf(text, sizeof(text), "%s", heads[iter / 2 % 3]);
		while (n < sizeof(text) - 1 && (seed = seed * 1103515245u + 12345u) % 97) {
			text[n++] = alphabet[(seed >> 16) % (sizeof(alphabet) - 1)];
		}
		struct strbuf err = STRBUF_INIT;
		struct tp_rules *r = tp_rules_compile(text, n, "fz", &err);
		cr_assert((r != NULL) == (err.len == 0));
		if (r) {
			struct rt_sink k = { 0 };
			struct tp_sink s = { rt_emit, rt_warn, &k };
			tp_rules_match(r, NULL, text, n, "fz", 1, &s);
			tp_rules_match(r, NULL, "x 1s 2024-01-01 00:00:00", 24, "fz", 2, &s);
			rt_clear(&k);
		}
		tp_rules_free(r);
		strbuf_release(&err);
	}
}

Test(rules, nan_in_a_numeric_capture_is_a_warning)
{
	struct strbuf err = STRBUF_INIT;
	static const char text[] = "summary ^(?<name>\\w+) (?<percent>\\S+)$\n";
	struct tp_rules *r = tp_rules_compile(text, sizeof(text) - 1, "t.rules", &err);
	cr_assert_not_null(r, "%s", err.buf ? err.buf : "");
	struct collector c = { 0 };
	struct tp_sink s = collect_sink(&c);
	cr_assert_eq(tp_rules_match(r, NULL, "a nan", 5, "t.log", 1, &s), -1);
	cr_assert_eq(c.n, 0);
	cr_assert_eq(c.nwarn, 1);
	collector_free(&c);
	tp_rules_free(r);
	strbuf_release(&err);
}

/* ---- rules v2 ---------------------------------------------------------------- */

/* Matches one line with the v2 entry point (raw = line, pass 0, hits). */
static int rt_match2(const struct tp_rules *r, struct tp_rules_scratch *s, struct rt_sink *k,
		     const char *line, uint64_t lineno, uint64_t *hits)
{
	struct tp_sink sink = { rt_emit, rt_warn, k };
	struct tp_rules_line ln = { line, strlen(line), line, strlen(line), 0, "log", lineno, hits, 0, -1, NULL };
	return tp_rules_match_pass(r, s, 0, &ln, &sink);
}

Test(rules_v2, each_makes_a_record_per_match)
{
	struct tp_rules *r = rt_load("timing @each \\| (?<name>\\w+): (?<seconds__ms>[\\d.]+)\n");
	struct rt_sink k = { 0 };
	cr_assert_eq(rt_match(r, &k, "time (ms) | forward: 412.3 | backward: 890.1 | optimizer: 12.0"), 1);
	cr_assert_eq(k.n, 3);
	cr_expect_str_eq(k.recs[1].name, "backward");
	RT_EQ(rec_num(&k.recs[1], S_SECONDS), 0.8901);
	RT_EQ(rec_num(&k.recs[2], S_SECONDS), 0.012);
	rt_clear(&k);
	tp_rules_free(r);
}

Test(rules_v2, more_lets_later_rules_read_the_same_line)
{
	struct tp_rules *r = rt_load("timing @more name=\"batch\" Time: (?<seconds>[\\d.]+s)\n"
				     "rate name=\"train\" unit=\"samples/s\" , +(?<value>[\\d.]+)/s\n"
				     "timing name=\"never\" Time\n");
	struct rt_sink k = { 0 };
	rt_match(r, &k, "Time: 0.345s,  742.1/s  (0.350s,  731.4/s)");
	cr_assert_eq(k.n, 2, "the rule after @more is tried, the one after that is not");
	RT_EQ(rec_num(&k.recs[0], S_SECONDS), 0.345);
	cr_expect_eq(k.recs[1].type, TP_RATE);
	RT_EQ(rec_num(&k.recs[1], S_RATE_VALUE), 742.1);
	cr_expect_str_eq(k.recs[1].text, "samples/s");
	rt_clear(&k);
	tp_rules_free(r);
}

Test(rules_v2, units_per_capture_and_unit_groups)
{
	struct tp_rules *r = rt_load("timing name=\"a\" ^a (?<seconds__us>\\S+)$\n"
				     "timing name=\"b\" ^b (?<seconds>[\\d.]+) (?<seconds__u>\\S+)$\n"
				     "latency name=\"c\" ^c (?<mean_ms__s>\\S+)$\n"
				     "timing name=\"d\" ^d (?<seconds__min>\\S+)$\n");
	struct rt_sink k = { 0 };
	rt_match(r, &k, "a 250");
	rt_match(r, &k, "b 31.69 ms");
	rt_match(r, &k, "c 1.5");
	rt_match(r, &k, "d 2");
	rt_match(r, &k, "a 3ms"); /* a unit on the value wins over the default */
	cr_assert_eq(k.n, 5);
	RT_EQ(rec_num(&k.recs[0], S_SECONDS), 250e-6);
	RT_EQ(rec_num(&k.recs[1], S_SECONDS), 0.03169);
	RT_EQ(rec_num(&k.recs[2], S_LAT_MEAN_MS), 1500);
	RT_EQ(rec_num(&k.recs[3], S_SECONDS), 120);
	RT_EQ(rec_num(&k.recs[4], S_SECONDS), 0.003);
	rt_clear(&k);
	tp_rules_free(r);
	char *e = rt_load_error("timing name=\"x\" (?<seconds__parsec>\\d+)\n");
	cr_expect(strstr(e, "unknown unit"), "%s", e);
	free(e);
	e = rt_load_error("memory name=\"x\" (?<mb__ms>\\d+)\n");
	cr_expect(strstr(e, "a unit suffix is for a duration field"), "%s", e);
	free(e);
}

Test(rules_v2, clock_forms)
{
	static const struct { const char *text; double sec; } cases[] = {
		{ "0:24:37.11", 1477.11 }, { "00:05", 5 }, { "1:02:03", 3723 },
		{ "1 day, 4:12:02", 86400 + 4 * 3600 + 12 * 60 + 2 }, { "3 days, 0:00:01.5", 3 * 86400 + 1.5 },
		{ "0m4.912s", 4.912 }, { "1h2m3s", 3723 }, { "2m8.77s", 128.77 }, { "68.0198ms", 0.0680198 },
		{ "1m30s", 90 },
	};
	struct tp_rules *r = rt_load("timing name=\"t\" ^t=(?<seconds>.+)$\n");
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct rt_sink k = { 0 };
		char line[64];
		snprintf(line, sizeof(line), "t=%s", cases[i].text);
		cr_assert_eq(rt_match(r, &k, line), 1, "%s: %s", cases[i].text, k.last_warn);
		RT_EQ(rec_num(&k.recs[0], S_SECONDS), cases[i].sec);
		rt_clear(&k);
	}
	struct rt_sink k = { 0 };
	cr_expect_eq(rt_match(r, &k, "t=1:75:00"), -1, "minutes over 59 are not a clock");
	rt_clear(&k);
	tp_rules_free(r);
}

Test(rules_v2, rate_si_prefixes_and_seconds_per_item)
{
	struct tp_rules *r = rt_load("rate name=\"r\" ^(?<value>\\S+) (?<unit>\\S+)$\n");
	struct rt_sink k = { 0 };
	rt_match(r, &k, "1.18M samples/s");
	rt_match(r, &k, "12.5k tokens/s");
	rt_match(r, &k, "4.00 s/it");
	cr_assert_eq(k.n, 3);
	RT_EQ(rec_num(&k.recs[0], S_RATE_VALUE), 1.18e6);
	RT_EQ(rec_num(&k.recs[1], S_RATE_VALUE), 12500);
	RT_EQ(rec_num(&k.recs[2], S_RATE_VALUE), 0.25);
	cr_expect_str_eq(k.recs[2].text, "it/s");
	rt_clear(&k);
	tp_rules_free(r);
}

Test(rules_v2, nan_in_one_field_drops_the_field_not_the_record)
{
	struct tp_rules *r = rt_load("batch ^it (?<index>\\d+) time (?<seconds>\\S+) loss (?<loss>\\S+)$\n");
	struct rt_sink k = { 0 };
	cr_assert_eq(rt_match(r, &k, "it 3 time 0.5 loss nan"), 1);
	cr_expect_eq(k.nwarn, 0);
	RT_EQ(rec_num(&k.recs[0], S_SECONDS), 0.5);
	cr_expect(!tp_has_slot(k.recs[0].has, S_BAT_LOSS), "loss nan is left out");
	rt_clear(&k);
	tp_rules_free(r);
}

Test(rules_v2, templates_snake_and_context_from_a_previous_line)
{
	struct tp_rules *r = rt_load("context ctx=\"evaluate\" ^Running per image evaluation\n"
				     "context ^== (?<ctx>\\w+) ==$\n"
				     "timing name=\"coco {ctx}\" ^DONE \\(t=(?<seconds>[\\d.]+s)\\)\n"
				     "timing @snake name=\"{1}/{name}\" ^(\\w+) (?<name>[A-Za-z ]+?) = (?<seconds>\\S+)$\n");
	struct tp_rules_scratch *s = tp_rules_scratch_new(r);
	struct rt_sink k = { 0 };
	cr_expect_eq(rt_match2(r, s, &k, "Running per image evaluation...", 10, NULL), 1);
	cr_expect_eq(k.n, 0, "a context rule makes no record");
	cr_expect_eq(tp_rules_scratch_idle(s, 11), 0, "a live context is state");
	rt_match2(r, s, &k, "DONE (t=7.07s).", 12, NULL);
	rt_match2(r, s, &k, "== accumulate ==", 13, NULL);
	rt_match2(r, s, &k, "DONE (t=1.23s).", 14, NULL);
	rt_match2(r, s, &k, "Llama Eval Time = 2s", 15, NULL);
	cr_assert_eq(k.n, 3);
	cr_expect_str_eq(k.recs[0].name, "coco evaluate");
	cr_expect_str_eq(k.recs[1].name, "coco accumulate");
	cr_expect_str_eq(k.recs[2].name, "llama/eval_time");
	cr_expect_eq(tp_rules_scratch_idle(s, 14 + 17), 1, "a context lasts 16 lines");
	rt_clear(&k);
	tp_rules_scratch_free(s);
	tp_rules_free(r);
}

Test(rules_v2, blocks_with_header_units_skip_and_end)
{
	struct tp_rules *r = rt_load("@block t lines=2\n"
				     "start ^== table ==$\n"
				     "header ^name +time \\((?<seconds__u>\\w+)\\)$\n"
				     "skip ^-+$\n"
				     "timing ^(?<name>\\w+) +(?<seconds>[\\d.]+)$\n"
				     "end ^== end ==$\n"
				     "@endblock\n");
	struct tp_rules_scratch *s = tp_rules_scratch_new(r);
	struct rt_sink k = { 0 };
	const char *lines[] = { "fwd 1.0", "== table ==", "name   time (ms)", "-----", "fwd  412.3",
				"bwd  890.1", "== end ==", "opt 12.0" };
	for (size_t i = 0; i < ARRAY_SIZE(lines); i++)
		rt_match2(r, s, &k, lines[i], i + 1, NULL);
	cr_assert_eq(k.n, 2, "rows only while the block is open");
	RT_EQ(rec_num(&k.recs[0], S_SECONDS), 0.4123);
	RT_EQ(rec_num(&k.recs[1], S_SECONDS), 0.8901);
	cr_expect_eq(tp_rules_scratch_idle(s, 9), 1);
	/* a block also closes after `lines` lines without a row */
	rt_match2(r, s, &k, "== table ==", 20, NULL);
	cr_expect_eq(tp_rules_scratch_idle(s, 21), 0);
	rt_match2(r, s, &k, "noise", 21, NULL);
	rt_match2(r, s, &k, "noise", 22, NULL);
	rt_match2(r, s, &k, "late 1.0", 23, NULL);
	cr_expect_eq(k.n, 2);
	rt_clear(&k);
	tp_rules_scratch_free(s);
	tp_rules_free(r);
	char *e = rt_load_error("start ^x\n");
	cr_expect(strstr(e, "inside @block"), "%s", e);
	free(e);
	e = rt_load_error("@block b\ntiming name=\"x\" (?<seconds>\\d+)\n@endblock\n");
	cr_expect(strstr(e, "has no start rule"), "%s", e);
	free(e);
	e = rt_load_error("@block b\nstart x\n");
	cr_expect(strstr(e, "not closed"), "%s", e);
	free(e);
}

/*
 * Columns named by a header: torch.profiler's table has other columns in
 * other versions (CUDA ones, an Overload Name), so rows are read by the
 * header's names, not by position; a '|' table with the unit in its
 * heading; rows of another shape are not taken.
 */
Test(rules_v2, columns_named_by_a_header)
{
	struct tp_rules *r = rt_load("@block prof lines=2\n"
				     "start ^-{8,}(?:  -{3,})+$\n"
				     "header @columns ^Name  \n"
				     "skip ^-{8,}\n"
				     "aggregate @columns name=@\"Name\" total_s=@\"CPU total\" count=@\"# of Calls\" "
				     "mean_s=@\"CPU time avg\" ^\\S\n"
				     "@endblock\n"
				     "@block bars lines=2\n"
				     "start @columns ^\\| Action\\s+\\| \n"
				     "aggregate @columns name=@\"Action\" mean_s=@\"Mean duration (ms)\" "
				     "count=@\"Num calls\" ^\\|\n"
				     "@endblock\n");
	struct tp_rules_scratch *s = tp_rules_scratch_new(r);
	struct rt_sink k = { 0 };
	const char *lines[] = {
		/* CPU only */
		"-------------  ------------  ------------  ------------  ------------",
		"Name           Self CPU %    CPU total     CPU time avg  # of Calls",
		"-------------  ------------  ------------  ------------  ------------",
		"aten::conv2d   0.51%         17.087ms      1.709ms       10",
		"aten::addmm    1.20%         11.077ms      553.850us     20",
		"-------------  ------------  ------------  ------------  ------------",
		"noise",
		"noise",
		/* with CUDA columns, the calls before the CPU total */
		"-------------  ----------  ----------  ------------  -----------  ----------",
		"Name           # of Calls  Self CPU %  CPU total     Self CUDA    CUDA total",
		"-------------  ----------  ----------  ------------  -----------  ----------",
		"aten::conv2d   10          0.51%       1.000s        12.000ms     15.000ms",
		"short row      1",
		"noise",
		"noise",
		"| Action        | Mean duration (ms) | Num calls |",
		"| run_batch     | 31.69              | 2         |",
	};
	for (size_t i = 0; i < ARRAY_SIZE(lines); i++)
		rt_match2(r, s, &k, lines[i], i + 1, NULL);
	cr_assert_eq(k.n, 4, "%zu records", k.n);
	cr_expect_str_eq(k.recs[0].name, "aten::conv2d");
	RT_EQ(rec_num(&k.recs[0], S_AGG_TOTAL_S), 0.017087);
	RT_EQ(rec_num(&k.recs[0], S_AGG_MEAN_S), 0.001709);
	RT_EQ(rec_num(&k.recs[0], S_AGG_COUNT), 10);
	RT_EQ(rec_num(&k.recs[1], S_AGG_MEAN_S), 553.850e-6);
	/* the second version: by name, wherever the column is; no "CPU time avg" */
	RT_EQ(rec_num(&k.recs[2], S_AGG_TOTAL_S), 1.0);
	RT_EQ(rec_num(&k.recs[2], S_AGG_COUNT), 10);
	cr_expect(!tp_has_slot(k.recs[2].has, S_AGG_MEAN_S), "a column the header lacks leaves the field out");
	/* "(ms)" in the heading is the unit of a bare number */
	cr_expect_str_eq(k.recs[3].name, "run_batch");
	RT_EQ(rec_num(&k.recs[3], S_AGG_MEAN_S), 0.03169);
	RT_EQ(rec_num(&k.recs[3], S_AGG_COUNT), 2);
	rt_clear(&k);
	tp_rules_scratch_free(s);
	tp_rules_free(r);
	char *e = rt_load_error("@block b\nstart x\ntiming name=@\"Name\" ^x\n@endblock\n");
	cr_expect(strstr(e, "needs @columns"), "%s", e);
	free(e);
	e = rt_load_error("timing @columns name=@\"Name\" seconds=@\"t\" ^x\n");
	cr_expect(strstr(e, "@columns belongs to a start, header or row rule of a @block"), "%s", e);
	free(e);
	e = rt_load_error("@block b\nstart x\ntiming @columns name=\"n\" ^x\n@endblock\n");
	cr_expect(strstr(e, "takes FIELD=@\"Column\" fields"), "%s", e);
	free(e);
}

/*
 * A hold block keeps its records until it ends: torch.utils.benchmark's
 * Compare prints the unit of its cells after them ("Times are in
 * microseconds (us)."), which the end rule gives to every held plain
 * number. @* makes a record per column no other field names (its heading
 * the type's text), @"" is the column with a blank heading, and a column
 * may go by several names ("A|B").
 */
Test(rules_v2, hold_blocks_wait_for_their_unit_and_each_column_is_a_record)
{
	struct tp_rules *r = rt_load("context @more ^\\[-+ (?<ctx>.*?) -+\\]$\n"
				     "@block compare lines=2 hold\n"
				     "start ^\\[-+ .*? -+\\]$\n"
				     "header @columns ^\\|\n"
				     "skip ^\\d+ threads: -+$\n"
				     "runtime @columns name=\"{ctx}: {name}\" name=@\"\" median_ms=@* ^[^|\\s][^|]*\\|\n"
				     "end ^Times are in \\w+ \\((?<median_ms__u>[mun]?s)\\)\\.$\n"
				     "@endblock\n");
	struct tp_rules_scratch *s = tp_rules_scratch_new(r);
	struct rt_sink k = { 0 };
	const char *lines[] = {
		"[------------ softmax ------------]",
		"|  B=8, K=128  |  B=8, K=256",
		"1 threads: ----------------------",
		"dense         |     12.8     |    141.9",
		"sputnik: 0.50 |     32.8     |",
		"sputnik: 0.80 |  90 (! 14%)  |     50.8",
		"Times are in microseconds (us).",
	};
	for (size_t i = 0; i < ARRAY_SIZE(lines); i++) {
		rt_match2(r, s, &k, lines[i], i + 1, NULL);
		if (i + 1 < ARRAY_SIZE(lines))
			cr_assert_eq(k.n, 0, "a row is held until the unit comes (line %zu)", i + 1);
	}
	cr_assert_eq(k.n, 5, "%zu records: a blank cell makes none", k.n);
	cr_expect_str_eq(k.recs[0].name, "softmax: dense");
	cr_expect_str_eq(k.recs[0].text, "B=8, K=128");
	RT_EQ(rec_num(&k.recs[0], S_RT_MEDIAN_MS), 0.0128);
	cr_expect_str_eq(k.recs[1].text, "B=8, K=256");
	RT_EQ(rec_num(&k.recs[1], S_RT_MEDIAN_MS), 0.1419);
	cr_expect_eq(k.recs[1].line, 4);
	cr_expect_str_eq(k.recs[2].name, "softmax: sputnik: 0.50");
	RT_EQ(rec_num(&k.recs[3], S_RT_MEDIAN_MS), 0.09); /* "90 (! 14%)": the note is not the number */
	cr_expect_eq(k.nwarn, 0, "%s", k.last_warn);
	/* a table that ends without its unit: its rows are left out, with a warning */
	rt_clear(&k);
	rt_match2(r, s, &k, "[------------ bmm ------------]", 20, NULL);
	rt_match2(r, s, &k, "|  B=8", 21, NULL);
	rt_match2(r, s, &k, "dense  |  31.0", 22, NULL);
	tp_rules_finish(r, s, &(struct tp_sink){ rt_emit, rt_warn, &k });
	cr_expect_eq(k.n, 0);
	cr_expect_eq(k.nwarn, 1);
	cr_expect(strstr(k.last_warn, "without the line that gives the unit"), "%s", k.last_warn);
	cr_expect(tp_rules_scratch_idle(s, 20 + 17), "finish closes the block");
	rt_clear(&k);
	tp_rules_scratch_free(s);
	tp_rules_free(r);
}

/* A block of one record ("one"): @add puts a later line's fields into it
 * (a Measurement's median and IQR under its title), each field once, so
 * that the lines after a cut printout close the block (lines=) rather than
 * fill it; the block gives its record as it closes. {ctx|TEXT} is TEXT
 * without a live context. */
Test(rules_v2, add_fills_the_held_record_and_ctx_has_a_default)
{
	struct tp_rules *r = rt_load("@block m lines=2 one\n"
				     "start ^<Measurement>$\n"
				     "runtime @add ^Median: (?<median_ms>[\\d.]+ [mun]?s)$\n"
				     "runtime @add ^IQR: (?<iqr_ms__ms>[\\d.]+)$\n"
				     "runtime @add ^(?<case>size \\d+)$\n"
				     "runtime ^(?<name>\\S.*)$\n"
				     "@endblock\n"
				     "timing name=\"{ctx|cProfile}\" ^(?<seconds>[\\d.]+) seconds$\n");
	struct tp_rules_scratch *s = tp_rules_scratch_new(r);
	struct rt_sink k = { 0 };
	const char *lines[] = { "<Measurement>", "bmm(x, x)", "size 256", "Median: 6.62 us", "IQR: 0.13",
				"noise", "noise", "1.5 seconds" };
	for (size_t i = 0; i < ARRAY_SIZE(lines); i++)
		rt_match2(r, s, &k, lines[i], i + 1, NULL);
	cr_assert_eq(k.n, 2, "%zu records", k.n);
	cr_expect_str_eq(k.recs[0].name, "bmm(x, x)");
	cr_expect_str_eq(k.recs[0].text, "size 256");
	cr_expect_eq(k.recs[0].line, 2);
	RT_EQ(rec_num(&k.recs[0], S_RT_MEDIAN_MS), 0.00662);
	RT_EQ(rec_num(&k.recs[0], S_RT_IQR_MS), 0.13);
	cr_expect_str_eq(k.recs[1].name, "cProfile");
	RT_EQ(rec_num(&k.recs[1], S_SECONDS), 1.5);
	rt_clear(&k);
	tp_rules_scratch_free(s);
	tp_rules_free(r);
	/* @add with nothing held reads nothing */
	r = rt_load("@block m one\nstart ^<M>$\nruntime @add ^Median: (?<median_ms>\\S+ ms)$\n@endblock\n");
	s = tp_rules_scratch_new(r);
	rt_match2(r, s, &k, "<M>", 1, NULL);
	cr_expect_eq(rt_match2(r, s, &k, "Median: 1 ms", 2, NULL), 0);
	tp_rules_finish(r, s, &(struct tp_sink){ rt_emit, rt_warn, &k });
	cr_expect_eq(k.n + k.nwarn, 0);
	tp_rules_scratch_free(s);
	tp_rules_free(r);
	rt_expect_load_error("@block b\nstart x\nruntime @add ^(?<median_ms>\\d+)$\n@endblock\n",
			     "@add is for the record rules of a hold block");
	rt_expect_load_error("@block b\nstart x\nend ^(?<seconds__u>\\w+)$\n@endblock\n",
			     "gives units to the rows of a hold block only");
	rt_expect_load_error("@block b hold\nstart x\nend ^(?<seconds>\\w+)$\n@endblock\n",
			     "a header or end rule captures units only");
	rt_expect_load_error("@block b hold hold\nstart x\n@endblock\n", "expected lines=N (1 to 1000), hold or one");
	rt_expect_load_error("@block b hold\nstart @columns x\n"
			     "runtime @columns name=@\"\" mean_ms=@* median_ms=@* ^x\n@endblock\n",
			     "one field of a rule takes @*");
	rt_expect_load_error("@block b\nstart @columns x\naggregate @columns name=@\"a||b\" ^x\n@endblock\n",
			     "or several separated by '|'");
}

/* A text field's constant can be a template too, filled like a name's. */
Test(rules_v2, a_text_template)
{
	struct tp_rules *r = rt_load("summary section=\"prof {1}\" name=\"{1} total\" ^(\\w+) total: (?<seconds>\\S+)$\n");
	struct rt_sink k = { 0 };
	rt_match(r, &k, "CUDA total: 3.586ms");
	cr_assert_eq(k.n, 1);
	cr_expect_str_eq(k.recs[0].text, "prof CUDA");
	cr_expect_str_eq(k.recs[0].name, "CUDA total");
	RT_EQ(rec_num(&k.recs[0], S_SECONDS), 0.003586);
	rt_clear(&k);
	tp_rules_free(r);
}

/* A hold block keeps at most MAX_HELD records: the rest are left out with
 * one warning, and the rows it kept still come out. */
Test(rules_v2, a_hold_block_keeps_a_bounded_number_of_rows)
{
	struct tp_rules *r = rt_load("@block t lines=2 hold\nstart ^table$\n"
				     "timing name=\"row\" ^(?<seconds>\\d+)$\nend ^end$\n@endblock\n");
	struct tp_rules_scratch *s = tp_rules_scratch_new(r);
	struct rt_sink k = { 0 };
	rt_match2(r, s, &k, "table", 1, NULL);
	for (int i = 0; i < 1100; i++) {
		char row[16];
		snprintf(row, sizeof(row), "%d", i);
		rt_match2(r, s, &k, row, (uint64_t)i + 2, NULL);
	}
	rt_match2(r, s, &k, "end", 1102, NULL);
	cr_expect_eq(k.n, 1024, "%zu records", k.n);
	cr_expect_eq(k.nwarn, 1);
	cr_expect(strstr(k.last_warn, "keeps 1024 records"), "%s", k.last_warn);
	rt_clear(&k);
	tp_rules_scratch_free(s);
	tp_rules_free(r);
}

Test(rules_v2, markers_gate_a_group_and_need_gates_a_rule)
{
	struct tp_rules *r = rt_load("@marker \"[iter]\"\n"
				     "timing name=\"t\" (?<seconds>\\d+)s\n"
				     "timing @need=\"zz\" name=\"z\" (?<seconds>\\d+)m\n");
	struct rt_sink k = { 0 };
	uint64_t hits[TP_RULE_STATS] = { 0 };
	rt_match2(r, NULL, &k, "took 5s", 1, hits);
	cr_expect_eq(k.n, 0, "no marker on the line: the group is not tried");
	rt_match2(r, NULL, &k, "[iter] took 5s", 2, hits);
	rt_match2(r, NULL, &k, "[iter] took 5m", 3, hits);
	rt_match2(r, NULL, &k, "[iter] zz took 5m", 4, hits);
	cr_assert_eq(k.n, 2);
	cr_expect_str_eq(k.recs[1].name, "z");
	cr_expect_eq(hits[0], 1);
	cr_expect_eq(hits[1], 1);
	rt_clear(&k);
	tp_rules_free(r);
}

Test(rules_v2, raw_sees_the_prefix_and_stacked_files_keep_order)
{
	struct tp_rules *r = tp_rules_new();
	struct strbuf err = STRBUF_INIT;
	static const char a[] = "timing @raw name=\"raw\" ^\\[rank0\\]: step (?<seconds>\\d+)\n";
	static const char b[] = "timing name=\"stripped\" ^step (?<seconds>\\d+)\n";
	cr_assert_eq(tp_rules_add(r, a, sizeof(a) - 1, "a.rules", 0, &err), 0);
	cr_assert_eq(tp_rules_add(r, b, sizeof(b) - 1, "b.rules", 0, &err), 0);
	cr_assert_eq(tp_rules_add(r, "bogus x\n", 8, "c.rules", 0, &err), -1);
	cr_expect(strstr(err.buf, "c.rules:1:1: unknown record type"), "%s", err.buf);
	cr_expect_eq(tp_rules_count(r), 2, "a file that fails adds nothing");
	struct tp_rule_info ri;
	tp_rules_info(r, 1, &ri);
	cr_expect_str_eq(ri.origin, "b.rules:1");
	struct rt_sink k = { 0 };
	struct tp_sink sink = { rt_emit, rt_warn, &k };
	struct tp_rules_line ln = { "step 3", 6, "[rank0]: step 3", 15, 0, "log", 1, NULL, 0, -1, NULL };
	tp_rules_match_pass(r, NULL, 0, &ln, &sink);
	cr_assert_eq(k.n, 1);
	cr_expect_str_eq(k.recs[0].name, "raw");
	rt_clear(&k);
	strbuf_release(&err);
	tp_rules_free(r);
}

Test(rules_v2, cli_stacks_rules_reads_the_rules_dir_and_warns_of_dead_rules)
{
	char *dir = tu_tmpdir("rules");
	cr_assert_not_null(dir);
	struct tu_result r = tu_run("mkdir -p %s/tprof/rules.d && "
				    "printf 'timing name=\"dir\" ^dir (?<seconds>\\\\d+)$\\n' > %s/tprof/rules.d/x.rules && "
				    "printf 'timing name=\"one\" ^one (?<seconds>\\\\d+)$\\n' > %s/1.rules && "
				    "printf 'timing name=\"two\" ^two (?<seconds>\\\\d+)$\\ntiming name=\"dead\" ^never$\\n' > %s/2.rules && "
				    "printf 'one 1\\ntwo 2\\ndir 3\\n' | XDG_CONFIG_HOME=%s $B/tprof-parse --no-formats -r %s/1.rules --rules %s/2.rules",
				    dir, dir, dir, dir, dir, dir, dir);
	cr_expect_eq(r.status, 0, "%s", r.err.buf);
	cr_expect(strstr(r.out.buf, "\"name\":\"one\"") && strstr(r.out.buf, "\"name\":\"two\"") &&
		  strstr(r.out.buf, "\"name\":\"dir\""), "%s", r.out.buf);
	cr_expect(strstr(r.err.buf, "2.rules:2 (timing) matched no line"), "%s", r.err.buf);
	tu_result_free(&r);
	r = tu_run("printf 'dir 3\\n' | XDG_CONFIG_HOME=%s $B/tprof-parse --no-formats --no-rules-dir -c", dir);
	cr_expect(strstr(r.out.buf, "total      0"), "%s", r.out.buf);
	tu_result_free(&r);
	tu_rmtree(dir);
}

/* A line that holds a format's marker is that format's: read by one of its
 * rules, taken by a skip rule (outside a block too), or a counted warning
 * with file:line. Caffe's own lines, from a SqueezeNet run's glog output. */
Test(rules_v2, a_marker_line_no_rule_reads_is_a_warning_unless_a_skip_rule_takes_it)
{
	char *dir = tu_tmpdir("marker");
	cr_assert_not_null(dir);
	struct tu_result r = tu_run(
		"printf '@format solver\\n@marker \"Iteration \"\\n"
		"batch ^Iteration (?<index>\\\\d+), loss = (?<loss>[\\\\d.]+)$\\n"
		"skip ^Iteration \\\\d+, lr = \\n' > %s/s.rules && "
		"printf 'I0613 17:36:53.936666  1860 solver.cpp:228] Iteration 500, loss = 8.89619\\n"
		"I0613 17:36:53.936761  1860 sgd_solver.cpp:106] Iteration 500, lr = 0.0995504\\n"
		"I0613 17:37:01.100000  1860 solver.cpp:228] Iteration 510, loss = nan\\n' > %s/caffe.log && "
		"$B/tprof-parse --no-formats -r %s/s.rules %s/caffe.log",
		dir, dir, dir, dir);
	cr_expect_eq(r.status, 0, "%s", r.err.buf);
	cr_expect(strstr(r.out.buf, "\"index\":500,\"loss\":8.89619"), "%s", r.out.buf);
	cr_expect(!strstr(r.err.buf, "caffe.log:2:"), "a skip rule's line is no warning: %s", r.err.buf);
	cr_expect(strstr(r.err.buf, "caffe.log:3: warning: line holds a marker of format 'solver' and none of "
				    "its rules reads it"), "%s", r.err.buf);
	tu_result_free(&r);
	/* two formats' markers on one line, neither of which reads it: both named */
	r = tu_run("printf '@format solver\\n@marker \"Iteration \"\\nbatch ^Iteration (?<index>\\\\d+), loss = "
		   "(?<loss>[\\\\d.]+)$\\n' > %s/s.rules && "
		   "printf '@format stepper\\n@marker \"loss = \"\\nbatch ^step (?<index>\\\\d+), loss = "
		   "(?<loss>[\\\\d.]+)$\\n' > %s/t.rules && "
		   "printf 'Iteration 510, loss = nan\\n' | $B/tprof-parse --no-formats -r %s/s.rules -r %s/t.rules",
		   dir, dir, dir, dir);
	cr_expect_eq(r.status, 0, "%s", r.err.buf);
	cr_expect(strstr(r.err.buf, "(stdin):1: warning: line holds markers of formats 'solver' and 'stepper' and "
				    "none of their rules reads it"),
		  "%s", r.err.buf);
	tu_result_free(&r);
	/* the packs' own lines of this kind are no warning: Caffe's, DeepSpeed's */
	r = tu_run("printf 'I0613 17:36:53.936761  1860 sgd_solver.cpp:106] Iteration 500, lr = 0.0995504\\n"
		   "[2022-11-22 10:02:19,886] [INFO] [logging.py:68:log_dist] [Rank 0] DeepSpeed Flops "
		   "Profiler Enabled: False\\n' | $B/tprof-parse -c");
	cr_expect_eq(r.status, 0, "%s", r.err.buf);
	cr_expect(!strstr(r.err.buf, "warning"), "%s", r.err.buf);
	tu_result_free(&r);
	tu_rmtree(dir);
}

/* JDE's logger ('%(asctime)s [%(levelname)s]: %(message)s'): the rule sees
 * the message, the stamp is the line's; an integer field reads a count
 * "of M" ("40/165", a table's batch column) as its first number */
Test(rules_v2, a_bracketed_level_with_a_colon_and_a_count_of_m)
{
	char *dir = tu_tmpdir("level");
	cr_assert_not_null(dir);
	struct tu_result r = tu_run(
		"printf 'batch ^batch (?<index>\\\\S+) took (?<seconds>\\\\S+)$\\n' > %s/b.rules && "
		"printf '2021-01-25 06:04:17 [INFO]: batch 40/165 took 7.12s\\n"
		"2021-01-25 06:09:34 [INFO]: batch 80/1x took 7.23s\\n' | $B/tprof-parse --no-formats -r %s/b.rules",
		dir, dir);
	cr_expect_eq(r.status, 0, "%s", r.err.buf);
	cr_expect(strstr(r.out.buf, "\"ts\":\"2021-01-25T06:04:17\",\"index\":40,\"seconds\":7.12"), "%s", r.out.buf);
	cr_expect(strstr(r.err.buf, "(stdin):2: warning: rule") && strstr(r.err.buf, "\"80/1x\""), "%s", r.err.buf);
	tu_result_free(&r);
	tu_rmtree(dir);
}
