/*
 * test_golden_b.c - golden logs from the real print statements of the GPM
 * tower (S0's gpm.py), S2's profiling package, S3's
 * TrainingProfiler and S4's AGGREGATE STATISTICS: each checked-in
 * log is first regenerated (tests/golden/) and compared byte for byte,
 * then every printed value is read back and every figure the inputs imply
 * (or the seed code computes) is asserted.
 */
#include <stdio.h>
#include <stdlib.h>

#include "antest.h"
#include "parse/input/docinput.h"
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

/* BASE.log (and BASE.expected) checked against the generator, read without a warning. */
static char *golden_collect(struct collector *c, const char *base)
{
	char name[128];
	snprintf(name, sizeof(name), "%s.expected", base);
	free(golden(name));
	snprintf(name, sizeof(name), "%s.log", base);
	char *log = golden(name);
	collect(c, name, log);
	cr_assert_eq(c->nwarn, 0, "%s", c->nwarn ? c->warnings[0] : "");
	return log;
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
	struct collector c = { 0 };
	char *log = golden_collect(&c, "gpm-tower");
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
	cr_expect_float_eq(cell(sh, "run", "gpm-tower.log", "graphs"), 1200, 0);
	cr_expect_float_eq(cell(sh, "run", "gpm-tower.log", "avg_nodes"), 37.5, 1e-12); /* the seed's */
	cr_expect_float_eq(cell(sh, "run", "gpm-tower.log", "window_nodes_max"), 65.7, 1e-9);
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
	/* replayed per graph, not a window's sum: a 66-node graph's walks take well under a millisecond
	 * on an idle core and the sum of 100 about 100 times that, so 25 ms tells them apart however
	 * loaded the machine is (a time is never asserted closer than that here) */
	const char *rep = strstr(r.out.buf, "validate,verdicts,8,replayed,ms,");
	cr_assert(rep, "%s", r.out.buf);
	double v = strtod(rep + strlen("validate,verdicts,8,replayed,ms,"), NULL);
	cr_expect(v > 0 && v < 25, "replayed %g ms per graph", v);
	tu_result_free(&r);
}

/* ---- group 8: S3's TrainingProfiler -------------------------------- */

Test(ssm, every_print_read)
{
	struct collector c = { 0 };
	char *log = golden_collect(&c, "ssm-profiler");
	/* 11 blocks (step 100 twice) x 3 rows, 9 wandb summary keys, 3 entries of the final dict */
	cr_assert_eq(collected_count(&c, TP_METRIC), 11 * 3 + 9 + 3);
	const struct tp_record *r = nth(&c, TP_METRIC, 0);
	cr_expect_str_eq(r->name, "data_batch_production");
	NUM_EQ(r, S_MET_STEP, 10, 0);
	NUM_EQ(r, S_MET_AVG_S, 0.02, 1e-12);
	NUM_EQ(r, S_MET_TOTAL_S, 0.2, 1e-12);
	NUM_EQ(r, S_MET_COUNT, 10, 0);
	r = nth(&c, TP_METRIC, 3 * 7); /* step 80: 60 x 0.020 + 20 x 0.035 = 1.9 s over 80 */
	NUM_EQ(r, S_MET_STEP, 80, 0);
	NUM_EQ(r, S_MET_AVG_S, 0.0237, 1e-12); /* f"{0.02375:.4f}": the double is just below */
	NUM_EQ(r, S_MET_TOTAL_S, 1.90, 1e-12);
	r = nth(&c, TP_METRIC, 3 * 11 + 9); /* the final dict, Python's repr */
	cr_expect_str_eq(r->name, "data_batch_production");
	NUM_EQ(r, S_MET_TOTAL_S, 2.6000000000000014, 0);
	NUM_EQ(r, S_MET_AVG_S, 0.026000000000000013, 0);
	NUM_EQ(r, S_MET_COUNT, 100, 0);
	collector_free(&c);
	free(log);
}

/*
 * Per-interval means from the cumulative prints: data loading 0.020 s for
 * six intervals then 0.035 s (to the print's rounding), loss 0.041 s and
 * make_step 0.071 s throughout. The repeated step-100 block, the wandb
 * summary and the final dict add no sample. Shares of the iteration
 * (make_step 7.1 s + data 2.6 s = 9.7 s): data 26.80 %, loss 42.27 %;
 * 100 / 7.1 = 14.08 steps/s. The seed's own figures are the last
 * averages: 0.0260, 0.0410, 0.0710 s.
 */
Test(ssm, cumulative_averages_become_interval_means)
{
	struct golden_run g;
	golden_analyze(&g, "ssm-profiler.log");
	const struct an_run *run = g.m.runs[0];
	const char *names[3] = { "data_batch_production", "loss_fn_computation", "make_step_total" };
	for (size_t i = 0; i < run->metrics.n; i++) {
		const struct an_named_series *s = tp_map_at(&run->metrics, i);
		cr_expect_str_eq(tp_map_key(&run->metrics, i), names[i]);
		cr_expect_eq(s->s.n, 10, "%s: %llu samples", names[i], (unsigned long long)s->s.n);
		cr_expect_eq(s->repeats, 5, "%s: %llu repeats", names[i], (unsigned long long)s->repeats);
		cr_expect_float_eq(s->last_count, 100, 0);
	}
	const struct rtable *var = table(&g.rep, "variance", NULL);
	cr_assert(var);
	cr_expect_float_eq(cell(var, "series", "data_batch_production per interval", "min"), 0.020, 1e-4);
	cr_expect_float_eq(cell(var, "series", "data_batch_production per interval", "median"), 0.020, 1e-4);
	cr_expect_float_eq(cell(var, "series", "data_batch_production per interval", "max"), 0.035, 1e-3);
	cr_expect_float_eq(cell(var, "series", "data_batch_production per interval", "mean"), 0.026, 1e-4);
	cr_expect_float_eq(cell(var, "series", "loss_fn_computation per interval", "mean"), 0.041, 1e-9);
	cr_expect_float_eq(cell(var, "series", "loss_fn_computation per interval", "max/min"), 1, 1e-9);
	cr_expect_float_eq(cell(var, "series", "make_step_total per interval", "mean"), 0.071, 1e-9);
	/* float noise is no outlier; the data slowdown is drift, found on the intervals */
	cr_expect_null(finding(&g.rep, "outlier", NULL));
	cr_expect_not_null(finding(&g.rep, "drift", "data_batch_production per interval slows down"));
	cr_expect_null(finding(&g.rep, "drift", "loss_fn"));
	cr_expect_not_null(finding(&g.rep, "optimize", "'data_batch_production': 26.8% of the training iteration"));
	cr_expect_not_null(finding(&g.rep, "optimize", "'loss_fn_computation': 42.3% of the training iteration"));
	const struct rtable *thr = table(&g.rep, "throughput", NULL);
	cr_assert(thr);
	cr_expect_float_eq(cell(thr, "run", "ssm-profiler.log", "value"), 100 / 7.1, 1e-9);
	/* the seed's own figures beside the intervals */
	const struct rtable *mt = table(&g.rep, "metrics", NULL);
	cr_assert(mt);
	cr_expect_float_eq(cell(mt, "metric", "data_batch_production", "seed_avg"), 0.026, 1e-12);
	cr_expect_float_eq(cell(mt, "metric", "data_batch_production", "total"), 2.6, 1e-12);
	cr_expect_float_eq(cell(mt, "metric", "loss_fn_computation", "seed_avg"), 0.041, 1e-12);
	cr_expect_float_eq(cell(mt, "metric", "make_step_total", "repeats"), 5, 0);
	cr_expect_float_eq(cell(mt, "metric", "data_batch_production", "interval_max"), 0.035, 1e-3);
	golden_run_free(&g);
}

static void analyze_text(struct golden_run *g, const char *name, const char *text)
{
	g->log = xstrdup(text);
	an_model_init(&g->m, NAN);
	an_opts_default(&g->o);
	load(&g->m, name, g->log);
	analyze(&g->m, &g->o, &g->rep, NULL);
}

Test(ssm, float_noise_is_no_outlier)
{
	struct strbuf sb = STRBUF_INIT;
	for (int i = 0; i < 9; i++)
		strbuf_addstr(&sb, "loss_fn_computation: avg=0.041s\n");
	strbuf_addstr(&sb, "loss_fn_computation: avg=0.041000000000000106s\n");
	struct golden_run g;
	analyze_text(&g, "noise.log", sb.buf);
	cr_expect_eq(((const struct an_named_series *)tp_map_at(&g.m.runs[0]->metrics, 0))->s.n, 10);
	cr_expect_null(finding(&g.rep, "outlier", NULL));
	golden_run_free(&g);
	strbuf_release(&sb);
}

/* A *step* metric smaller than data loading: data is outside the step, no share above 100 %. */
Test(ssm, step_smaller_than_data_loading)
{
	struct golden_run g;
	analyze_text(&g, "torch.log",
		     "--- Profiling Metrics (Step 100) ---\n"
		     "data_batch_production: avg=0.1200s, total=12.00s, count=100\n"
		     "training_step: avg=0.0800s, total=8.00s, count=100\n");
	cr_expect_not_null(finding(&g.rep, "bottleneck", "'data_batch_production' is 60.0% of the training iteration"));
	for (size_t i = 0; i < g.rep.nfindings; i++)
		cr_expect_null(strstr(g.rep.findings[i].message, "150.0%"), "%s", g.rep.findings[i].message);
	golden_run_free(&g);
}

/* ---- group 6: S2's profiling package ------------------------------- */

static const struct tp_record *named_rec(const struct collector *c, enum tp_type t, const char *name)
{
	const struct tp_record *r = collected_find(c, t, name);
	cr_assert(r, "no %d record named %s", (int)t, name);
	return r;
}

static void expect_point(const struct tp_record *r, const char *param, double value, double ms, double mb)
{
	cr_expect_str_eq(r->name, param);
	NUM_EQ(r, S_SC_VALUE, value, 0);
	NUM_EQ(r, S_SC_MEAN_MS, ms, 0);
	NUM_EQ(r, S_SC_PEAK_MB, mb, 0);
}

Test(gt, console_read_with_runs_and_scaling_memory)
{
	struct collector c = { 0 };
	char *log = golden_collect(&c, "gt-profile");
	cr_expect_eq(collected_count(&c, TP_RUNTIME), 6);
	cr_expect_eq(collected_count(&c, TP_MEMORY), 4);
	cr_expect_eq(collected_count(&c, TP_FLOPS), 7);
	cr_expect_eq(collected_count(&c, TP_SCALING), 9);
	const struct tp_record *r = named_rec(&c, TP_RUNTIME, "Forward"); /* "10.50 ± 1.20 ms (n=100)" */
	NUM_EQ(r, S_RT_MEAN_MS, 10.5, 0);
	NUM_EQ(r, S_RT_STD_MS, 1.2, 0);
	NUM_EQ(r, S_RT_RUNS, 100, 0);
	NUM_EQ(named_rec(&c, TP_RUNTIME, "Backward"), S_RT_RUNS, 50, 0);
	NUM_EQ(named_rec(&c, TP_RUNTIME, "training_step"), S_RT_MEAN_MS, 30, 0);
	NUM_EQ(named_rec(&c, TP_MEMORY, "backward"), S_MEM_MB, 1887.5, 0);
	NUM_EQ(named_rec(&c, TP_FLOPS, "Total"), S_FLOPS_GFLOPS, 5.62, 1e-12);
	NUM_EQ(named_rec(&c, TP_FLOPS, "attention"), S_FLOPS_GFLOPS, 3.17, 1e-12);
	NUM_EQ(named_rec(&c, TP_FLOPS, "input_projection"), S_FLOPS_GFLOPS, 0.06566, 1e-12); /* 65.66 MFLOPs */
	expect_point(nth(&c, TP_SCALING, 0), "num_nodes", 100, 20, 25); /* "  num_nodes=100: 20.00 ms, 25.0 MB" */
	expect_point(nth(&c, TP_SCALING, 8), "num_layers", 12, 125, 340);
	collector_free(&c);
	free(log);
}

Test(gt, json_report_raw_flops_nested_memory_and_scaling)
{
	struct collector c = { 0 };
	char *doc = golden("gt-report.json");
	struct tp_sink s = collect_sink(&c);
	struct strbuf err = STRBUF_INIT;
	cr_assert_eq(tp_doc_parse(TP_DOC_JSON, doc, strlen(doc), "gt-report.json", &s, &err), 0, "%s", err.buf);
	cr_expect_eq(c.nwarn, 0, "%s", c.nwarn ? c.warnings[0] : "");
	for (size_t i = 0; i < c.n; i++)
		if (c.v[i].rec.type == TP_META)
			cr_expect(strncmp(c.v[i].name, "scaling.", 8) && !strstr(c.v[i].name, "peak_mb") &&
					  strcmp(c.v[i].name, "flops.total"),
				  "meta %s", c.v[i].name);
	/* FLOPsEstimate.to_dict: breakdown in FLOPs, 3,171,936,000 = 3.171936 GFLOPs */
	NUM_EQ(named_rec(&c, TP_FLOPS, "attention"), S_FLOPS_GFLOPS, 3.171936, 0);
	NUM_EQ(named_rec(&c, TP_FLOPS, "mpnn"), S_FLOPS_GFLOPS, 0.792572928, 0);
	NUM_EQ(named_rec(&c, TP_FLOPS, "total"), S_FLOPS_GFLOPS, 5.619421428, 0);
	cr_expect_eq(collected_count(&c, TP_FLOPS), 7);
	/* MemoryStats.to_dict under memory.forward / memory.backward */
	NUM_EQ(named_rec(&c, TP_MEMORY, "forward.peak"), S_MEM_MB, 637.5, 0);
	NUM_EQ(named_rec(&c, TP_MEMORY, "backward.peak"), S_MEM_MB, 1887.5, 0);
	NUM_EQ(named_rec(&c, TP_MEMORY, "forward.reserved"), S_MEM_MB, 1024, 0);
	/* the seed's own figure: activations = forward peak - parameters - input */
	double act = 637.5 - named_rec(&c, TP_MEMORY, "parameter_memory")->num[S_MEM_MB] -
		     named_rec(&c, TP_MEMORY, "input_data")->num[S_MEM_MB];
	NUM_EQ(named_rec(&c, TP_MEMORY, "forward_activations"), S_MEM_MB, act, 1e-9);
	/* RuntimeStats.to_dict: float32 .item()s */
	const struct tp_record *r = named_rec(&c, TP_RUNTIME, "forward");
	NUM_EQ(r, S_RT_STD_MS, 1.2000000476837158, 0);
	NUM_EQ(r, S_RT_RUNS, 100, 0);
	/* ScalingResult.to_dict: one record per value */
	cr_expect_eq(collected_count(&c, TP_SCALING), 9);
	r = nth(&c, TP_SCALING, 0);
	expect_point(r, "num_nodes", 100, 20, 25);
	NUM_EQ(r, S_SC_STD_MS, 1, 0);
	NUM_EQ(r, S_SC_GFLOPS, 0.868521828, 0);
	NUM_EQ(nth(&c, TP_SCALING, 8), S_SC_GFLOPS, 11.172922356, 0);
	/* pe_costs: PE precomputation times */
	r = named_rec(&c, TP_RUNTIME, "hks precomputation");
	NUM_EQ(r, S_RT_MEAN_MS, (double)15.67f, 0);
	NUM_EQ(r, S_RT_STD_MS, (double)1.567f, 0);
	strbuf_release(&err);
	collector_free(&c);
	free(doc);
}

/*
 * One run's figures give an analysis: backward alone 25.3 - 10.5 = 14.80 ms,
 * optimizer step 30.0 - 25.3 = 4.70 ms, 5.6194 GFLOPs in 10.5 ms =
 * 535.2 GFLOP/s, attention 56.45 % of the FLOPs; node scaling exponent 1.5
 * (runtime) and 2 (memory), layers 10 ms each + 5 ms fixed.
 */
Test(gt, single_run_figures_and_scaling_are_analysed)
{
	static const char *const files[] = { "gt-report.json", "gt-profile.log" };
	for (size_t k = 0; k < 2; k++) {
		struct golden_run g;
		g.log = golden(files[k]);
		an_model_init(&g.m, NAN);
		an_opts_default(&g.o);
		struct tp_sink s = { feed, NULL, &g.m };
		struct strbuf err = STRBUF_INIT;
		if (k == 0)
			cr_assert_eq(tp_doc_parse(TP_DOC_JSON, g.log, strlen(g.log), files[k], &s, &err), 0);
		else
			load(&g.m, files[k], g.log);
		strbuf_release(&err);
		analyze(&g.m, &g.o, &g.rep, NULL);
		cr_expect_not_null(finding(&g.rep, "model-runtime", "backward pass alone: 14.80 ms"), "%s", files[k]);
		cr_expect_not_null(finding(&g.rep, "model-runtime", "optimizer step: 4.70 ms"), "%s", files[k]);
		const struct rtable *fl = table(&g.rep, "model-flops", NULL);
		cr_assert(fl);
		if (k == 0) {
			cr_expect_not_null(finding(&g.rep, "model-flops", "535.2 GFLOP/s"));
			cr_expect_float_eq(cell(fl, "component", "attention", "share"), 100 * 3.171936 / 5.619421428, 1e-9);
		} else {
			cr_expect_not_null(finding(&g.rep, "model-flops", "535.2 GFLOP/s"));
			cr_expect_float_eq(cell(fl, "component", "attention", "share"), 100 * 3.17 / 5.62, 1e-9);
		}
		const struct rtable *sc = table(&g.rep, "scaling", NULL);
		cr_assert(sc);
		int pc = col(sc, "param"), sr = col(sc, "series"), ex = col(sc, "exponent");
		int found = 0;
		for (size_t r = 0; r < sc->nrows; r++) {
			const char *p = rt_cell(sc, r, (size_t)pc)->s, *se = rt_cell(sc, r, (size_t)sr)->s;
			double b = rt_cell(sc, r, (size_t)ex)->v;
			if (!strcmp(p, "num_nodes") && !strcmp(se, "runtime")) {
				cr_expect_float_eq(b, 1.5, 1e-3);
				found++;
			}
			if (!strcmp(p, "num_nodes") && !strcmp(se, "peak memory")) {
				cr_expect_float_eq(b, 2.0, 1e-3);
				found++;
			}
		}
		cr_expect_eq(found, 2);
		const struct rtable *lc = table(&g.rep, "layer-cost", NULL);
		cr_assert(lc);
		cr_expect_float_eq(cell(lc, "param", "num_layers", "per_layer"), 10, 1e-6);
		cr_expect_float_eq(cell(lc, "param", "num_layers", "fixed"), 5, 1e-6);
		cr_expect_not_null(finding(&g.rep, "scaling", "peak memory vs num_nodes: memory ~ num_nodes^2.00"));
		golden_run_free(&g);
	}
}

/* ---- group 7: parsed, now analysed --------------------------------------- */

Test(records, aggregate_rows_and_batch_timing)
{
	struct collector c = { 0 };
	char *log = golden_collect(&c, "pde-monitor");
	cr_expect_eq(collected_count(&c, TP_BATCH), 15); /* 5 printed of each epoch's 20 */
	cr_expect_eq(collected_count(&c, TP_EPOCH), 3);
	cr_expect_eq(collected_count(&c, TP_AGGREGATE), 5); /* 3 Batch timing lines, 2 table rows */
	const struct tp_record *r = named_rec(&c, TP_AGGREGATE, "batch_forward");
	NUM_EQ(r, S_AGG_COUNT, 60, 0);
	NUM_EQ(r, S_AGG_TOTAL_S, 7.052, 1e-12);
	NUM_EQ(r, S_AGG_MEAN_S, 0.118, 1e-12);
	NUM_EQ(r, S_AGG_MIN_S, 0.102, 1e-12);
	NUM_EQ(r, S_AGG_MAX_S, 0.323, 1e-12);
	r = nth(&c, TP_AGGREGATE, 0); /* epoch 1: avg=0.208s, min=0.170s, max=0.538s */
	NUM_EQ(r, S_AGG_MEAN_S, 0.208, 1e-12);
	NUM_EQ(r, S_AGG_MAX_S, 0.538, 1e-12);
	collector_free(&c);
	free(log);

	/*
	 * The seed's Batch timing of the last epoch covers its 20 batches: avg
	 * 0.1905 -> 0.191, min 0.170, max 0.210 (max/min 1.24); its 5 printed
	 * lines: mean 0.1890, 0.170-0.205 (1.21); the run's 15 printed lines:
	 * mean 0.2135, max/min 0.538/0.170 = 3.16.
	 */
	struct golden_run g;
	golden_analyze(&g, "pde-monitor.log");
	const struct rtable *bt = table(&g.rep, "batch-timing", NULL);
	cr_assert(bt);
	cr_expect_float_eq(cell(bt, "rank", "-", "seed_avg"), 0.191, 1e-12);
	cr_expect_float_eq(cell(bt, "rank", "-", "seed_max/min"), 0.210 / 0.170, 1e-9);
	cr_expect_float_eq(cell(bt, "rank", "-", "printed"), 5, 0);
	cr_expect_float_eq(cell(bt, "rank", "-", "printed_mean"), 0.189, 1e-9);
	cr_expect_float_eq(cell(bt, "rank", "-", "printed_max/min"), 0.205 / 0.170, 1e-9);
	cr_expect_not_null(finding(&g.rep, "batch-timing", "tprof's batch series (15 printed lines over the run) "
							   "mean 0.2135 s, max/min 3.16"));
	const struct rtable *ag = table(&g.rep, "aggregate", NULL);
	cr_assert(ag);
	cr_expect_float_eq(cell(ag, "operation", "batch_forward", "max/mean"), 0.323 / 0.118, 1e-9);
	cr_expect_float_eq(cell(ag, "operation", "batch_forward", "share"), 100 * 7.052 / (7.052 + 3.240), 1e-9);
	/* the seed's own reading: forward has an outlier, backward is consistent */
	cr_expect_not_null(finding(&g.rep, "aggregate-outlier", "'batch_forward': max 0.323 s is 2.7x its mean"));
	cr_expect_not_null(finding(&g.rep, "aggregate-consistent", "'batch_backward' is consistent: 0.050-0.058 s"));
	cr_expect_null(finding(&g.rep, "aggregate-inconsistent", NULL));
	golden_run_free(&g);
}

/* A log holding only an AGGREGATE STATISTICS table is analysed, never silent. */
Test(records, aggregate_only_log_prints_its_analysis)
{
	free(golden("pde-aggregate-only.log"));
	struct tu_result r = tu_run("$B/tprof-analyze $R/" GOLDEN "pde-aggregate-only.log");
	cr_expect_eq(r.status, 0, "%s", r.err.buf);
	cr_expect(strstr(r.out.buf, "batch_forward      60      7.052     0.118    0.102    0.323          2.74"),
		  "%s", r.out.buf);
	cr_expect(strstr(r.out.buf, "'batch_forward': max 0.323 s is 2.7x its mean 0.118 s"), "%s", r.out.buf);
	tu_result_free(&r);
}

static const char seed001_tail[] =
	"============================================================\n"
	"TIMING SUMMARY - Section 1.1\n"
	"============================================================\n"
	"MLP training:              125.45s ( 39.5%)\n"
	"SIREN training:             89.32s ( 28.1%)\n"
	"KAN training:              102.67s ( 32.3%)\n"
	"------------------------------------------------------------\n"
	"Total time:                317.44s\n"
	"Average per dataset:        35.27s\n"
	"============================================================\n";

/* print_inference_benchmark's block (S1's guide) for one model. */
static void inference_block(struct strbuf *sb, const char *model, double mean, double mn, double mx, double thr)
{
	const char *rule = "----------------------------------------\n";
	strbuf_addf(sb, "%s Inference Benchmark:\n%s", model, rule);
	strbuf_addf(sb, "  Mean latency:        %.3f ms\n  Min latency:         %.3f ms\n", mean, mn);
	strbuf_addf(sb, "  Max latency:         %.3f ms\n  Throughput:          %.1f samples/sec\n%s", mx, thr, rule);
}

/* Inference benchmarks and "Average per dataset:" (S1's prints): 317.44 / 35.27 = 9.00 datasets. */
Test(records, latency_and_average_per_dataset)
{
	struct golden_run g;
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, seed001_tail);
	inference_block(&sb, "KAN", 2.345, 2.123, 3.456, 426.3);
	inference_block(&sb, "MLP", 1.172, 1.050, 2.001, 853.2);
	analyze_text(&g, "seed001.log", sb.buf);
	strbuf_release(&sb);
	const struct rtable *lat = table(&g.rep, "latency", NULL);
	cr_assert(lat);
	cr_expect_float_eq(cell(lat, "model", "KAN", "implied_batch"), 426.3 * 2.345 / 1000, 1e-9);
	cr_expect_float_eq(cell(lat, "model", "KAN", "max/min"), 3.456 / 2.123, 1e-9);
	cr_expect_float_eq(cell(lat, "model", "MLP", "vs_slowest"), 2.345 / 1.172, 1e-9);
	cr_expect_not_null(finding(&g.rep, "latency", "'MLP' infers fastest: 1.172 ms, 2.00x faster than 'KAN'"));
	const struct rtable *pd = table(&g.rep, "per-dataset", NULL);
	cr_assert(pd);
	cr_expect_float_eq(cell(pd, "run", "seed001.log", "datasets"), 317.44 / 35.27, 1e-9);
	cr_expect_not_null(finding(&g.rep, "per-dataset", "the TOTAL 317.44 s over 9 datasets"));
	golden_run_free(&g);
}

/* tprof-analyze never prints nothing: what it read and why nothing applied; --rules for unknown logs. */
Test(records, never_silent)
{
	struct tu_result r = tu_run("printf 'hello\\nworld\\n' | $B/tprof-analyze -");
	cr_expect_eq(r.status, 0);
	cr_expect(strstr(r.out.buf, "no known timing line") && strstr(r.out.buf, "--rules FILE"), "%s", r.out.buf);
	tu_result_free(&r);
	r = tu_run("printf '[2024-10-13 22:30:00] [STAGE] Loading\\n' | $B/tprof-analyze -");
	cr_expect_eq(r.status, 0);
	cr_expect(strstr(r.out.buf, "read 1 stage; no analysis applies to these records"), "%s", r.out.buf);
	tu_result_free(&r);
	r = tu_run("$B/tprof-analyze --speedup $R/" GOLDEN "pde-aggregate-only.log");
	cr_expect(strstr(r.out.buf, "read 2 aggregate; none of the selected analyses applies to them"), "%s",
		  r.out.buf);
	tu_result_free(&r);
}

/* The bundled Graph-LLaVA sample, written with gpm.py's semantics: 6000 graphs in 2724.193 s of forward. */
Test(gpm, sample_throughput)
{
	struct strbuf sb = STRBUF_INIT;
	cr_assert_eq(tu_slurp("samples/graph-llava-pretrain.log", &sb), 0);
	struct golden_run g;
	analyze_text(&g, "graph-llava-pretrain.log", sb.buf);
	const struct rtable *thr = table(&g.rep, "throughput", NULL);
	cr_assert(thr);
	cr_expect_float_eq(cell(thr, "measure", "GPM graphs per second", "value"), 6000 / 2724.193, 1e-9);
	cr_expect_float_eq(cell(thr, "measure", "GPM nodes per second", "value"), 28.8 * 6000 / 2724.193, 1e-9);
	golden_run_free(&g);
	strbuf_release(&sb);
}

/* The same figures through NDJSON (tprof-parse | tprof-analyze): counts survive, repeats are still repeats. */
Test(ssm, through_ndjson)
{
	struct tu_result r = tu_run("$B/tprof-parse $R/" GOLDEN "ssm-profiler.log | $B/tprof-analyze -f csv -");
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	cr_expect(strstr(r.out.buf, "variance,metrics,1,repeats,,5"), "%s", r.out.buf);
	cr_expect(strstr(r.out.buf, "variance,metrics,1,seed_avg,s,0.026"), "%s", r.out.buf);
	cr_expect(strstr(r.out.buf, "data_batch_production per interval"), "%s", r.out.buf);
	tu_result_free(&r);
}

/*
 * A long run: 200 windows whose graphs have 30 nodes for 25 windows, then
 * 60 for 25, and so on; pattern generation 0.09 ms per node. Later windows'
 * own sizes cannot be recovered one by one from averages printed to 0.1,
 * so they are pooled; the fit still finds the linear law, with no warning.
 */
Test(gpm, long_run_windows_are_pooled)
{
	struct strbuf sb = STRBUF_INIT;
	long nodes = 0;
	for (int k = 1; k <= 200; k++) {
		int n = (k - 1) / 25 % 2 ? 60 : 30;
		nodes += 100L * n;
		strbuf_addf(&sb, "[GPM TIMING] Last 100 graphs: Pattern gen=%.2fms, Total=%.2fms, Avg nodes=%.1f\n",
			    0.09 * n, 0.11 * n + 0.6, (double)nodes / (100.0 * k));
	}
	struct golden_run g;
	analyze_text(&g, "long.log", sb.buf);
	const struct an_run *run = g.m.runs[0];
	cr_expect(run->gpm_pooled > 0);
	cr_expect(run->gl_n >= 8, "%g points", run->gl_n);
	const struct rtable *sc = table(&g.rep, "scaling", NULL);
	cr_assert(sc);
	double b = cell(sc, "series", "GPM pattern gen per window", "exponent");
	cr_expect(b > 0.9 && b < 1.1, "exponent %g", b);
	cr_expect_null(finding(&g.rep, "scaling", "FASTER"));
	cr_expect_not_null(finding(&g.rep, "gpm-windows", "windows pooled"));
	golden_run_free(&g);
	strbuf_release(&sb);
}
