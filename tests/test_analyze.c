/*
 * test_analyze.c - the analyses on inputs whose right answers are known:
 * the seed examples (stage percentages of S0, the warmup figures and
 * speedups of S1, the first batch of S4) and generated series
 * with a known exponent, known outliers and known significance.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>

#include "antest.h"

static const char seed000[] =
	"[2024-10-13 22:30:00] [STAGE] === TRAINING PIPELINE START ===\n"
	"[2024-10-13 22:30:01] [TIMING] Argument parsing: 0.12s\n"
	"[2024-10-13 22:30:45] [TIMING] LLM model loading: 44.23s\n"
	"[2024-10-13 22:01:30] [TIMING] Graph tower initialization (gpm): 2.45s\n"
	"[2024-10-13 22:02:15] [TIMING] Dataset loading and preprocessing: 12.34s\n"
	"[2024-10-13 22:02:16] [TIMING] Trainer initialization: 0.89s\n"
	"[GPM TIMING] Last 100 graphs: Pattern gen=123.45ms, Total=456.78ms, Avg nodes=28.3\n"
	"[GPM TIMING] Last 100 graphs: Pattern gen=118.92ms, Total=445.23ms, Avg nodes=29.1\n"
	"[2024-10-13 23:15:30] [TIMING] Main training loop: 2345.67s (39.09min)\n"
	"[2024-10-13 23:15:35] [TIMING] State saving: 4.23s\n"
	"================================================================================\n"
	"[TIMING SUMMARY]\n"
	"================================================================================\n"
	"  Argument parsing                        : 0.12s                (0.0%)\n"
	"  LLM model loading                       : 44.23s               (1.8%)\n"
	"  Graph tower initialization (gpm)        : 2.45s                (0.1%)\n"
	"  Dataset loading and preprocessing       : 12.34s               (0.5%)\n"
	"  Trainer initialization                  : 0.89s                (0.0%)\n"
	"  Main training loop                      : 2345.67s (39.09min)  (97.5%)\n"
	"  State saving                            : 4.23s                (0.2%)\n"
	"  TOTAL                                   : 2409.93s (40.17min)\n"
	"================================================================================\n";

Test(breakdown, seed000_stage_percentages)
{
	struct an_model m;
	struct an_opts o;
	struct report rep;
	an_model_init(&m, NAN);
	an_opts_default(&o);
	load(&m, "seed000.log", seed000);
	analyze(&m, &o, &rep, NULL);
	const struct rtable *t = table(&rep, "breakdown", "the stages");
	cr_assert_not_null(t);
	cr_assert_float_eq(cell(t, "stage", "Main training loop", "share"), 100 * 2345.67 / 2409.93, 1e-9);
	cr_assert_float_eq(cell(t, "stage", "LLM model loading", "share"), 100 * 44.23 / 2409.93, 1e-9);
	cr_assert_float_eq(cell(t, "stage", "TOTAL", "seconds"), 2409.93, 1e-9);
	/* the first row is the largest stage */
	cr_assert_str_eq(rt_cell(t, 0, (size_t)col(t, "stage"))->s, "Main training loop");
	/* the hand-written seed is inconsistent, and we say so with file:line */
	const struct finding *f = finding(&rep, "inconsistent", "'Main training loop' printed as 97.5%");
	cr_assert_not_null(f);
	cr_assert_eq(f->line, 19);
	f = finding(&rep, "clock", "timestamp goes back");
	cr_assert_not_null(f);
	cr_assert_eq(f->line, 4);
	f = finding(&rep, "clock", "'Dataset loading and preprocessing' took 12.34 s but only 45 s");
	cr_assert_null(f, "12.34 s in 45 s is possible");
	/* the loop holds the steps: no bottleneck, no advice to "profile" the run itself */
	cr_assert_null(finding(&rep, "bottleneck", NULL));
	f = finding(&rep, "loop", "'Main training loop' is 97.3%");
	cr_assert_not_null(f);
	cr_assert_eq(f->sev, SEV_INFO);
	cr_assert_null(f->advice);
	/* GPM: pattern generation's share of the forward time */
	f = finding(&rep, "gpm", NULL);
	cr_assert_not_null(f);
	cr_assert(strstr(f->message, "26.9%"), "%s", f->message); /* 242.37 / 902.01 */
	report_free(&rep);
	an_model_free(&m);
}

Test(breakdown, stage_longer_than_clock_is_reported)
{
	struct an_model m;
	struct an_opts o;
	struct report rep;
	an_model_init(&m, NAN);
	an_opts_default(&o);
	load(&m, "c.log", "[2024-01-01 00:00:00] [TIMING] a: 1s\n[2024-01-01 00:00:10] [TIMING] b: 60s\n");
	analyze(&m, &o, &rep, NULL);
	const struct finding *f = finding(&rep, "clock", "'b' took 60.00 s but only 10 s passed");
	cr_assert_not_null(f);
	cr_assert_eq(f->line, 2);
	report_free(&rep);
	an_model_free(&m);
}

Test(bottlenecks, seed004_thresholds_and_data_loading)
{
	struct an_model m;
	struct an_opts o;
	struct report rep;
	an_model_init(&m, NAN);
	an_opts_default(&o);
	load(&m, "p.log",
	     "PERFORMANCE SUMMARY\n"
	     "Operation                      Time (s)     CPU (MB)        GPU (MB)        GPU Peak\n"
	     "data_loading                        4.000         +523.1           +0.0         0.0\n"
	     "forward_pass                        3.000          +45.2        +1250.3      2880.5\n"
	     "backward_pass                       2.500          +45.2        +1250.3      2880.5\n"
	     "misc                                0.500          +45.2        +1250.3      2880.5\n"
	     "TOTAL                               10.000s\n"
	     "==========\n");
	analyze(&m, &o, &rep, NULL);
	const struct finding *f = finding(&rep, "data-loading", "'data_loading' is 40.0%");
	cr_assert_not_null(f);
	cr_assert(strstr(f->advice, "num_workers"));
	f = finding(&rep, "optimize", "'forward_pass': 30.0%");
	cr_assert_not_null(f);
	cr_assert(strstr(f->advice, "mixed precision"));
	f = finding(&rep, "optimize", "'backward_pass': 25.0%");
	cr_assert_not_null(f);
	cr_assert_null(finding(&rep, "optimize", "'misc'"));
	report_free(&rep);
	/* thresholds are configurable */
	o.optimize_pct = 35;
	analyze(&m, &o, &rep, NULL);
	cr_assert_null(finding(&rep, "optimize", "'forward_pass'"));
	report_free(&rep);
	an_model_free(&m);
}

static void epochs_log(struct strbuf *sb, const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		strbuf_addf(sb, "  Epoch end: %.1fs total, GPU 1MB, 2MB reserved, peak 3MB\n", v[i]);
}

Test(warmup, seed001_epochs)
{
	static const double ep[] = { 5.2, 3.1, 3.0, 3.1, 3.0, 2.9 };
	struct strbuf sb = STRBUF_INIT;
	struct an_model m;
	struct an_opts o;
	struct report rep;
	epochs_log(&sb, ep, 6);
	an_model_init(&m, NAN);
	an_opts_default(&o);
	o.which = AN_WARMUP;
	load(&m, "w.log", sb.buf);
	analyze(&m, &o, &rep, NULL);
	const struct rtable *t = table(&rep, "warmup", NULL);
	cr_assert_not_null(t);
	cr_assert_float_eq(cell(t, "series", "epoch time", "first"), 5.2, 1e-12);
	cr_assert_float_eq(cell(t, "series", "epoch time", "steady_mean"), 3.02, 1e-12);
	cr_assert_float_eq(cell(t, "series", "epoch time", "overhead"), 2.18, 1e-12);
	/* S1 prints 72.2 % */
	cr_assert_float_eq(round(10 * cell(t, "series", "epoch time", "overhead_pct")) / 10, 72.2, 1e-9);
	cr_assert_float_eq(cell(t, "series", "epoch time", "steady_median"), 3.0, 1e-12);
	cr_assert_float_eq(cell(t, "series", "epoch time", "warmup_ends_at"), 1, 0);
	report_free(&rep);
	an_model_free(&m);
	strbuf_release(&sb);
}

Test(warmup, seed004_first_batch)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "  Batch 0: 0.538s, GPU 23.1MB, CPU 1648.9MB, loss=0.009458\n");
	for (int i = 1; i < 30; i++)
		strbuf_addf(&sb, "  Batch %d: 0.%03ds, GPU 23.1MB, CPU 1659.6MB, loss=0.016763\n", i, 180 + i % 10);
	struct an_model m;
	struct an_opts o;
	struct report rep;
	an_model_init(&m, NAN);
	an_opts_default(&o);
	load(&m, "b.log", sb.buf);
	analyze(&m, &o, &rep, NULL);
	const struct rtable *t = table(&rep, "warmup", NULL);
	cr_assert_float_eq(cell(t, "series", "batch time", "first"), 0.538, 1e-12);
	const struct finding *f = finding(&rep, "first-batch", "the first sample (0.538 s)");
	cr_assert_not_null(f);
	cr_assert_eq(f->line, 1);
	cr_assert(strstr(f->advice, "warmup"));
	cr_assert_float_eq(cell(t, "series", "batch time", "warmup_ends_at"), 1, 0);
	report_free(&rep);
	an_model_free(&m);
	strbuf_release(&sb);
}

Test(speedup, seed001_slowest_is_baseline)
{
	struct an_model m;
	struct an_opts o;
	struct report rep;
	an_model_init(&m, NAN);
	an_opts_default(&o);
	o.which = AN_SPEEDUP;
	load(&m, "s.log", "MLP complete: 120.00s total\nSIREN complete: 90.00s total\nKAN complete: 150.00s total\n");
	analyze(&m, &o, &rep, NULL);
	const struct rtable *t = table(&rep, "speedup", NULL);
	cr_assert_not_null(t);
	cr_assert_float_eq(cell(t, "name", "MLP", "speedup"), 1.25, 1e-12);
	cr_assert_float_eq(cell(t, "name", "SIREN", "speedup"), 150.0 / 90.0, 1e-12);
	cr_assert_float_eq(cell(t, "name", "KAN", "speedup"), 1.0, 0);
	cr_assert_str_eq(text_cell(t, "name", "MLP", "baseline"), "KAN");
	report_free(&rep);
	o.baseline = "SIREN";
	analyze(&m, &o, &rep, NULL);
	t = table(&rep, "speedup", NULL);
	cr_assert_float_eq(cell(t, "name", "KAN", "speedup"), 0.6, 1e-12);
	report_free(&rep);
	an_model_free(&m);
}

Test(scaling, known_exponent_and_prediction)
{
	struct strbuf sb = STRBUF_INIT;
	int ns[] = { 100, 200, 500, 1000, 2000, 5000 };
	for (size_t i = 0; i < 6; i++)
		strbuf_addf(&sb, "N=%d: %.6f ms\n", ns[i], 1e-4 * ns[i] * ns[i] * (1 + 0.01 * (i % 2 ? 1 : -1)));
	struct an_model m;
	struct an_opts o;
	struct report rep;
	an_model_init(&m, NAN);
	an_opts_default(&o);
	o.which = AN_SCALING;
	snprintf(o.predict.name, sizeof(o.predict.name), "N");
	o.predict.value = 10000;
	o.predict.set = 1;
	load(&m, "n.log", sb.buf);
	analyze(&m, &o, &rep, NULL);
	const struct rtable *t = table(&rep, "scaling", NULL);
	cr_assert_not_null(t);
	double b = cell(t, "param", "N", "exponent");
	cr_assert_float_eq(b, 2.0, 0.01);
	cr_assert_lt(cell(t, "param", "N", "ci_low"), 2.0);
	cr_assert_gt(cell(t, "param", "N", "ci_high"), 2.0);
	cr_assert_float_eq(cell(t, "param", "N", "predicted"), 1e4, 300);
	cr_assert_not_null(finding(&rep, "scaling", "consistent with the expected complexity"));
	report_free(&rep);
	an_model_free(&m);
	strbuf_release(&sb);
}

/* Deterministic noise for generated series. */
static double noise(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return ((*s >> 8) & 0xffff) / 65536.0 - 0.5;
}

Test(variance, known_outliers_drift_and_leak)
{
	struct strbuf sb = STRBUF_INIT;
	uint32_t seed = 7;
	for (int i = 0; i < 300; i++) {
		double t = 0.2 + 0.01 * noise(&seed);
		if (i == 50)
			t = 0.9;
		if (i == 200)
			t = 1.4;
		strbuf_addf(&sb, "  Batch %d: %.4fs, GPU 10.0MB, CPU %.1fMB, loss=0.5\n", i, t, 1000 + 0.5 * i);
	}
	struct an_model m;
	struct an_opts o;
	struct report rep;
	an_model_init(&m, NAN);
	an_opts_default(&o);
	o.which = AN_VARIANCE;
	load(&m, "v.log", sb.buf);
	analyze(&m, &o, &rep, NULL);
	const struct rtable *t = table(&rep, "outliers", NULL);
	cr_assert_not_null(t);
	cr_assert_eq(t->nrows, 2);
	/* "Batch 200" is the 201st sample, on line 201: indices count from 1, as lines do */
	cr_assert_float_eq(rt_cell(t, 0, (size_t)col(t, "index"))->v, 201, 0);
	cr_assert_float_eq(rt_cell(t, 0, (size_t)col(t, "line"))->v, 201, 0);
	cr_assert_float_eq(rt_cell(t, 1, (size_t)col(t, "index"))->v, 51, 0);
	const struct rtable *v = table(&rep, "variance", NULL);
	cr_assert_float_eq(cell(v, "series", "batch time", "max/min"), 1.4 / cell(v, "series", "batch time", "min"), 1e-9);
	cr_assert_not_null(finding(&rep, "high-variance", "batch time"));
	const struct finding *f = finding(&rep, "leak", "CPU memory grows 0.5 MB per batch");
	cr_assert_not_null(f, "leak slope");
	cr_assert_null(finding(&rep, "drift", "batch time"), "no drift in a flat series");
	report_free(&rep);
	an_model_free(&m);
	strbuf_release(&sb);
}

static void batches(struct strbuf *sb, int rank, int n, double base, uint32_t *seed)
{
	for (int i = 0; i < n; i++) {
		if (rank >= 0)
			strbuf_addf(sb, "[rank%d]: ", rank);
		strbuf_addf(sb, "Batch %d: %.4fs, GPU 1MB, CPU 2MB, loss=%.4f\n", i, base * (1 + 0.1 * noise(seed)),
			    1.0 / (i + 1));
	}
}

Test(compare, significance_and_gate)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, c = STRBUF_INIT;
	uint32_t seed = 1;
	batches(&a, -1, 200, 0.200, &seed);
	batches(&b, -1, 200, 0.240, &seed);
	batches(&c, -1, 200, 0.200, &seed);
	strbuf_addstr(&a, "[TIMING] setup: 10s\n");
	strbuf_addstr(&b, "[TIMING] setup: 12s\n");
	struct an_model m;
	struct an_opts o;
	struct report rep;
	int gate;
	an_model_init(&m, NAN);
	an_opts_default(&o);
	o.which = AN_COMPARE;
	o.fail_regression_pct = 10;
	load(&m, "a.log", a.buf);
	load(&m, "b.log", b.buf);
	load(&m, "c.log", c.buf);
	analyze(&m, &o, &rep, &gate);
	cr_assert_eq(gate, 1, "a 20%% slowdown with 200 samples trips a 10%% gate");
	const struct rtable *t = table(&rep, "compare", NULL);
	int kc = col(t, "item"), rc = col(t, "run"), pc = col(t, "p_value"), vc = col(t, "verdict");
	int seen_b = 0, seen_c = 0, seen_stage = 0;
	for (size_t r = 0; r < t->nrows; r++) {
		const char *item = rt_cell(t, r, (size_t)kc)->s, *run = rt_cell(t, r, (size_t)rc)->s;
		const struct rcell *p = rt_cell(t, r, (size_t)pc);
		const char *verdict = rt_cell(t, r, (size_t)vc)->s;
		if (!strcmp(item, "batch time") && !strcmp(run, "b.log")) {
			seen_b = 1;
			cr_assert_lt(p->v, 1e-6);
			cr_assert_str_eq(verdict, "slower (significant)");
		}
		if (!strcmp(item, "batch time") && !strcmp(run, "c.log")) {
			seen_c = 1;
			cr_assert_gt(p->v, 0.01);
			cr_assert_str_eq(verdict, "no significant change");
		}
		if (!strcmp(item, "stage setup") && !strcmp(run, "b.log")) {
			seen_stage = 1;
			cr_assert_eq(p->kind, RC_EMPTY);
			cr_assert_str_eq(verdict, "no samples: cannot tell");
		}
	}
	cr_assert(seen_b && seen_c && seen_stage);
	cr_assert_not_null(finding(&rep, "regression", "batch time"));
	report_free(&rep);
	an_model_free(&m);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&c);
}

Test(ranks, straggler_and_convergence)
{
	struct strbuf sb = STRBUF_INIT;
	uint32_t seed = 3;
	for (int r = 0; r < 4; r++)
		batches(&sb, r, 40, r == 3 ? 0.25 : 0.20, &seed);
	struct an_model m;
	struct an_opts o;
	struct report rep;
	an_model_init(&m, 0.05);
	an_opts_default(&o);
	o.loss_threshold = 0.05;
	load(&m, "ddp.log", sb.buf);
	analyze(&m, &o, &rep, NULL);
	const struct finding *f = finding(&rep, "straggler", "rank 3 is a straggler");
	cr_assert_not_null(f);
	cr_assert_null(finding(&rep, "straggler", "rank 0"));
	const struct rtable *t = table(&rep, "convergence", NULL);
	cr_assert_not_null(t);
	/* loss 1/(i+1) <= 0.05 first at i = 19: 20 steps */
	cr_assert_float_eq(cell(t, "rank", "0", "steps"), 20, 0);
	cr_assert_float_eq(cell(t, "rank", "3", "steps"), 20, 0);
	report_free(&rep);
	an_model_free(&m);
	strbuf_release(&sb);
}

Test(model, memory_bounded_by_names)
{
	/* 200k batch lines make the same number of model entries as 2k */
	struct an_model m;
	an_model_init(&m, NAN);
	struct strbuf sb = STRBUF_INIT;
	uint32_t seed = 5;
	batches(&sb, -1, 2000, 0.1, &seed);
	for (int i = 0; i < 100; i++)
		load(&m, "big.log", sb.buf);
	cr_assert_eq(m.nruns, 1);
	cr_assert_eq(m.runs[0]->ranks.n, 1);
	const struct an_batches *b = tp_map_at(&m.runs[0]->ranks, 0);
	cr_assert_eq(b->seconds.n, 200000);
	cr_assert_leq(b->seconds.nhead, TP_HEAD_MAX);
	cr_assert_leq(b->seconds.sketch.nbuckets, TP_SKETCH_MAX_BUCKETS);
	an_model_free(&m);
	strbuf_release(&sb);
}

Test(model, chart_trace_is_bounded_and_keeps_spikes)
{
	struct tp_trace *t = xmalloc(sizeof(*t));
	tp_trace_init(t);
	for (uint64_t i = 0; i < 100000; i++)
		tp_trace_add(t, i == 77777 ? 9.0 : 1.0, i, i + 1);
	const struct tp_sample *pts;
	struct tp_sample last;
	size_t n = tp_trace_points(t, &pts, &last);
	cr_assert_leq(n, TP_TRACE_MAX + 1);
	cr_assert_geq(n, TP_TRACE_MAX / 2);
	int seen = 0;
	for (size_t i = 0; i < t->n; i++)
		if (pts[i].v == 9.0) {
			seen = 1;
			cr_assert_eq(pts[i].index, 77777);
			cr_assert_eq(pts[i].line, 77778);
		}
	cr_assert(seen, "the spike survives down-sampling");
	free(t);
}

Test(model, chart_data_tables_are_hidden_from_people)
{
	struct an_model m;
	struct an_opts o;
	struct report rep;
	an_model_init(&m, NAN);
	an_opts_default(&o);
	load(&m, "d.log", "[2024-01-01 00:00:00] [TIMING] a: 1s\n[2024-01-01 00:00:05] [TIMING] b: 4s\n"
			  "Batch 0: 0.5s, GPU 1MB, CPU 2MB, loss=1\nBatch 1: 0.4s, GPU 1MB, CPU 2MB, loss=0.5\n"
			  "N=10: 1.0 ms\n");
	analyze(&m, &o, &rep, NULL);
	const struct rtable *t = table(&rep, "timeline", NULL);
	cr_assert_not_null(t);
	cr_assert(t->data_only);
	cr_assert_float_eq(cell(t, "stage", "b", "start"), 1.0, 1e-12);
	cr_assert_float_eq(cell(t, "stage", "b", "end"), 5.0, 1e-12);
	t = table(&rep, "points", NULL);
	cr_assert_float_eq(cell(t, "series", "batch time", "value"), 0.5, 1e-12);
	t = table(&rep, "scaling-points", NULL);
	cr_assert_float_eq(cell(t, "param", "N", "mean"), 1.0, 0);
	report_free(&rep);
	an_model_free(&m);
}

Test(breakdown, many_stages_are_summed_beyond_200_rows)
{
	struct strbuf sb = STRBUF_INIT;
	for (int i = 0; i < 1000; i++)
		strbuf_addf(&sb, "[TIMING] stage%d: %d.5s\n", i, i);
	struct an_model m;
	struct an_opts o;
	struct report rep;
	an_model_init(&m, NAN);
	an_opts_default(&o);
	o.which = AN_BREAKDOWN;
	load(&m, "many.log", sb.buf);
	analyze(&m, &o, &rep, NULL);
	const struct rtable *t = table(&rep, "breakdown", NULL);
	cr_assert_eq(t->nrows, 202); /* 200 stages, the rest, TOTAL */
	/* stages 0..799 are the rest: sum of i + 0.5 */
	cr_assert_float_eq(cell(t, "stage", "(800 other stages)", "seconds"), 799.0 * 800 / 2 + 400, 1e-6);
	cr_assert_float_eq(cell(t, "stage", "TOTAL", "seconds"), 999.0 * 1000 / 2 + 500, 1e-6);
	report_free(&rep);
	an_model_free(&m);
	strbuf_release(&sb);
}

/* The progress table of a real log analysed with the defaults. */
static const struct rtable *progress_of(const char *path, struct an_model *m, struct report *rep)
{
	struct strbuf sb = STRBUF_INIT;
	cr_assert_eq(tu_slurp(path, &sb), 0);
	an_model_init(m, NAN);
	load(m, path, sb.buf);
	strbuf_release(&sb);
	struct an_opts o;
	an_opts_default(&o);
	analyze(m, &o, rep, NULL);
	return table(rep, "progress", NULL);
}

/* A TRL SFT run's log (tests/data/real, README): the training bar and the
 * evaluation bars drawn within it have no description; their totals tell
 * them apart (1755 steps of 21 s, four evaluations of 984 at 0.29 s), the
 * finished bar drawn again is no new run, and the pauses of the training
 * bar while an evaluation ran are no stalls. */
Test(progress, bars_without_descriptions_apart_by_their_totals)
{
	struct an_model m;
	struct report rep;
	const struct rtable *t = progress_of("tests/data/real/hf-trl-qwen3-ariz.log", &m, &rep);
	cr_assert_not_null(t);
	cr_assert_eq(t->nrows, 2);
	int tc = col(t, "total"), rc = col(t, "runs"), sc = col(t, "steps"), mc = col(t, "step_median"),
	    xc = col(t, "stalls");
	int train = rt_cell(t, 0, (size_t)tc)->v == 1755 ? 0 : 1;
	cr_assert_float_eq(rt_cell(t, (size_t)train, (size_t)tc)->v, 1755, 0);
	cr_assert_float_eq(rt_cell(t, (size_t)train, (size_t)rc)->v, 1, 0);
	cr_assert_float_eq(rt_cell(t, (size_t)train, (size_t)sc)->v, 1755, 0);
	cr_assert_float_eq(rt_cell(t, (size_t)train, (size_t)mc)->v, 21.01, 0.01);
	cr_assert_float_eq(rt_cell(t, (size_t)train, (size_t)xc)->v, 0, 0);
	cr_assert_float_eq(rt_cell(t, (size_t)!train, (size_t)tc)->v, 984, 0);
	cr_assert_float_eq(rt_cell(t, (size_t)!train, (size_t)rc)->v, 4, 0);
	cr_assert_float_eq(rt_cell(t, (size_t)!train, (size_t)mc)->v, 0.2941, 0.0001);
	cr_assert_null(finding(&rep, "stall", "stalled"));
	report_free(&rep);
	an_model_free(&m);
}

/* A YOLOv5 console capture (tests/data/unseen3): each epoch's bar is seen
 * only full, its description the epoch and its losses in aligned columns;
 * the 64 epochs are one bar of 64 runs, and its redraws give the step. */
Test(progress, a_bar_seen_only_full_runs_once_an_epoch)
{
	struct an_model m;
	struct report rep;
	const struct rtable *t = progress_of("tests/data/unseen3/yolov5-cots.log", &m, &rep);
	cr_assert_not_null(t);
	int tc = col(t, "total"), rc = col(t, "runs"), mc = col(t, "step_median");
	size_t train = rt_cell(t, 0, (size_t)tc)->v == 197 ? 0 : 1;
	cr_assert_float_eq(rt_cell(t, train, (size_t)tc)->v, 197, 0);
	cr_assert_float_eq(rt_cell(t, train, (size_t)rc)->v, 64, 0);
	cr_assert_float_eq(rt_cell(t, train, (size_t)mc)->v, 341.0 / 197, 1e-3);
	cr_assert_null(finding(&rep, "nothing", "no stage"));
	report_free(&rep);
	an_model_free(&m);
}

/* MMPreTrain (tests/data/unseen2): the first iteration line, at 17:06:54,
 * closes a window of 100 iterations of 0.178 s that began at 17:06:36,
 * 33 s after the log's first stamp: 15 s of start-up, not 33. */
Test(progress, the_first_window_of_steps_is_no_startup)
{
	struct tu_result r = tu_run("$B/tprof-analyze -q -f json tests/data/unseen2/mmpretrain-fruits.log");
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	cr_assert(strstr(r.out.buf, "\"step_median\":0.178"), "%.300s", r.out.buf);
	cr_assert_null(strstr(r.out.buf, "before the first step"), "%s", strstr(r.out.buf, "start-up"));
	tu_result_free(&r);
}

/* A tqdm bar of 100 one-second items that stalls for 120 s before item 51,
 * redrawn after every item with tqdm's estimate of the time left. */
Test(progress, steps_stall_and_eta_from_redraws)
{
	struct strbuf sb = STRBUF_INIT;
	int e = 0;
	for (int n = 1; n <= 100; n++) {
		e += 1 + (n == 51 ? 120 : 0);
		int rem = (int)((double)e / n * (100 - n));
		strbuf_addf(&sb, "train: %3d%%|#####     | %d/100 [%02d:%02d<%02d:%02d,  %.2fit/s]\r", n, n, e / 60,
			    e % 60, rem / 60, rem % 60, (double)n / e);
	}
	strbuf_addstr(&sb, "\ndone\n");
	struct an_model m;
	an_model_init(&m, NAN);
	load(&m, "bar.log", sb.buf);
	strbuf_release(&sb);
	struct an_opts o;
	an_opts_default(&o);
	struct report rep;
	analyze(&m, &o, &rep, NULL);
	const struct rtable *t = table(&rep, "progress", NULL);
	cr_assert_not_null(t);
	cr_assert_float_eq(cell(t, "bar", "train", "redraws"), 100, 0);
	cr_assert_float_eq(cell(t, "bar", "train", "steps"), 100, 0);
	cr_assert_float_eq(cell(t, "bar", "train", "step_median"), 1, 1e-9);
	cr_assert_float_eq(cell(t, "bar", "train", "stalls"), 1, 0);
	cr_assert_float_eq(cell(t, "bar", "train", "stall_time"), 120, 1e-9);
	/* the predicted ends (elapsed + remaining) of items 1-99 against the end, 220 s */
	cr_assert_float_eq(cell(t, "bar", "train", "eta_error"), 42.72197278736839, 1e-9);
	cr_assert_float_eq(cell(t, "bar", "train", "eta_bias"), -38.03030303030303, 1e-9);
	const struct finding *f = finding(&rep, "stall", "progress bar 'train' stalled 1 time for 120 s");
	cr_assert_not_null(f);
	cr_assert_eq(f->line, 1);
	cr_assert_float_eq(f->at_stake, 120, 1e-9);
	cr_assert_not_null(finding(&rep, "eta-off", "its ETA was off by 43%"));
	report_free(&rep);
	an_model_free(&m);
}
