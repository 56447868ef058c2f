/*
 * test_golden_b.c - golden logs from the real print statements of the GPM
 * tower (seed 000's gpm.py), seed 002's profiling package, seed 003's
 * TrainingProfiler and seed 004's AGGREGATE STATISTICS: each checked-in
 * log is first regenerated (tests/golden/) and compared byte for byte,
 * then every printed value is read back and every figure the inputs imply
 * (or the seed code computes) is asserted.
 */
#include <stdio.h>
#include <stdlib.h>

#include "antest.h"
#include "golden/gen_all.h"

#define GOLDEN "tests/data/golden/"

/* The checked-in golden file, after checking that its generator still writes it. */
static char *golden(const char *name)
{
	const struct golden_file *g = NULL;
	for (size_t i = 0; i < sizeof(golden_files) / sizeof(golden_files[0]); i++)
		if (!strcmp(golden_files[i].name, name))
			g = &golden_files[i];
	cr_assert(g, "no generator for %s", name);
	char *gen = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&gen, &len);
	cr_assert(fp);
	g->gen(fp);
	cr_assert_eq(fclose(fp), 0);
	struct strbuf sb = STRBUF_INIT;
	char path[256];
	snprintf(path, sizeof(path), GOLDEN "%s", name);
	cr_assert_eq(tu_slurp(path, &sb), 0, "cannot read %s", path);
	cr_assert_str_eq(sb.buf, gen, "%s differs from what its generator writes", path);
	free(gen);
	return sb.buf;
}

/* Parses a golden file into c (records and warnings). */
static void collect(struct collector *c, const char *name, const char *text)
{
	struct tp_sink s = collect_sink(c);
	struct tp_parser *p = tp_parser_new(name, &s, NULL);
	tp_parse_buffer(p, text, strlen(text));
	tp_parser_finish(p);
	tp_parser_free(p);
}

static const struct tp_record *nth(const struct collector *c, enum tp_type t, size_t k)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->v[i].rec.type == t && !k--)
			return &c->v[i].rec;
	cr_assert_fail("fewer records of type %d than asked", (int)t);
	return NULL;
}

#define NUM_EQ(r, slot, want, eps) \
	cr_expect(tp_has(r, slot) && fabs((r)->num[slot] - (want)) <= (eps), "line %llu slot %d: %.17g, want %.17g", \
		  (unsigned long long)(r)->line, slot, (r)->num[slot], (double)(want))

/* A golden log analyzed with the default options. */
struct golden_run {
	struct an_model m;
	struct an_opts o;
	struct report rep;
	char *log;
};

static void golden_analyze(struct golden_run *g, const char *name)
{
	g->log = golden(name);
	an_model_init(&g->m, NAN);
	an_opts_default(&g->o);
	load(&g->m, name, g->log);
	analyze(&g->m, &g->o, &g->rep, NULL);
}

static void golden_run_free(struct golden_run *g)
{
	report_free(&g->rep);
	an_model_free(&g->m);
	free(g->log);
}

/* ---- group 4: the GPM tower -------------------------------------------- */

Test(gpm, every_window_read_as_printed)
{
	char *log = golden("gpm-tower.log");
	free(golden("gpm-tower.expected"));
	struct collector c = { 0 };
	collect(&c, "gpm-tower.log", log);
	cr_assert_eq(c.nwarn, 0, "%s", c.nwarn ? c.warnings[0] : "");
	cr_assert_eq(collected_count(&c, TP_GPM), 12);
	static const double pat[12] = { 1.62, 2.16, 2.70, 3.24, 3.78, 4.50, 5.22, 5.94, 1.80, 2.34, 3.06, 4.14 };
	static const double tot[12] = { 2.58, 3.24, 3.90, 4.56, 5.22, 6.10, 6.98, 7.86, 2.80, 3.46, 4.34, 5.66 };
	static const double avg[12] = { 18.0, 21.0, 24.0, 27.0, 30.0, 33.3, 36.9, 40.5, 38.2, 37.0, 36.7, 37.5 };
	for (size_t k = 0; k < 12; k++) {
		const struct tp_record *r = nth(&c, TP_GPM, k);
		NUM_EQ(r, S_GPM_GRAPHS, 100, 0);
		NUM_EQ(r, S_GPM_PATTERN_MS, pat[k], 1e-12);
		NUM_EQ(r, S_GPM_TOTAL_MS, tot[k], 1e-12);
		NUM_EQ(r, S_GPM_AVG_NODES, avg[k], 1e-12);
	}
	collector_free(&c);
	free(log);
}

/*
 * The true figures (gpm-tower.expected): 1200 graphs, 45000 nodes, 5.67 s
 * forward, 4.05 s pattern generation: 211.64 graphs/s, 7936.51 nodes/s,
 * 71.43 %, pattern generation linear in the window's graph size. Read as
 * window totals with a per-window average size (before the fix), the same
 * log gave 100x the graphs/s and a steeper, wrong exponent.
 */
Test(gpm, throughput_share_and_exponent_are_the_true_ones)
{
	struct golden_run g;
	golden_analyze(&g, "gpm-tower.log");
	struct report rep = g.rep;
	const struct rtable *thr = table(&rep, "throughput", NULL);
	cr_assert(thr);
	cr_expect_float_eq(cell(thr, "measure", "GPM graphs per second", "value"), 211.6402, 1e-3);
	cr_expect_float_eq(cell(thr, "measure", "GPM nodes per second", "value"), 7936.5079, 1e-3);
	const struct rtable *sh = table(&rep, "gpm-share", NULL);
	cr_assert(sh);
	cr_expect_float_eq(cell(sh, "run", "gpm-tower.log", "pattern_gen"), 4050.0, 1e-6);
	cr_expect_float_eq(cell(sh, "run", "gpm-tower.log", "total"), 5670.0, 1e-6);
	cr_expect_float_eq(cell(sh, "run", "gpm-tower.log", "share"), 100 * 4.05 / 5.67, 1e-9);
	const struct rtable *sc = table(&rep, "scaling", NULL);
	cr_assert(sc);
	double b = cell(sc, "series", "GPM pattern gen per window", "exponent");
	cr_expect(b > 0.98 && b < 1.02, "exponent %g, want ~1 (linear)", b);
	cr_expect(cell(sc, "series", "GPM pattern gen per window", "ci_low") <= 1);
	cr_expect(cell(sc, "series", "GPM pattern gen per window", "ci_high") >= 1);
	cr_expect_null(finding(&rep, "scaling", "FASTER"));
	cr_expect_not_null(finding(&rep, "scaling", "consistent with the expected complexity"));
	/* every window's own mean size is recovered to 0.5 node from the cumulative averages */
	const struct an_run *run = g.m.runs[0];
	cr_expect_eq(run->gpm_window_nodes.n, 12);
	cr_expect_float_eq(run->gpm_window_nodes.max, 66, 0.5);
	cr_expect_float_eq(run->gpm_window_nodes.min, 18, 0.5);
	golden_run_free(&g);
}

/* --validate sets the per-graph mean the tower prints against a per-graph replay. */
Test(gpm, validate_compares_per_graph_means)
{
	struct tu_result r = tu_run("$B/tprof-replay --validate $R/" GOLDEN "gpm-tower.log --backend cpu "
				    "--trials 2 --warmup 0 -f csv");
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	/* window 8: logged 5.94 ms per graph; the replayed graphs have the window's own 65.7 nodes */
	cr_expect(strstr(r.out.buf, "validate,verdicts,8,workload,,\"100 molecule x 65.7 nodes"), "%s", r.out.buf);
	cr_expect(strstr(r.out.buf, "validate,verdicts,8,logged,ms,5.94\r\n"), "%s", r.out.buf);
	/* replayed per graph: a 66-node graph's walks take far less than a millisecond, not a window's sum */
	const char *rep = strstr(r.out.buf, "validate,verdicts,8,replayed,ms,");
	cr_assert(rep, "%s", r.out.buf);
	double v = strtod(rep + strlen("validate,verdicts,8,replayed,ms,"), NULL);
	cr_expect(v > 0 && v < 1, "replayed %g ms per graph", v);
	tu_result_free(&r);
}
